"""The table socket (protocol: docs/live.md; the user socket: tables.live.user_socket).

Consumers stay thin: they authenticate, join groups and forward. A group message carries a
version and, for a move, the seated players' own states (tables.live.events): a seated player's
socket sends its player's; any other socket builds its recipient's state from the database
(tables.play.payloads, the engine's view). Moves and chat go through tables.play.services exactly as
the HTTP API's do.
"""

from __future__ import annotations

import contextlib
import logging
import time
from typing import Any, TypeGuard

import rules
from tables.accounts.models import Player
from tables.alerts import presence, watchers
from tables.core.errors import NotFound, ServiceError, StaleVersion
from tables.core.text_input import text_problem
from tables.live import events
from tables.live.sockets import CLOSE_NOT_FOUND, LiveConsumer, ViewKey, db, recent_tables
from tables.play import payloads, selectors, services, verbs
from tables.play.models import Table

log = logging.getLogger(__name__)


class TableConsumer(LiveConsumer):
    """``/ws/tables/<invite_token>/``: the table as this caller may see it, live."""

    handlers = {
        "hello": "on_hello",
        "move": "on_move",
        "action": "on_action",
        "chat": "on_chat",
        "visibility": "on_visibility",
        "ping": "on_ping",
    }

    async def start(self) -> None:
        token = self.scope["url_route"]["kwargs"]["token"]
        if text_problem(token, one_line=True) is not None:  # no token holds one; PostgreSQL refuses a NUL
            await self.close(code=CLOSE_NOT_FOUND)
            return
        table = await db(Table.objects.filter(invite_token=token).values_list("pk", flat=True).first)()
        if table is None:
            await self.close(code=CLOSE_NOT_FOUND)
            return
        self.table_id: int = table
        self.player: Player | None = self.caller.player
        self.sent_version = -1
        self.visible = True
        # Chat up to now is the page's to fetch (GET .../chat); the socket sends what follows.
        self.last_chat_id = await db(selectors.last_chat_id)(self.table_id)
        await self.join(events.table_group(self.table_id))
        await self.accept()
        await self.send_state(None)
        if self.player is not None:
            await db(presence.touch_table)(self.player.pk, self.table_id, visible=True)
        else:  # a visitor with no player: a lease in the cache (alerts.watchers) counts it
            self.watch = watchers.Watch(self.table_id)
            try:
                await db(watchers.claim)(self.watch)
            except Exception:  # the cache is down: the page still works, uncounted until a beat
                log.warning("spectator lease not taken: the cache is unavailable", exc_info=True)
        await db(events.publish_presence)(self.table_id)
        self.start_heartbeat()

    async def disconnect(self, code: int) -> None:
        await super().disconnect(code)
        player = getattr(self, "player", None)
        if player is not None and hasattr(self, "table_id"):
            with contextlib.suppress(Exception):
                await db(presence.touch_table)(player.pk, self.table_id, visible=False, online=False)
                await db(events.publish_presence)(self.table_id)
        watch = getattr(self, "watch", None)
        if watch is not None:
            with contextlib.suppress(Exception):
                await db(watchers.release)(watch)
                await db(events.publish_presence)(self.table_id)

    def lease(self) -> tuple[int, int, bool] | None:
        return None if self.player is None else (self.player.pk, self.table_id, self.visible)

    def watch_lease(self) -> watchers.Watch | None:
        return getattr(self, "watch", None)

    # -- server to client ------------------------------------------------------------------

    def _state(self, version: int | None = None) -> dict[str, Any] | None:
        """The caller's state; ``version``: the one a group message announced, which another
        socket of this table may already have read."""
        row = None if version is None else recent_tables.at(self.table_id, version)
        if row is None:
            try:
                row = selectors.get_table(self.table_id)
            except NotFound:
                return None
            recent_tables.keep(row)
        return payloads.table_state(row, self.player)

    def _view_key(self, row: Table) -> ViewKey:
        seat, owner = row.seat_of(self.player), self.player is not None and self.player.pk == row.owner_id
        self.reader = (seat, owner)  # as of the newest row this socket saw (a guess for the next)
        return (row.pk, row.version, seat, owner)

    def _shared_view(self, version: int) -> tuple[ViewKey, dict[str, str]] | None:
        """The encoded view at ``version`` (or newer) for this socket's seat and ownership, built
        once per process and shared with every socket of the same (recent_tables)."""
        state = self._state(version)
        if state is None:
            return None
        encoded = events.encoded_state(state)
        row = recent_tables.at(self.table_id, state["version"])
        if row is None:  # another socket's read replaced it meanwhile: this view is not shared
            return (self.table_id, state["version"], None, False), encoded
        key = self._view_key(row)
        recent_tables.keep_view(key, encoded)
        return key, encoded

    async def event_view(self, version: int) -> tuple[int, dict[str, str]] | None:
        """This socket's encoded view for a group message announcing ``version`` (RecentTables.shared)."""
        reader = getattr(self, "reader", None)
        return await recent_tables.shared(
            self.table_id, version, reader, self._view_key, lambda: db(self._shared_view)(version)
        )

    async def send_state(
        self,
        kind: str | None,
        *,
        force: bool = False,
        published: float | None = None,
        version: int | None = None,
        encoded: dict[str, str] | None = None,
    ) -> None:
        """A snapshot on connect, when the client is behind or versions were skipped; else an event.
        ``encoded``: this player's state at ``version`` as the group message brought it
        (tables.live.events.encoded_state), sent as it is."""
        if encoded is None and version is not None and not force:
            shared = await self.event_view(version)
            if shared is None:
                await self.close(code=CLOSE_NOT_FOUND)
                return
            version, encoded = shared
        if encoded is None:
            state = await db(self._state)(version)
            if state is None:
                await self.close(code=CLOSE_NOT_FOUND)
                return
            version, encoded = state["version"], events.encoded_state(state)
        assert version is not None  # a group message brings its version with the encoded state
        if version <= self.sent_version and not force:
            return  # already sent (a group message for a version a snapshot covered)
        if kind is None or force or version != self.sent_version + 1:
            head: dict[str, Any] = {"type": "snapshot", "version": version}
        else:
            head = {"type": "event", "version": version, "kind": event_kind(kind, encoded["status"])}
            if published is not None:  # diagnostics for bench/load.py: when published, when sent
                head["timing"] = {"published": published, "sent": time.time()}
        await self.send(text_data=events.encode_json(head)[:-1] + ',"state":' + encoded["json"] + "}")
        self.sent_version = version

    async def table_event(self, message: dict[str, Any]) -> None:
        if message["kind"] == "chat":
            await self.send_new_chat()
        elif message["version"] > self.sent_version:
            own = None if self.player is None else message.get("states", {}).get(str(self.player.pk))
            await self.send_state(
                message["kind"], published=message.get("at"), version=message["version"], encoded=own
            )

    async def table_presence(self, message: dict[str, Any]) -> None:
        spectators = message.get("spectators", 0)  # absent from a message of the previous release
        await self.send_json({"type": "presence", "seats": message["seats"], "spectators": spectators})

    def _new_chat(self) -> list[dict[str, Any]]:
        table = selectors.get_table(self.table_id)
        messages = selectors.chat_history(table, self.player, after=self.last_chat_id)
        if messages:
            self.last_chat_id = messages[-1].id
        return [payloads.chat_message(message) for message in messages]

    async def send_new_chat(self) -> None:
        for message in await db(self._new_chat)():
            await self.send_json({"type": "chat", "message": message})

    # -- client to server ------------------------------------------------------------------

    async def on_hello(self, content: dict[str, Any]) -> None:
        """The client says which version it has: anything but the current one gets a snapshot."""
        version = content.get("version")
        state = await db(self._state)()
        if state is None:
            await self.close(code=CLOSE_NOT_FOUND)
        elif version != state["version"]:
            await self.send_json({"type": "snapshot", "version": state["version"], "state": state})
            self.sent_version = state["version"]

    async def on_move(self, content: dict[str, Any]) -> None:
        move_id = content.get("client_move_id")
        action, expected = content.get("action"), content.get("expected_version")
        if not _short_text(action, 24) or not isinstance(expected, int) or isinstance(expected, bool):
            field = "action" if not _short_text(action, 24) else "expected_version"
            await self.send_error(
                400,
                "invalid_input",
                "A move needs an action (a string) and an expected_version (a number).",
                field=field,
                client_move_id=move_id if _short_text(move_id, 64) else None,
            )
            return
        if move_id is not None and not _short_text(move_id, 64):
            await self.send_error(
                400, "invalid_input", "client_move_id: 1 to 64 characters.", field="client_move_id"
            )
            return
        await self._play(action, expected, move_id)

    async def _play(self, action: str, expected: int, move_id: str | None) -> None:
        if self.player is None:
            await self.send_error(401, "not_authenticated", "Join the table first.", client_move_id=move_id)
            return
        if await self.refused_read_only(client_move_id=move_id):
            return
        try:
            outcome = await db(services.apply_move)(
                self.table_id,
                self.player,
                action,
                expected,
                client_move_id=move_id,
                by_token=self.caller.via == "token",
            )
        except rules.IllegalMove as error:
            await self.send_error(400, "illegal_move", str(error), client_move_id=move_id)
        except ServiceError as error:
            await self.send_refusal(error, client_move_id=move_id)
        else:
            assert outcome.move is not None  # a move's outcome holds the move
            await self.send_json(
                {
                    "type": "move_result",
                    "client_move_id": move_id,
                    "version": outcome.table.version,
                    "move": payloads.move_summary(outcome.move, outcome.seat),
                }
            )

    async def send_refusal(self, error: ServiceError, **ids: Any) -> None:
        """A service's refusal of a socket message (naming the field at fault, as over HTTP); after
        a stale version, the table as it is."""
        field = {"field": error.field} if error.field else {}
        await self.send_error(error.status, error.code, error.message, **field, **ids)
        if isinstance(error, StaleVersion):
            await self.send_state(None, force=True)

    async def on_action(self, content: dict[str, Any]) -> None:
        """A table verb other than a move (verbs.SOCKET_VERBS), as its HTTP endpoint would take it:
        the answer is an ``action_result`` with the new version; the state follows as an event."""
        name, expected = content.get("action"), content.get("expected_version")
        request_id = content.get("request_id")
        if request_id is not None and not _short_text(request_id, 64):
            await self.send_error(400, "invalid_input", "request_id: 1 to 64 characters.", field="request_id")
            return
        verb = verbs.SOCKET_VERBS.get(name) if isinstance(name, str) else None  # not a list, a number...
        if verb is None:
            detail = "action must be one of: " + ", ".join(verbs.SOCKET_VERBS) + "."
            await self.send_error(400, "invalid_input", detail, field="action", request_id=request_id)
            return
        if expected is not None and (not isinstance(expected, int) or isinstance(expected, bool)):
            await self.send_error(
                400,
                "invalid_input",
                "expected_version must be a number.",
                field="expected_version",
                request_id=request_id,
            )
            return
        if self.player is None:
            await self.send_error(401, "not_authenticated", "Join the table first.", request_id=request_id)
            return
        if await self.refused_read_only(request_id=request_id):
            return
        try:
            outcome = await db(verb.run)(self.table_id, self.player, expected)
        except ServiceError as error:
            await self.send_refusal(error, request_id=request_id)
        else:
            await self.send_json(
                {
                    "type": "action_result",
                    "request_id": request_id,
                    "action": name,
                    "version": outcome.table.version,
                }
            )

    async def on_chat(self, content: dict[str, Any]) -> None:
        text = content.get("text")
        if not isinstance(text, str):  # as over HTTP (ChatIn), where the schema refuses it
            await self.send_error(400, "invalid_input", "text: a chat message is a string.", field="text")
            return
        if self.player is None:
            await self.send_error(401, "not_authenticated", "Type a name to chat.")
            return
        if await self.refused_read_only():
            return
        try:
            await db(services.post_chat)(self.table_id, self.player, text)
        except ServiceError as error:
            await self.send_refusal(error)

    async def on_visibility(self, content: dict[str, Any]) -> None:
        visible = content.get("visible")
        if not isinstance(visible, bool):
            await self.send_error(400, "invalid_input", "visible must be true or false.")
            return
        self.visible = visible
        if self.player is not None:
            await db(presence.touch_table)(self.player.pk, self.table_id, visible=visible)
            await db(events.publish_presence)(self.table_id)


def _short_text(value: Any, limit: int) -> TypeGuard[str]:
    return isinstance(value, str) and 0 < len(value) <= limit


def event_kind(kind: str, status: str) -> str:
    """The protocol's event kind from the service's kind and the table status it led to."""
    if status == "match_over" and kind in ("move", "timeout", "state"):
        return "match_over"
    if status == "between_deals" and kind in ("move", "timeout"):
        return "deal_over"
    if kind == "state":
        return "next_deal" if status == "playing" else "state"
    return kind
