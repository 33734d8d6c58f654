"""What both sockets share (protocol: docs/live.md): authenticating the caller, a flood limit,
refusing malformed messages with an error frame (the socket stays open), the database off the
event loop, the presence heartbeat, and the rows a process's sockets share. The table socket
and the user socket are in tables/live/consumers.py.
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
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, ParamSpec, TypeVar

from channels.consumer import get_handler_name
from channels.db import DatabaseSyncToAsync
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.db import connection

from tables.accounts import identity
from tables.accounts.models import Player
from tables.alerts import presence, watchers
from tables.core.text_input import MAX_JSON_DEPTH, json_too_deep, text_location
from tables.live import events
from tables.live.socket_auth import SocketCaller, resolve_caller
from tables.play.models import Table

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
# The longest message taken: a 500-character chat line with every character escaped is 6,000.
MAX_MESSAGE_CHARACTERS = 16_384


# None: decide by database. Tests set True: pool threads keep their own connections open.
SHARED_DB_THREAD: bool | None = None

P = ParamSpec("P")
R = TypeVar("R")


def db(fn: Callable[P, R]) -> Callable[P, Coroutine[Any, Any, R]]:
    """Run blocking ORM code off the event loop. SQLite (one writer anyway) keeps Channels'
    single shared thread; PostgreSQL uses a pool so one slow query does not queue all sockets."""
    shared = connection.vendor == "sqlite" if SHARED_DB_THREAD is None else SHARED_DB_THREAD
    return DatabaseSyncToAsync(fn, thread_sensitive=shared)


# A recipient's view depends on the row and on who reads it only through its seat (None for a
# spectator) and whether it is the owner (tables.play.payloads.table_state).
ViewKey = tuple[int, int, int | None, bool]  # table, version, seat, is the owner
Built = tuple[ViewKey, dict[str, str]] | None  # a view built, and its key


class RecentTables:
    """The newest row read for each table by this process's sockets, and the views built from
    it. A version reaches every socket of its table at once (both seats, spectators): one query
    then serves them all, and one view (encoded once) serves every socket of the same seat and
    ownership, e.g. all the spectators who are not the owner, without a thread hop of its own."""

    def __init__(self, size: int = 256):  # the sockets of one table read within moments
        self.size = size
        self.rows: OrderedDict[int, Table] = OrderedDict()
        self.views: OrderedDict[ViewKey, dict[str, str]] = OrderedDict()
        self.building: dict[tuple[int, int, Any], asyncio.Future[Built]] = {}  # on the loop only
        self.lock = threading.Lock()

    def view(self, key: ViewKey) -> dict[str, str] | None:
        with self.lock:
            return self.views.get(key)

    def keep_view(self, key: ViewKey, encoded: dict[str, str]) -> None:
        with self.lock:
            self.views[key] = encoded
            while len(self.views) > 4 * self.size:
                self.views.popitem(last=False)

    async def shared(
        self,
        table_id: int,
        version: int,
        reader: Any,
        key_of: Callable[[Table], ViewKey],
        build: Callable[[], Awaitable[Built]],
    ) -> tuple[int, dict[str, str]] | None:
        """A socket's encoded view at ``version``: one this process built already; else the one
        a socket of the same kind (``reader``: its seat and ownership as last seen) is building
        right now, since a version reaches all the table's sockets at once, if it turns out to
        be for the same seat and ownership (``key_of`` the row); else ``build()`` here (in the
        database thread: it reads the row, builds the view and keeps it, returning it and its key)."""
        row = self.at(table_id, version)
        encoded = None if row is None else self.view(key_of(row))
        if row is not None and encoded is not None:
            return row.version, encoded
        guess = (table_id, version, reader)
        building = self.building.get(guess)
        if building is not None:
            built = await asyncio.shield(building)
            row = None if built is None else self.at(table_id, built[0][1])
            if built is not None and row is not None and key_of(row) == built[0]:
                return built[0][1], built[1]
            built = await build()
        else:
            self.building[guess] = building = asyncio.get_running_loop().create_future()
            built = None
            try:
                built = await build()
            finally:
                self.building.pop(guess, None)
                building.set_result(built)
        return None if built is None else (built[0][1], built[1])

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
    batch of them all held up every move the process was serving (a p99 spike every period).

    A closing socket waits for a beat that is renewing it (discard): else the beat, having taken
    the socket before it closed, could renew its lease after the close released it, and the socket
    would count as present for another lease."""

    def __init__(self) -> None:
        # socket -> when its lease is next due (time.monotonic); a socket never closed is not kept
        self.sockets: weakref.WeakKeyDictionary[LiveConsumer, float] = weakref.WeakKeyDictionary()
        self.task: asyncio.Task[None] | None = None
        # the sockets the beat under way renews, and the event set when it ends
        self.in_flight: tuple[set[LiveConsumer], asyncio.Event] | None = None

    def add(self, socket: LiveConsumer) -> None:
        self.sockets[socket] = time.monotonic() + random.uniform(0, presence.HEARTBEAT_SECONDS)
        loop = asyncio.get_running_loop()
        if self.task is None or self.task.done() or self.task.get_loop() is not loop:
            self.task = loop.create_task(self._run())

    async def discard(self, socket: LiveConsumer) -> None:
        self.sockets.pop(socket, None)
        flight = self.in_flight
        if flight is not None and socket in flight[0]:
            await flight[1].wait()

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
        if not due:
            return
        ended = asyncio.Event()
        self.in_flight = (set(due), ended)
        try:
            await self._renew(due, now)
        finally:
            ended.set()
            self.in_flight = None

    async def _renew(self, due: list[LiveConsumer], now: float) -> None:
        for socket in due:
            if socket in self.sockets:
                self.sockets[socket] = now + presence.HEARTBEAT_SECONDS
                await socket.rejoin_groups()
        sockets = [socket for socket in due if socket in self.sockets]  # not those closed meanwhile
        leases = [lease for socket in sockets if (lease := socket.lease()) is not None]
        players = {player.pk for socket in sockets if (player := getattr(socket, "player", None)) is not None}
        if leases or players:
            await db(presence.renew_leases)(leases, players)
        watches = [watch for socket in sockets if (watch := socket.watch_lease()) is not None]
        if watches:
            await db(watchers.renew)(watches)


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
        session = self.scope.get("session")
        key = session.session_key if session is not None else None
        if key and self.caller.via == "session" and self.caller.player and self.caller.player.user_id:
            await self.join(events.session_group(key))  # an account's login: closed when it ends
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
        await heartbeat.discard(self)
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

    def watch_lease(self) -> watchers.Watch | None:
        """The cache lease of a table socket with no player (alerts.watchers); else None."""
        return None

    async def receive(
        self, text_data: str | None = None, bytes_data: bytes | None = None, **kwargs: Any
    ) -> None:
        """A message's size and nesting are checked on its raw text, before json.loads (which
        recurses once per level), and every string in it after (tables.core.text_input): each
        refusal is an error frame, and the socket stays open."""
        if not self.bucket.take():
            await self._refuse()
            return
        raw = text_data if text_data is not None else bytes_data or ""
        if len(raw) > MAX_MESSAGE_CHARACTERS:
            detail = f"A message has at most {MAX_MESSAGE_CHARACTERS} characters."
            await self.send_error(413, "too_large", detail)
            return
        if json_too_deep(raw):
            detail = f"message: nests deeper than {MAX_JSON_DEPTH} levels"
            await self.send_error(400, "invalid_input", detail, field="message")
            return
        try:
            content = json.loads(raw)
        except (TypeError, ValueError, RecursionError):
            await self.send_error(400, "invalid_json", "Messages are JSON objects.")
            return
        refused = text_location(content)
        if refused is not None:
            location, problem = refused
            field = ".".join(location) or "message"
            ids = _ids_of(content, but=location[0] if location else None)
            await self.send_error(400, "invalid_input", f"{field}: {problem}", field=field, **ids)
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

    @classmethod
    async def encode_json(cls, content: Any) -> str:
        """Frames sent with send_json (answers, presence, errors) in orjson, as the states are."""
        return events.encode_json(content)

    async def send_error(self, status: int, code: str, detail: str, **extra: Any) -> None:
        await self.send_json({"type": "error", "status": status, "code": code, "detail": detail, **extra})

    async def on_ping(self, content: dict[str, Any]) -> None:
        await self.send_json({"type": "pong"})

    async def refused_read_only(self, **ids: Any) -> bool:
        """A read-only token's move, verb or chat: refused with an error frame (403), as over HTTP."""
        if not self.caller.read_only:
            return False
        await self.send_error(403, "missing_scope", identity.READ_ONLY_REFUSAL, **ids)
        return True

    async def session_ended(self, message: dict[str, Any]) -> None:
        """The login session this socket came with was ended (logged out elsewhere, a new
        password, a second factor turned on): the socket closes as an unauthorised one."""
        await self.close(code=CLOSE_UNAUTHORISED)


def _ids_of(content: Any, but: str | None) -> dict[str, str]:
    """The ids a refused message carried (``client_move_id``, ``request_id``), for the client to
    match the error frame to what it sent; not ``but``, the one at fault."""
    if not isinstance(content, dict):
        return {}
    ids = {name: content.get(name) for name in ("client_move_id", "request_id") if name != but}
    return {name: value for name, value in ids.items() if isinstance(value, str) and 0 < len(value) <= 64}
