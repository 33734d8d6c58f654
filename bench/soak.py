"""Soak benchmark (not a test): bench/load.py's open-loop play at many tables for a long time,
with connection churn (a share of the players' sockets closed and reopened every few seconds),
while the server processes' memory is sampled every --sample-every seconds. It reports the
memory growth from the end of the warm-up to the end (with the samples between), lost and
duplicated versions (bench.load_figures.gaps: a reconnect's snapshot covers what it missed, anything
else skipped is lost), errors, and the tables that are stuck (still playing but with no new
version in the last --stuck-after seconds). With --time-bank every table has a time bank, so each
move also settles and refills the mover's bank (docs/live.md, "The time bank").

    DATABASE_URL=... REDIS_URL=... .venv/bin/python -m bench.soak --tables 300 --rate 60 \\
        --duration 1800 --server-pids "$(pgrep -d, -f 'daphne.*config.asgi')"

Needs a running stack (daphne + Redis + PostgreSQL + a Celery worker), as bench/load.py does.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

import aiohttp

from bench.load import Load, Table, bounded, progress
from bench.load_cli import make_tokens
from bench.load_figures import report


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError(f"no VmRSS for process {pid}")


RECONNECT_TRIES = 30  # a browser keeps trying; a soak table must not be lost to one bad minute


async def reconnect(load: Load, table: Table, seat: int) -> int:
    """Close one player's socket and open a new one: the client resynchronises from the snapshot.
    A refused handshake is tried again after a pause, as a browser does; returns the retries."""
    await table.sockets[seat].close()
    token = table.tokens[seat]
    for retry in range(RECONNECT_TRIES):
        try:
            socket = await load.sockets.ws_connect(
                f"{load.base(token)}/ws/tables/{table.token}/", headers=load.headers(token), heartbeat=None
            )
            break
        except (aiohttp.ClientError, OSError):
            if retry == RECONNECT_TRIES - 1:
                raise
            await asyncio.sleep(min(5, 1 + retry))
    table.sockets[seat] = socket
    load.receive(table, seat, json.loads((await socket.receive()).data))
    asyncio.get_running_loop().create_task(load.read(table, seat, socket))
    return retry


async def churn(load: Load, tables: list[Table], every: float, share: float, until: float) -> tuple[int, int]:
    """(reconnects, handshakes refused and tried again)."""
    done = retried = 0
    while time.time() < until:
        await asyncio.sleep(every)
        chosen = random.sample(tables, max(1, int(len(tables) * share)))
        retries = await bounded([reconnect(load, table, random.randrange(2)) for table in chosen], limit=50)
        done, retried = done + len(chosen), retried + sum(retries)
    return done, retried


async def watch_versions(
    tables: list[Table], every: float, until: float, last_change: dict[str, float]
) -> None:
    known: dict[str, int] = {}
    while time.time() < until:
        for table in tables:
            version = table.state()["version"]
            if known.get(table.token) != version:
                known[table.token], last_change[table.token] = version, time.time()
        await asyncio.sleep(every)


async def sample_memory(pids: list[int], every: float, until: float, samples: list[dict[str, Any]]) -> None:
    """Resident memory of each server process every ``every`` seconds: a leak keeps climbing,
    a process filling its caches levels off."""
    start = time.time()
    while time.time() < until:
        await asyncio.sleep(min(every, max(0.0, until - time.time())))
        samples.append({"at_s": round(time.time() - start), **{str(pid): rss_kib(pid) for pid in pids}})


async def soak(args: argparse.Namespace, tokens: list[str]) -> dict[str, Any]:
    pids = [int(pid) for pid in args.server_pids.split(",") if pid]
    async with (
        aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=args.connections)) as http,
        aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as sockets,
    ):
        load = Load(args.base.split(","), http, sockets)
        pairs = [(tokens[2 * i], tokens[2 * i + 1]) for i in range(args.tables)]
        opening = [load.open_table(a, b, args.turn_seconds, args.time_bank or None) for a, b in pairs]
        tables = await bounded(opening, limit=20)
        await bounded([load.connect(table) for table in tables], limit=50)
        progress(f"{len(tables)} tables, {2 * len(tables)} sockets; warm-up {args.warmup:.0f} s")
        await load.run(tables, args.rate, args.warmup)
        memory_before = {pid: rss_kib(pid) for pid in pids}
        until = time.time() + args.duration
        last_change: dict[str, float] = {}
        samples: list[dict[str, Any]] = [{"at_s": 0, **{str(pid): memory_before[pid] for pid in pids}}]
        churning = asyncio.create_task(churn(load, tables, args.churn_every, args.churn_share, until))
        background = [
            asyncio.create_task(sample_memory(pids, args.sample_every, until, samples)),
            churning,
            asyncio.create_task(watch_versions(tables, 5.0, until + 5, last_change)),
        ]
        load.moves.clear()
        elapsed = await load.run(tables, args.rate, args.duration)
        await asyncio.gather(*background)
        reconnects, retried = churning.result()
        memory_after = {pid: rss_kib(pid) for pid in pids}
        now = time.time()
        stuck = [
            table.token
            for table in tables
            if table.state()["status"] == "playing"
            and now - last_change.get(table.token, 0) > args.stuck_after
        ]
        for table in tables:
            for socket in table.sockets.values():
                await socket.close()
    growth = {pid: round(100 * (memory_after[pid] / memory_before[pid] - 1), 1) for pid in pids}
    return {
        "tables": args.tables,
        "duration_s": args.duration,
        "reconnects": reconnects,
        "reconnects_retried": retried,
        "memory_kib": {pid: [memory_before[pid], memory_after[pid]] for pid in pids},
        "memory_growth_percent": growth,
        "memory_samples_kib": samples,
        "stuck_tables": len(stuck),
        "time_bank": args.time_bank,
        "banked_tables": sum(bool((table.state().get("match") or {}).get("banks")) for table in tables),
        **report(load, tables, elapsed),
    }


def parse(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--base", default="http://127.0.0.1:8000", help="comma-separated server processes")
    parser.add_argument("--server-pids", default="", help="comma-separated pids whose memory is sampled")
    parser.add_argument("--tables", type=int, default=300)
    parser.add_argument("--rate", type=float, default=60.0, help="moves per second, all tables together")
    parser.add_argument("--duration", type=float, default=1800.0, help="seconds of soak after the warm-up")
    parser.add_argument("--warmup", type=float, default=60.0)
    parser.add_argument("--sample-every", type=float, default=60.0, help="seconds between memory samples")
    parser.add_argument("--churn-every", type=float, default=5.0, help="seconds between reconnect waves")
    parser.add_argument("--churn-share", type=float, default=0.05, help="share of tables per wave")
    parser.add_argument("--stuck-after", type=float, default=120.0)
    parser.add_argument("--turn-seconds", type=int, default=600)
    parser.add_argument(
        "--time-bank", action="store_true", help="a time bank at every table (the live clock's: docs/live.md)"
    )
    parser.add_argument("--connections", type=int, default=20, help="HTTP requests in flight at most")
    return parser.parse_args(argv)


if __name__ == "__main__":
    arguments = parse(sys.argv[1:])
    accounts = make_tokens(2 * arguments.tables, f"soak{int(time.time())}x")
    print(json.dumps(asyncio.run(soak(arguments, accounts)), indent=2))
