"""The table socket and the user socket (protocol: docs/live.md).

Consumers stay thin: they authenticate, join groups and forward. A group message carries a
version and, for a move, the seated players' own states (tables.events): a seated player's
socket sends its player's; any other socket builds its recipient's state from the database
(tables.payloads, the engine's view). Moves and chat go through tables.services exactly as
the HTTP API's do.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import random
import threading
import time
import weakref
from collections import OrderedDict
from collections.abc import Callable, Coroutine
from typing import Any, ParamSpec, TypeGuard, TypeVar

from channels.consumer import get_handler_name
from channels.db import DatabaseSyncToAsync
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.db import connection
from django.db.models import Max

import rules

from . import events, payloads, selectors, services, verbs
from .alerts import notify, presence
from .errors import NotFound, ServiceError, StaleVersion
from .models import ChatMessage, Player, Table
from .socket_auth import SocketCaller, resolve_caller
from .text_input import nul_location

log = logging.getLogger(__name__)

CLOSE_UNAUTHORISED = 4401
CLOSE_FORBIDDEN = 4403
CLOSE_NOT_FOUND = 4404
CLOSE_FLOODING = 4429

BURST = 20  # messages a client may send at once
REFILL_PER_SECOND = 10
FLOOD_LIMIT = 40  # refused messages within FLOOD_WINDOW_SECONDS before the socket is closed
FLOOD_WINDOW_SECONDS = 10
BEAT_SLICES = 10  # heartbeat batches per HEARTBEAT_SECONDS (Heartbeat)


# None: decide by database. Tests set True: pool threads keep their own connections open.
SHARED_DB_THREAD: bool | None = None

P = ParamSpec("P")
R = TypeVar("R")


def db(fn: Callable[P, R]) -> Callable[P, Coroutine[Any, Any, R]]:
    """Run blocking ORM code off the event loop. SQLite (one writer anyway) keeps Channels'
    single shared thread; PostgreSQL uses a pool so one slow query does not queue all sockets."""
    shared = connection.vendor == "sqlite" if SHARED_DB_THREAD is None else SHARED_DB_THREAD
    return DatabaseSyncToAsync(fn, thread_sensitive=shared)


class RecentTables:
    """The newest row read for each table by this process's sockets. A version reaches every
    socket of its table at once (both seats, spectators): one query then serves them all, and
    each socket still builds its own recipient's view from the shared, read-only row."""

    def __init__(self, size: int = 256):  # the sockets of one table read within moments
        self.size = size
        self.rows: OrderedDict[int, Table] = OrderedDict()
        self.lock = threading.Lock()

    def at(self, table_id: int, version: int) -> Table | None:
        with self.lock:
            row = self.rows.get(table_id)
        return row if row is not None and row.version == version else None

    def keep(self, row: Table) -> None:
        with self.lock:
            known = self.rows.get(row.pk)
            if known is None or known.version < row.version:
                self.rows[row.pk] = row
            self.rows.move_to_end(row.pk)
            while len(self.rows) > self.size:
                self.rows.popitem(last=False)


recent_tables = RecentTables()


class Heartbeat:
    """Every HEARTBEAT_SECONDS each socket of this process has its presence lease renewed and its
    groups re-joined (for channel layers that expire memberships), in batches: one database call
    (presence.renew_leases) per beat for all the sockets then due, instead of a thread hop and a
    write per socket. A socket starts at a random point of the period and there are BEAT_SLICES
    beats a period, so a process with a thousand sockets renews about a hundred at a time: one
    batch of them all held up every move the process was serving (a p99 spike every period)."""

    def __init__(self) -> None:
        # socket -> when its lease is next due (time.monotonic); a socket never closed is not kept
        self.sockets: weakref.WeakKeyDictionary[LiveConsumer, float] = weakref.WeakKeyDictionary()
        self.task: asyncio.Task[None] | None = None

    def add(self, socket: LiveConsumer) -> None:
        self.sockets[socket] = time.monotonic() + random.uniform(0, presence.HEARTBEAT_SECONDS)
        loop = asyncio.get_running_loop()
        if self.task is None or self.task.done() or self.task.get_loop() is not loop:
            self.task = loop.create_task(self._run())

    def discard(self, socket: LiveConsumer) -> None:
        self.sockets.pop(socket, None)

    async def _run(self) -> None:
        while self.sockets:
            await asyncio.sleep(presence.HEARTBEAT_SECONDS / BEAT_SLICES)
            try:
                await self.beat()
            except Exception:  # the next beat tries again; leases outlast two periods
                log.exception("presence heartbeat failed")

    async def beat(self, now: float | None = None) -> None:
        now = time.monotonic() if now is None else now
        due = [socket for socket, at in list(self.sockets.items()) if at <= now]
        for socket in due:
            if socket in self.sockets:
                self.sockets[socket] = now + presence.HEARTBEAT_SECONDS
                await socket.rejoin_groups()
        sockets = [socket for socket in due if socket in self.sockets]  # not those closed meanwhile
        leases = [lease for socket in sockets if (lease := socket.lease()) is not None]
        players = {player.pk for socket in sockets if (player := getattr(socket, "player", None)) is not None}
        if leases or players:
            await db(presence.renew_leases)(leases, players)


heartbeat = Heartbeat()


class TokenBucket:
    def __init__(self, burst: int = BURST, rate: float = REFILL_PER_SECOND):
        self.burst, self.rate = burst, rate
        self.tokens = float(burst)
        self.stamp = time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


class LiveConsumer(AsyncJsonWebsocketConsumer):
    """Authentication, throttling, JSON errors and the presence heartbeat shared by both sockets."""

    handlers: dict[str, str] = {}
    player: Player | None  # set by each socket's start()

    async def connect(self) -> None:
        self.bucket = TokenBucket()
        self.refused: list[float] = []
        self.caller: SocketCaller = await db(resolve_caller)(self.scope)
        if not self.caller.allowed:
            await self.close(code=CLOSE_UNAUTHORISED)
            return
        events.remember_server_loop()
        await self.start()

    async def start(self) -> None:
        raise NotImplementedError

    async def dispatch(self, message: dict[str, Any]) -> None:
        """Channels' dispatch without its hop to another thread to close old database
        connections before every message: each database call here goes through db(), whose
        thread closes them before and after."""
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def disconnect(self, code: int) -> None:
        heartbeat.discard(self)
        for group in getattr(self, "groups_joined", []):
            await self.channel_layer.group_discard(group, self.channel_name)

    async def join(self, group: str) -> None:
        self.groups_joined = [*getattr(self, "groups_joined", []), group]
        await self.channel_layer.group_add(group, self.channel_name)

    def start_heartbeat(self) -> None:
        heartbeat.add(self)

    async def rejoin_groups(self) -> None:
        with contextlib.suppress(Exception):  # renews membership of layers that expire it
            for group in getattr(self, "groups_joined", []):
                await self.channel_layer.group_add(group, self.channel_name)

    def lease(self) -> tuple[int, int, bool] | None:
        """(player, table, page visible) for a table socket with a player; else None."""
        return None

    async def receive(
        self, text_data: str | None = None, bytes_data: bytes | None = None, **kwargs: Any
    ) -> None:
        if not self.bucket.take():
            await self._refuse()
            return
        try:
            content = json.loads(text_data or bytes_data or "")
        except (TypeError, ValueError):
            await self.send_error(400, "invalid_json", "Messages are JSON objects.")
            return
        location = nul_location(content)
        if location is not None:
            field = ".".join(location) or "message"
            await self.send_error(400, "invalid_input", f"{field}: must not contain a NUL character")
            return
        await self.receive_json(content)

    async def _refuse(self) -> None:
        now = time.monotonic()
        self.refused = [moment for moment in self.refused if now - moment < FLOOD_WINDOW_SECONDS] + [now]
        if len(self.refused) > FLOOD_LIMIT:
            await self.close(code=CLOSE_FLOODING)
            return
        await self.send_error(429, "rate_limited", f"At most {REFILL_PER_SECOND} messages a second.")

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        kind = content.get("type") if isinstance(content, dict) else None
        handler = self.handlers.get(kind) if isinstance(kind, str) else None
        if handler is None:
            await self.send_error(400, "unknown_type", f"Unknown message type {kind!r}.")
            return
        await getattr(self, handler)(content)

    async def send_error(self, status: int, code: str, detail: str, **extra: Any) -> None:
        await self.send_json({"type": "error", "status": status, "code": code, "detail": detail, **extra})

    async def on_ping(self, content: dict[str, Any]) -> None:
        await self.send_json({"type": "pong"})


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
        table = await db(Table.objects.filter(invite_token=token).values_list("pk", flat=True).first)()
        if table is None:
            await self.close(code=CLOSE_NOT_FOUND)
            return
        self.table_id: int = table
        self.player: Player | None = self.caller.player
        self.sent_version = -1
        self.visible = True
        self.last_chat_id = await db(self._last_chat_id)()
        await self.join(events.table_group(self.table_id))
        await self.accept()
        await self.send_state(None)
        if self.player is not None:
            await db(presence.touch_table)(self.player.pk, self.table_id, visible=True)
            await db(events.publish_presence)(self.table_id)
        self.start_heartbeat()

    def _last_chat_id(self) -> int:
        """Chat up to now is the page's to fetch (GET .../chat); the socket sends what follows."""
        return ChatMessage.objects.filter(table_id=self.table_id).aggregate(last=Max("id"))["last"] or 0

    async def disconnect(self, code: int) -> None:
        await super().disconnect(code)
        player = getattr(self, "player", None)
        if player is not None and hasattr(self, "table_id"):
            with contextlib.suppress(Exception):
                await db(presence.touch_table)(player.pk, self.table_id, visible=False, online=False)
                await db(events.publish_presence)(self.table_id)

    def lease(self) -> tuple[int, int, bool] | None:
        return None if self.player is None else (self.player.pk, self.table_id, self.visible)

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
        (tables.events.encoded_state), sent as it is."""
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
        await self.send(text_data=json.dumps(head)[:-1] + ', "state": ' + encoded["json"] + "}")
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
        await self.send_json({"type": "presence", "seats": message["seats"]})

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
            await self.send_error(
                400,
                "invalid_input",
                "A move needs an action and an expected_version.",
                client_move_id=move_id,
            )
            return
        if move_id is not None and not _short_text(move_id, 64):
            await self.send_error(400, "invalid_input", "client_move_id: 1 to 64 characters.")
            return
        await self._play(action, expected, move_id)

    async def _play(self, action: str, expected: int, move_id: str | None) -> None:
        if self.player is None:
            await self.send_error(401, "not_authenticated", "Join the table first.", client_move_id=move_id)
            return
        try:
            outcome = await db(services.apply_move)(
                self.table_id, self.player, action, expected, client_move_id=move_id
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
        """A service's refusal of a socket move or action; after a stale version, the table as it is."""
        await self.send_error(error.status, error.code, error.message, **ids)
        if isinstance(error, StaleVersion):
            await self.send_state(None, force=True)

    async def on_action(self, content: dict[str, Any]) -> None:
        """A table verb other than a move (verbs.SOCKET_VERBS), as its HTTP endpoint would take it:
        the answer is an ``action_result`` with the new version; the state follows as an event."""
        name, expected = content.get("action"), content.get("expected_version")
        request_id = content.get("request_id")
        if request_id is not None and not _short_text(request_id, 64):
            await self.send_error(400, "invalid_input", "request_id: 1 to 64 characters.")
            return
        verb = verbs.SOCKET_VERBS.get(name) if isinstance(name, str) else None
        if verb is None:
            detail = "action must be one of: " + ", ".join(verbs.SOCKET_VERBS) + "."
            await self.send_error(400, "invalid_input", detail, request_id=request_id)
            return
        if expected is not None and (not isinstance(expected, int) or isinstance(expected, bool)):
            await self.send_error(
                400, "invalid_input", "expected_version must be a number.", request_id=request_id
            )
            return
        if self.player is None:
            await self.send_error(401, "not_authenticated", "Join the table first.", request_id=request_id)
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
        if self.player is None:
            await self.send_error(401, "not_authenticated", "Type a name to chat.")
            return
        try:
            await db(services.post_chat)(self.table_id, self.player, content.get("text"))
        except ServiceError as error:
            await self.send_error(error.status, error.code, error.message)

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


class UserConsumer(LiveConsumer):
    """``/ws/me/``: on any page, the count of tables awaiting the player, and their alerts."""

    handlers = {"ping": "on_ping", "visibility": "on_visibility"}

    async def start(self) -> None:
        self.player = self.caller.player
        if self.player is None:
            await self.close(code=CLOSE_UNAUTHORISED)
            return
        self.pending: list[str] | None = None
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
