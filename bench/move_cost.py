"""CPU cost of one move on the server, stage by stage, in-process (a benchmark, not a test).

Plays both seats of many tables through tables.play.services (the path every HTTP view, socket, bot
and timeout takes) and times, in CPU time of this process (time.process_time, so waiting for
PostgreSQL or Redis is not counted and another busy process barely skews it):

    service     services.apply_move: locks, engine, move row, saves, commit, publish
    answer      the mover's state, built from the rows the service locked (the HTTP answer)
    socket      one recipient socket's state: a fresh read of the table and its view
    follow-up   the table_changed task (deadline ETA, alerts, pending counts), when a move sends it

    DATABASE_URL=postgres://... REDIS_URL=redis://... .venv/bin/python -m bench.move_cost --tables 20 --rounds 12

Then the live path (--live-tables N, 0 to skip): the same moves sent as "move" messages on the
mover's table socket through the project's whole ASGI application in this process (the
consumer's receive and checks, the thread hop, the writer, the commit, the publish through the
channel layer, every socket of the table building and sending its frame, the mover's answer)
with both players and one spectator connected, and the follow-up: with a broker (REDIS_URL) the
web process's batched hand-off (tables.background.scheduling.FollowUps) and the worker's task
run here on each batch; without one, eager Celery runs the task inline. Its figure is the CPU of
the whole process (every thread) over all the moves, divided by the moves, less the client's
own decoding of the frames: what the daphnes and the worker of the live stack spend on a move.

Without REDIS_URL the channel layer is in memory and Celery eager (make run's mode). The database
must be a scratch one: the script migrates it and leaves its tables behind.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
import warnings
from collections.abc import Callable
from typing import Any, TypeVar

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
# As the live stack runs (bench/README.md, "Live load"): with DEBUG on, Django's debug cursor
# records and formats every query, CPU that production never spends.
os.environ.setdefault("DEBUG", "false")
os.environ.setdefault("SECRET_KEY", "bench-secret")
os.environ.setdefault("ALLOWED_HOSTS", "127.0.0.1,localhost")
os.environ.setdefault("LOG_LEVEL", "WARNING")
warnings.filterwarnings("ignore", "No directory at", UserWarning)  # static files are not served here

import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402

from tables.accounts.models import Player  # noqa: E402
from tables.play import payloads, selectors, services, tasks  # noqa: E402
from tables.play.models import Table  # noqa: E402

STAGES = ("service", "answer", "socket", "follow-up")
T = TypeVar("T")


def started_table() -> tuple[int, list[Player]]:
    players = [Player.objects.create(display_name=name) for name in ("A", "B")]
    table = services.create_table(players[0], turn_seconds=Table.TURN_CLOCKS[-1])
    services.join_table(table.pk, players[1])
    services.start_match(table.pk, players[0])
    return table.pk, players


def next_action(state: dict[str, Any]) -> tuple[str, str | None]:
    """Draw from the stock (or pass the offer round), then throw the coach's best discard."""
    deal = state["deal"]
    legal = deal["view"]["legal_actions"]
    if deal["view"]["phase"] == "discard":
        return "discard", deal["coach"]["best_discard"]["card"]
    return ("draw_stock" if "draw_stock" in legal else "pass"), None


def timed(costs: dict[str, list[float]], stage: str, call: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    start = time.process_time()
    result = call(*args, **kwargs)
    costs[stage].append(1000 * (time.process_time() - start))
    return result


def one_move(table_id: int, players: list[Player], costs: dict[str, list[float]]) -> bool:
    table = selectors.get_table(table_id)
    deal = table.current_deal
    if deal is None or deal.status != "playing" or deal.match.status != "playing" or deal.to_play is None:
        return False
    seat = deal.to_play
    action, card = next_action(payloads.table_state(table, players[seat]))
    outcome = timed(
        costs, "service", services.apply_move, table_id, players[seat], action, table.version, card=card
    )
    timed(costs, "answer", payloads.table_state, outcome.table, players[seat])
    timed(costs, "socket", lambda: payloads.table_state(selectors.get_table(table_id), players[1 - seat]))
    if not selectors.mid_turn(outcome.table.current_deal):  # a draw sends no follow-up task
        timed(costs, "follow-up", tasks.table_changed, table_id, outcome.table.version, "move")
    return True


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=12, help="moves per table")
    parser.add_argument("--profile", help="record the live path's moves with py-spy into this file")
    parser.add_argument("--live-tables", type=int, default=20, help="tables played on the sockets (0: none)")
    options = parser.parse_args()
    call_command("migrate", verbosity=0)
    tables = [started_table() for _ in range(options.tables)]
    costs: dict[str, list[float]] = {stage: [] for stage in STAGES}
    moves = 0
    for _ in range(options.rounds):
        for table_id, players in tables:
            moves += one_move(table_id, players, costs)
    if not moves:  # --tables 0: the live path alone
        options.tables = 0
    else:
        print(f"{moves} moves at {options.tables} tables; CPU ms of this process")
    for stage in STAGES if moves else ():
        values = costs[stage]
        print(
            f"{stage:>10}: n {len(values):4d}  median {statistics.median(values):6.2f}  mean {statistics.fmean(values):6.2f}"
        )
    if moves:
        per_move = sum(sum(values) for values in costs.values()) / moves
        print(f"per move, with two recipient sockets: {per_move + statistics.fmean(costs['socket']):.2f} ms")
    if options.live_tables:
        from bench import move_cost_live

        move_cost_live.report(options.live_tables, options.rounds, options.profile)


if __name__ == "__main__":
    main()
