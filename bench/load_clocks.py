"""The live load's clock phase (bench/load.py --deadlines): tables nobody plays, each turn timed
out by the server; how late after the deadline the timeout move came."""

from __future__ import annotations

import asyncio
import datetime as dt
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bench.load import Load, Table


async def lateness(
    load: Load, tables: list[Table], percentiles: Callable[[list[float]], dict[str, float]]
) -> dict[str, Any]:
    """How late each table's first timeout came after its deadline: ``tables`` at the shortest
    clock (30 s) whose players never move (with a time bank, a turn's deadline is its 30 s and a
    90 s bank). ``percentiles``: bench/load_figures.py's, handed over (this file may be loaded by
    its path, beside another checkout's bench/)."""
    deadlines = {}
    for table in tables:
        async with load.http.get(
            f"{load.base(table.tokens[0])}/api/tables/{table.token}", headers=load.headers(table.tokens[0])
        ) as response:
            deadlines[table.token] = dt.datetime.fromisoformat((await response.json())["deal"]["deadline"])
    wait = max(deadlines.values()) - dt.datetime.now(dt.UTC)
    await asyncio.sleep(wait.total_seconds() + 5)
    lateness = []
    for table in tables:
        moves = []
        # A live table hides its move log (docs/api.md): each player reads the moves since their
        # own last one, so the timeout of either seat is in one of the two lists.
        for token in table.tokens.values():
            async with load.http.get(
                f"{load.base(token)}/api/tables/{table.token}/moves", headers=load.headers(token)
            ) as response:
                moves += (await response.json())["moves"]
        timed_out = sorted(
            (move for move in moves if move["source"] == "timeout"), key=lambda m: m["created_at"]
        )
        if timed_out:
            applied = dt.datetime.fromisoformat(timed_out[0]["created_at"])
            lateness.append((applied - deadlines[table.token]).total_seconds())
    return {
        "deadlines": len(tables),
        "timed_out": len(lateness),
        "early": sum(value < 0 for value in lateness),
        "lateness_s": percentiles(lateness),
    }
