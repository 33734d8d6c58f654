"""Live load benchmark (not a test): one asyncio process plays both seats of many tables
against a running stack (daphne + Redis + PostgreSQL + Celery) through the public HTTP API and
the table sockets. One process means one clock: every latency is measured without skew.

Moves are scheduled open-loop: the i-th move is due at start + i / rate, whatever happened
to earlier ones, and its latency runs from that intended time (not from the previous reply)
to the moment the opponent's socket delivers the new version. Each event also carries the
server's publish and send times, so the latency splits into stages:

    intended -> sent        the load client's own lag
    sent -> applied         the request (HTTP, or a socket message with --moves-via socket),
                            lock, engine, move row (the move's created_at)
    applied -> published    commit and on_commit publish
    published -> sent       channel layer to the consumer, which builds the state
    sent -> delivered       the socket to the client

A version a socket skipped without a snapshot covering it is a lost update; a version
delivered twice as an event is a duplicate. Then the clock phase: tables whose players never
move, so each turn times out; lateness = the timeout move's time - the deadline.

    DATABASE_URL=... REDIS_URL=... .venv/bin/python -m bench.load --tables 500 --rate 125 --duration 600

Moves go as HTTP requests (POST /api/tables/{token}/moves, what the table page sends) or, with
--moves-via socket, as "move" messages on the mover's table socket (docs/live.md), whose
"move_result" answer carries the move row; with --play knock, next deals and rematches then go
on the socket too ("action" messages; applied counts from when it was sent, as over HTTP)

With --four-seat-share S, that share of the tables are tables of four (bench/load_games.py):
each plays two boards at a time, which take places in the same rotation and are played alike.

Accounts and API tokens are made through Django directly (setup, not measured); everything
measured goes through HTTP and websockets. See bench/README.md, "Live load".
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import importlib.util
import json
import sys
import time
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import aiohttp

if TYPE_CHECKING:
    from bench.load_games import Games


def sibling(name: str) -> Any:
    """The module ``name`` beside this file: bench/live_compare.py runs this file by its path
    from another checkout, whose own bench/ may not have it."""
    spec = importlib.util.spec_from_file_location(f"bench_{name}", Path(__file__).with_name(f"{name}.py"))
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


if TYPE_CHECKING:
    from bench import load_cli as cli
    from bench import load_clocks as clocks
    from bench import load_figures as figures
else:
    cli, clocks, figures = (sibling(name) for name in ("load_cli", "load_clocks", "load_figures"))

# The deal-end actions that --moves-via socket also sends on the table socket, by HTTP path.
SOCKET_ACTIONS = {
    "next-deal": "next_deal",
    "rematch/offer": "rematch_offer",
    "rematch/accept": "rematch_accept",
}


# -- one table, both seats ------------------------------------------------------------------


@dataclass
class Move:
    intended: float
    table: Table
    version: int  # the version the move creates
    mover: int
    sent: float = 0.0
    applied: float | None = None
    published: float | None = None
    pushed: float | None = None
    delivered: float | None = None
    move_id: str | None = None  # socket mode: the client move id the answer carries


@dataclass
class Table:
    token: str
    tokens: dict[int, str]
    states: dict[int, dict[str, Any]] = field(default_factory=dict)
    sockets: dict[int, Any] = field(default_factory=dict)
    seen: dict[int, list[tuple[str, int]]] = field(default_factory=lambda: {0: [], 1: []})
    in_flight: Move | None = None
    on_match_over: Callable[[Table], None] | None = None  # a board of a table of four

    def state(self) -> dict[str, Any]:
        return max(self.states.values(), key=lambda state: state["version"])


class Load:
    def __init__(
        self,
        bases: list[str],
        http: aiohttp.ClientSession,
        sockets: aiohttp.ClientSession,
        via_socket: bool = False,
        play: str = "knock",
    ):
        self.bases, self.http, self.sockets = bases, http, sockets  # a socket holds its connection
        self.via_socket = via_socket  # moves as socket messages instead of HTTP requests
        self.style = play  # how the players choose their moves (Load.choose)
        self.home: dict[str, str] = {}  # account token -> the server process it talks to
        self.opened = 0
        self.moves: list[Move] = []
        self.skipped = self.errors = 0

    def headers(self, token: str) -> dict[str, str]:
        return {"Authorization": f"Bearer {token}", "Origin": self.base(token)}

    def base(self, token: str) -> str:
        return self.home.get(token, self.bases[0])

    async def post(self, token: str, path: str, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        async with self.http.post(
            self.base(token) + path, json=body, headers=self.headers(token)
        ) as response:
            return response.status, await response.json()

    async def open_table(
        self, first: str, second: str, turn_seconds: int, time_bank: bool | None = None
    ) -> Table:
        """With several server processes the two players of a table use different ones.
        ``time_bank`` None: the table's default (a bank at slow clocks only)."""
        self.opened += 1
        self.home[first] = self.bases[self.opened % len(self.bases)]
        self.home[second] = self.bases[(self.opened + 1) % len(self.bases)]
        options = {"turn_seconds": turn_seconds, "time_bank": time_bank}
        status, created = await self.post(first, "/api/tables", options)
        assert status == 201, created
        token = created["table"]
        await self.post(second, f"/api/tables/{token}/join", {})
        status, state = await self.post(first, f"/api/tables/{token}/start", {})
        assert status == 200, state
        seat = state["you"]["seat"]
        return Table(token, {seat: first, 1 - seat: second})

    async def connect(self, table: Table) -> None:
        for seat, token in table.tokens.items():
            socket = await self.sockets.ws_connect(
                f"{self.base(token)}/ws/tables/{table.token}/", headers=self.headers(token), heartbeat=None
            )
            table.sockets[seat] = socket
            self.receive(table, seat, json.loads((await socket.receive()).data))
            asyncio.get_running_loop().create_task(self.read(table, seat, socket))

    async def read(self, table: Table, seat: int, socket: aiohttp.ClientWebSocketResponse) -> None:
        async for frame in socket:
            if frame.type != aiohttp.WSMsgType.TEXT:
                break
            self.receive(table, seat, json.loads(frame.data))

    def receive(self, table: Table, seat: int, message: dict[str, Any]) -> None:
        """An event or snapshot on ``seat``'s socket (a reconnect's first snapshot included: it
        delivers whatever version the old socket missed)."""
        if message["type"] in ("move_result", "action_result", "error"):
            self.move_answered(table, message)
            return
        if message["type"] not in ("event", "snapshot"):
            return
        now = time.time()
        table.seen[seat].append((message["type"], message["version"]))
        if seat not in table.states or message["version"] >= table.states[seat]["version"]:
            table.states[seat] = message["state"]
        move = table.in_flight
        if move is not None and seat != move.mover and message["version"] >= move.version:
            move.delivered = now
            timing = message.get("timing") or {}
            move.published, move.pushed = timing.get("published"), timing.get("sent")
            if move.applied is not None:
                table.in_flight = None

    def move_answered(self, table: Table, message: dict[str, Any]) -> None:
        """The mover's socket answered a move sent on it (socket mode)."""
        move = table.in_flight
        answered = message.get("client_move_id") or message.get("request_id")
        if move is None or answered != move.move_id:
            return
        if message["type"] == "error":
            self.errors += 1
            table.in_flight = None
            return
        if message["type"] == "action_result":  # no log row: as over HTTP, applied when sent
            move.applied = move.sent
        else:
            move.applied = dt.datetime.fromisoformat(message["move"]["created_at"]).timestamp()
        self.moves.append(move)
        if move.delivered is not None:
            table.in_flight = None

    def next_action(self, table: Table) -> tuple[int, str, dict[str, Any]] | None:
        """(seat, path, body) of the table's next action, or None while the mover's view lags."""
        state = table.state()
        expected = {"expected_version": state["version"]}
        if state["status"] == "between_deals":
            return 0, f"/api/tables/{table.token}/next-deal", expected
        if state["status"] == "match_over":
            if table.on_match_over is not None:  # a board: no rematch, its game opens the next
                table.on_match_over(table)
                return None
            offered_by = state["rematch"]["offered_by"]
            if offered_by is None:
                return 0, f"/api/tables/{table.token}/rematch/offer", {}
            return 1 - offered_by, f"/api/tables/{table.token}/rematch/accept", {}
        if state["status"] != "playing":
            return None
        seat = state["deal"]["view"]["to_play"]
        mine = table.states.get(seat)
        if mine is None or mine["version"] != state["version"]:
            return None  # the mover's own view is not up to date yet
        action = self.choose(mine["deal"])
        return seat, f"/api/tables/{table.token}/moves", {"action": action, **expected}

    def choose(self, deal: dict[str, Any]) -> str:
        """--play stock: draw and throw the first card, never knock (every deal runs out of stock
        at the same move, so all tables end their deals together). --play knock: like the research
        baseline, throw the card the table's own counting says leaves the least deadwood and knock
        as soon as that is allowed, so deals end by knocks and gins at varied lengths."""
        legal: list[str] = deal["view"]["legal_actions"]
        draw = next((a for a in legal if a in ("draw_stock", "pass")), None)
        if draw is not None:
            return draw
        best = (deal.get("coach") or {}).get("best_discard") if self.style == "knock" else None
        if best is not None:
            for kind in ("big_gin", f"knock {best['card']}", f"discard {best['card']}"):
                if kind in legal:
                    return kind
        return next(a for a in legal if a.startswith("discard"))

    async def play(self, table: Table, intended: float) -> None:
        if table.in_flight is not None:
            self.skipped += 1
            return
        planned = self.next_action(table)
        if planned is None:
            self.skipped += 1
            return
        seat, path, body = planned
        move = Move(intended, table, table.state()["version"] + 1, seat)
        table.in_flight = move
        action = path.rsplit(f"{table.token}/", 1)[1]
        if self.via_socket and (action == "moves" or action in SOCKET_ACTIONS):
            move.move_id = f"{table.token[:8]}-{move.version}"
            move.sent = time.time()
            if action == "moves":
                message = {"type": "move", "client_move_id": move.move_id, **body}
            else:
                message = {
                    "type": "action",
                    "action": SOCKET_ACTIONS[action],
                    "request_id": move.move_id,
                    **body,
                }
            await table.sockets[seat].send_str(json.dumps(message))
            return  # the socket's answer and the opponent's event complete it
        move.sent = time.time()
        status, reply = await self.post(table.tokens[seat], path, body)
        if status != 200:
            self.errors += 1
            table.in_flight = None
            return
        state = reply.get("state", reply)
        table.states[seat] = max(table.states[seat], state, key=lambda s: s["version"])
        created = (reply.get("move") or {}).get("created_at")
        move.applied = dt.datetime.fromisoformat(created).timestamp() if created else move.sent
        self.moves.append(move)
        if move.delivered is not None:
            table.in_flight = None

    async def run(self, tables: list[Table], rate: float, seconds: float) -> float:
        """Open loop: move i is due at start + i / rate, on table i mod len(tables)."""
        start = time.time() + 0.5
        total = int(rate * seconds)
        pending = set()
        for number in range(total):
            intended = start + number / rate
            delay = intended - time.time()
            if delay > 0:
                await asyncio.sleep(delay)
            if number % int(rate * 10) == 0:
                progress(f"{number} moves due, {len(self.moves)} applied, {self.errors} errors")
            task = asyncio.get_running_loop().create_task(self.play(tables[number % len(tables)], intended))
            pending.add(task)
            task.add_done_callback(pending.discard)
        await asyncio.gather(*pending)
        await asyncio.sleep(2)  # the last events arrive
        return time.time() - start


async def bounded(coroutines: Iterable[Awaitable[Any]], limit: int) -> list[Any]:
    gate = asyncio.Semaphore(limit)

    async def one(coroutine: Awaitable[Any]) -> Any:
        async with gate:
            return await coroutine

    return await asyncio.gather(*(one(coroutine) for coroutine in coroutines))


def progress(text: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {text}", file=sys.stderr, flush=True)


async def main(args: argparse.Namespace, tokens: list[str]) -> dict[str, Any]:
    connector = aiohttp.TCPConnector(limit=args.connections)
    results: dict[str, Any] = {
        "tables": args.tables,
        "rate": args.rate,
        "duration": args.duration,
        "moves_via": args.moves_via,
        "play": args.play,
    }
    async with (
        aiohttp.ClientSession(connector=connector) as http,
        aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as sockets,
    ):
        load = Load(args.base.split(","), http, sockets, args.moves_via == "socket", args.play)
        if args.tables:
            four_seat = round(args.tables * args.four_seat_share)
            two_seat = args.tables - four_seat
            tables = await bounded(
                [
                    load.open_table(tokens[2 * i], tokens[2 * i + 1], args.turn_seconds)
                    for i in range(two_seat)
                ],
                limit=20,
            )
            games: Games | None = None
            if four_seat:
                games = sibling("load_games").Games(load, Table, tables)
                await games.open(tokens[2 * two_seat :], four_seat, args.turn_seconds)
            progress(f"{len(tables)} tables open")
            await bounded([load.connect(table) for table in tables], limit=50)
            progress(f"{2 * len(tables)} sockets connected; load for {args.duration:.0f} s")
            elapsed = await load.run(tables, args.rate, args.duration)
            progress(f"load done: {len(load.moves)} moves")  # bench/live_compare.py reads the CPU here
            played = tables if games is None else tables[:two_seat] + games.tables()
            results["load"] = figures.report(load, played, elapsed)
            if games is not None:
                results["four_seat"] = await games.report(figures.report, elapsed)
            if args.over_time:
                results["over_time"] = figures.over_time(load, args.over_time)
            for table in played:
                for socket in table.sockets.values():
                    await socket.close()
        if args.deadlines:
            progress(f"clock phase: {args.deadlines} tables at 30 s")
            # A 30 s clock, the shortest, and nobody moves: each turn times out (docs/live.md).
            opening = (
                load.open_table(tokens[2 * i], tokens[2 * i + 1], 30, args.time_bank or None)
                for i in range(args.deadlines)
            )
            results["clocks"] = await clocks.lateness(
                load, await bounded(opening, limit=20), figures.percentiles
            )
    return results


if __name__ == "__main__":
    arguments = cli.parse(sys.argv[1:], __doc__)
    accounts = cli.make_tokens(cli.accounts_needed(arguments), f"load{int(time.time())}x")
    outcome = asyncio.run(main(arguments, accounts))
    print(json.dumps(outcome, indent=2))
