"""The user socket, ``/ws/me/`` (protocol: docs/live.md): on any page of a player, the count of
tables awaiting them, their alerts and their inbox's changes; on a tournament's page, that
event's new versions (the page asks with "watch_tournament" and renders itself again).
"""

from __future__ import annotations

from typing import Any

from tables.alerts import notify, presence
from tables.live import events
from tables.live.sockets import CLOSE_UNAUTHORISED, LiveConsumer, db
from tables.tournaments.selectors import version_by_token


class UserConsumer(LiveConsumer):
    handlers = {"ping": "on_ping", "visibility": "on_visibility", "watch_tournament": "on_watch_tournament"}

    async def start(self) -> None:
        self.player = self.caller.player
        if self.player is None:
            await self.close(code=CLOSE_UNAUTHORISED)
            return
        self.pending: list[str] | None = None
        self.tournament_group: str | None = None  # the event followed, if any, and its token
        self.tournament_token: str | None = None
        await self.join(events.player_group(self.player.pk))
        await self.accept()
        await self.send_pending()
        await self.touch_site()
        self.start_heartbeat()

    async def touch_site(self) -> None:
        assert self.player is not None  # start() closed a socket without one
        await db(presence.touch_site)(self.player.pk)

    async def on_visibility(self, content: dict[str, Any]) -> None:
        await self.touch_site()

    async def send_pending(self) -> None:
        assert self.player is not None  # start() closed a socket without one
        tables = await db(notify.pending_tables)(self.player)
        if tables != self.pending:
            self.pending = tables
            await self.send_json({"type": "pending", "count": len(tables), "tables": tables})

    async def pending_changed(self, message: dict[str, Any]) -> None:
        await self.send_pending()

    async def alert(self, message: dict[str, Any]) -> None:
        await self.send_json(message)

    async def inbox_changed(self, message: dict[str, Any]) -> None:
        """A line of the inbox was written or lines were read (on any device): every page counts
        its unread again."""
        await self.send_json({"type": "inbox"})

    async def on_watch_tournament(self, content: dict[str, Any]) -> None:
        """Follow one event (its invite token, as in its page's address: whoever has it may see
        the page) instead of the one followed before. The answer is its version now, so a page
        rendered before the socket joined catches up."""
        token = content.get("tournament")
        found = await db(version_by_token)(token) if isinstance(token, str) and len(token) <= 64 else None
        if found is None:
            await self.send_error(404, "not_found", "No such tournament.", tournament=token)
            return
        tournament_id, version = found
        await self._follow(events.tournament_group(tournament_id))
        self.tournament_token = token
        await self.send_json({"type": "tournament", "tournament": token, "version": version})

    async def _follow(self, group: str) -> None:
        previous = self.tournament_group
        if previous == group:
            return
        if previous is not None:
            self.groups_joined.remove(previous)
            await self.channel_layer.group_discard(previous, self.channel_name)
        self.tournament_group = group
        await self.join(group)

    async def tournament_changed(self, message: dict[str, Any]) -> None:
        version = message["version"]
        await self.send_json({"type": "tournament", "tournament": self.tournament_token, "version": version})
