"""What one move over the socket costs the server, fixed as counts rather than latencies: the
SQL statements of the move (the writer, the mover's answer, each recipient's frame and the
follow-up), the channel-layer publishes, the cache and Redis round trips, and the bytes of each
frame. A feature that adds a query or a publish to every move fails here instead of hiding in
the noise of a load benchmark (bench/README.md, "Live load").

Counting is thread-safe: statements are counted where every cursor of every thread executes
them (django.db.backends.utils.CursorWrapper), cache calls on the cache's class and Redis round
trips on redis-py's connections (sync and asyncio), so the socket's database thread, the
publisher and the follow-up are all seen. What runs inside a recipient socket's own frame
building (TableConsumer._state) is counted apart as that recipient's frame."""

from __future__ import annotations

import json
import threading
from collections import Counter as Tally
from typing import Any

import pytest
from django.conf import settings
from django.core.cache import caches
from django.db import connection
from django.db.backends import utils as db_utils

from config.celery import app
from tables.background import embedded, scheduling
from tables.live import consumers, events, sockets
from tests.tables.helpers import make_account_client, started, to_play

from .helpers import connect, drain, receive_type, run

pytestmark = pytest.mark.django_db(transaction=True)

USES_REDIS = bool(settings.REDIS_URL)

# One move (a pass or a draw from the stock) with both players and one spectator watching:
# the statements of the whole move (writer, answer, follow-up, every frame) and of the
# spectator's own frame (the players' frames come built in the group message: none).
# The writer locks the table, its deal and match in one statement and PostgreSQL writes the move
# in one more (tables.play.services.play); SQLite's transaction opens with a statement of its own.
MOVE_QUERIES = {"postgresql": 3, "sqlite": 6}[connection.vendor]
FRAME_QUERIES = 1
MOVE_PUBLISHES = 1
# Cache calls (the cache's own methods) and, with Redis, round trips to it (commands or
# pipelines sent by the cache, the channel layer's publishes and the follow-up's claims).
MOVE_CACHE_CALLS = 0
FRAME_CACHE_CALLS = 0
MOVE_REDIS_ROUND_TRIPS = 1  # the publish
FRAME_REDIS_ROUND_TRIPS = 0
# A discard, with its follow-up run inline (eager Celery): the table read again and the
# opponent's presence on it (tables.alerts.notify), the "your move" alert's claim in the cache,
# and four publishes (the event, the alert, both players' pending counts). Publishes leave in
# batches (config.channel_layer), so their round trips are a bound, not an exact figure.
DISCARD_QUERIES = {"postgresql": 5, "sqlite": 8}[connection.vendor]
DISCARD_PUBLISHES = 4
DISCARD_CACHE_CALLS = 1
DISCARD_REDIS_ROUND_TRIPS = 5  # at most: the claim, and each publish in a batch of its own
# An event frame's bytes (its timing stamps vary a little): about 2,300 and 2,080 now, in compact
# JSON (tables.live.events.encode_json); 2,610 and 2,315 before. A table with a time bank (the
# default at a slow clock, as this one) also carries its terms and both banks: about 140 more.
BANK_BYTES = 140
MAX_EVENT_BYTES = {"opponent": 2_400 + BANK_BYTES, "spectator": 2_150 + BANK_BYTES}

CACHE_METHODS = (
    "get",
    "set",
    "add",
    "delete",
    "touch",
    "incr",
    "get_many",
    "set_many",
    "delete_many",
    "has_key",
)


@pytest.fixture
def carol(db):
    return make_account_client("carol@example.com")


@pytest.fixture(autouse=True)
def _one_db_thread(monkeypatch):
    monkeypatch.setattr(sockets, "SHARED_DB_THREAD", True)


@pytest.fixture(autouse=True)
def _no_heartbeat(monkeypatch):
    """A heartbeat falling due inside the measured move would add its renewals to the counts."""
    monkeypatch.setattr(sockets.heartbeat, "add", lambda socket: None)


@pytest.fixture(autouse=True)
def _no_stray_work():
    """Counting is per process, so nothing left by an earlier test may run inside the measured
    move: a batch of follow-ups still in its window (its timer would run it under this module's
    eager Celery) or an embedded scheduler's sweeps."""
    scheduling.follow_ups.flush()
    embedded.stop()


@pytest.fixture(autouse=True)
def _eager_celery(monkeypatch):
    monkeypatch.setitem(app.conf, "task_always_eager", True)


class Costs:
    """Counts, by phase ("move", or "frame" inside a recipient's TableConsumer._state), of SQL
    statements, cache calls, Redis round trips and publishes, from any thread."""

    def __init__(self, monkeypatch):
        self.on = False
        self.tally: Tally[tuple[str, str]] = Tally()
        self.statements: list[str] = []
        self.lock = threading.Lock()
        self.local = threading.local()
        self._count_method(monkeypatch, db_utils.CursorWrapper, "execute", "queries", self._statement)
        self._count_method(monkeypatch, db_utils.CursorWrapper, "executemany", "queries", self._statement)
        for name in CACHE_METHODS:
            if name in vars(type(caches["default"])) or hasattr(type(caches["default"]), name):
                self._count_method(monkeypatch, type(caches["default"]), name, "cache")
        self._count_method(monkeypatch, events, "group_send", "publishes")
        if USES_REDIS:
            import redis.asyncio.connection
            import redis.connection

            self._count_method(
                monkeypatch, redis.connection.AbstractConnection, "send_packed_command", "redis"
            )
            self._count_method(
                monkeypatch, redis.asyncio.connection.AbstractConnection, "send_packed_command", "redis"
            )
        original_state = consumers.TableConsumer._state

        def state(consumer, *args, **kwargs):
            if self.on:
                with self.lock:
                    self.tally[("frame", "views")] += 1
            self.local.phase = "frame"
            try:
                return original_state(consumer, *args, **kwargs)
            finally:
                self.local.phase = "move"

        monkeypatch.setattr(consumers.TableConsumer, "_state", state)

    def _statement(self, args: tuple[Any, ...]) -> None:
        phase = getattr(self.local, "phase", "move")
        self.statements.append(f"{phase} ({threading.current_thread().name}): {str(args[1])[:90]}")

    def _count_method(self, monkeypatch, owner, name, what, note=None):
        original = getattr(owner, name)
        costs = self
        depth = threading.local()  # a cache method calling another (get_many -> get) counts once

        def counted(*args, **kwargs):
            level = getattr(depth, "level", 0)
            if costs.on and level == 0:
                with costs.lock:
                    costs.tally[(getattr(costs.local, "phase", "move"), what)] += 1
                    if note is not None:
                        note(args)
            depth.level = level + 1
            try:
                return original(*args, **kwargs)
            finally:
                depth.level = level

        monkeypatch.setattr(owner, name, counted)

    def total(self, what: str) -> int:
        return self.tally[("move", what)] + self.tally[("frame", what)]

    def frame(self, what: str) -> int:
        return self.tally[("frame", what)]


def to_discard(token: str, players) -> tuple[Any, Any, dict[str, Any]]:
    """Play (over HTTP) until a player holds eleven cards: (that player, the other, its state)."""
    while True:
        mover, other, state = to_play(token, players)
        view = state["deal"]["view"]
        if view["phase"] == "discard":
            return mover, other, state
        action = "draw_stock" if "draw_stock" in view["legal_actions"] else "pass"
        mover.ok("post", f"/tables/{token}/moves", {"action": action, "expected_version": state["version"]})


def measure_one_move(alice, bob, carol, monkeypatch, *more_spectators, discard=False) -> dict[str, Any]:
    """The costs of one move: a pass or a draw (told to the sockets, nothing to follow up), or
    with ``discard`` a discard (the turn passes: the follow-up runs too, eager here)."""
    token, players = started(alice, bob)
    for spectator in (carol, *more_spectators):
        spectator.ok("post", f"/tables/{token}/join", {})
    if discard:
        mover, other, state = to_discard(token, players)
        action = f"discard {state['deal']['coach']['best_discard']['card']}"
    else:
        mover, other, state = to_play(token, players)
        action = next(a for a in state["deal"]["view"]["legal_actions"] if a in ("draw_stock", "pass"))
    costs = Costs(monkeypatch)
    frames: dict[str, int] = {}

    async def body():
        sockets_by_role = {
            "mover": await connect(f"/ws/tables/{token}/", mover),
            "opponent": await connect(f"/ws/tables/{token}/", other),
            "spectator": await connect(f"/ws/tables/{token}/", carol),
        }
        for number, spectator in enumerate(more_spectators):
            sockets_by_role[f"spectator {number + 2}"] = await connect(f"/ws/tables/{token}/", spectator)
        for socket in sockets_by_role.values():
            await receive_type(socket, "snapshot")
            await drain(socket)
        costs.on = True
        await sockets_by_role["mover"].send_json_to(
            {"type": "move", "action": action, "expected_version": state["version"]}
        )
        await receive_type(sockets_by_role["mover"], "move_result")
        for role, socket in sockets_by_role.items():
            if role == "mover":
                continue  # the mover's socket answers with move_result, and sends its event too
            raw = await socket.receive_from(timeout=5)
            while json.loads(raw)["type"] != "event":
                raw = await socket.receive_from(timeout=5)
            frames[role] = len(raw.encode())
        for socket in sockets_by_role.values():
            await drain(socket)
        costs.on = False
        for socket in sockets_by_role.values():
            await socket.disconnect()

    run(body)
    return {
        "queries": costs.total("queries"),
        "frame_queries": costs.frame("queries"),
        "statements": costs.statements,
        "publishes": costs.total("publishes"),
        "cache": costs.total("cache"),
        "frame_cache": costs.frame("cache"),
        "redis": costs.total("redis"),
        "frame_redis": costs.frame("redis"),
        "frames": frames,
        "views": costs.frame("views"),
    }


def check(figures: dict[str, Any]) -> None:
    assert figures["queries"] == MOVE_QUERIES, figures["statements"]
    assert figures["frame_queries"] == FRAME_QUERIES, figures["statements"]
    assert figures["publishes"] == MOVE_PUBLISHES, figures
    assert figures["cache"] == MOVE_CACHE_CALLS, figures
    assert figures["frame_cache"] == FRAME_CACHE_CALLS, figures
    if USES_REDIS:
        assert figures["redis"] == MOVE_REDIS_ROUND_TRIPS, figures
        assert figures["frame_redis"] == FRAME_REDIS_ROUND_TRIPS, figures
    for role, limit in MAX_EVENT_BYTES.items():
        assert figures["frames"][role] <= limit, (role, figures["frames"])


def test_one_socket_move_costs_what_it_did(alice, bob, carol, monkeypatch):
    check(measure_one_move(alice, bob, carol, monkeypatch))


def test_a_discard_and_its_follow_up_cost_what_they_did(alice, bob, carol, monkeypatch):
    """A move that passes the turn: the same as a draw, and its follow-up (tables.play.tasks.
    table_changed: the table read again, the deadline's fast path, the "your move" alert and its
    claims, both players' pending counts) runs inline under eager Celery."""
    figures = measure_one_move(alice, bob, carol, monkeypatch, discard=True)
    assert figures["queries"] == DISCARD_QUERIES, figures["statements"]
    assert figures["frame_queries"] == FRAME_QUERIES, figures["statements"]
    assert figures["publishes"] == DISCARD_PUBLISHES, figures
    assert figures["cache"] == DISCARD_CACHE_CALLS, figures
    if USES_REDIS:
        assert figures["redis"] <= DISCARD_REDIS_ROUND_TRIPS, figures


def test_spectators_share_one_view_per_version(alice, bob, carol, monkeypatch):
    """Every spectator's frame is the same view (seat None, not the owner): built and read once
    per process and version, however many watch; the next spectators' sockets take it as it is."""
    dave = make_account_client("dave@example.com")
    erin = make_account_client("erin@example.com")
    figures = measure_one_move(alice, bob, carol, monkeypatch, dave, erin)
    assert figures["views"] == 1, figures
    assert figures["frame_queries"] == FRAME_QUERIES, figures["statements"]
    assert figures["queries"] == MOVE_QUERIES, figures["statements"]
    sizes = {size for role, size in figures["frames"].items() if role.startswith("spectator")}
    assert len(figures["frames"]) == 4 and max(sizes) - min(sizes) < 20, figures["frames"]


@pytest.mark.parametrize(
    ("module", "function", "figure", "allowed"),
    [
        ("tables.play.services", "apply_move", "queries", MOVE_QUERIES),
        ("tables.play.payloads", "table_state", "frame_queries", FRAME_QUERIES),
    ],
    ids=["in-the-writer", "in-a-recipients-frame"],
)
def test_a_planted_query_fails_the_guard(alice, bob, carol, monkeypatch, module, function, figure, allowed):
    """The guard is not blind: one more statement in the writer, or in the building of one
    recipient's frame, is caught."""
    import importlib

    from tables.accounts.models import Player

    target = importlib.import_module(module)
    original = getattr(target, function)

    def with_one_more_query(*args, **kwargs):
        Player.objects.exists()
        return original(*args, **kwargs)

    monkeypatch.setattr(target, function, with_one_more_query)
    figures = measure_one_move(alice, bob, carol, monkeypatch)
    assert figures[figure] == allowed + 1, figures["statements"]
    with pytest.raises(AssertionError):
        check(figures)
