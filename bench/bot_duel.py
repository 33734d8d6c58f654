"""Paired deals: two bots against the same opponent on the same deals.

``python -m bench.bot_duel play BOT OPPONENT --deals N [--ruleset R] [--seed S] [--workers K] --log FILE``
plays deal ``i`` (deck and dealer fixed by the seed and ``i``) twice, BOT in each seat, one deal at
a time at the score 0-0 of a match to the rule set's target, and appends one JSON line per deal
played: BOT's net points (points won minus points lost) and its decision CPU times.

``python -m bench.bot_duel compare A.jsonl B.jsonl`` pairs the deals both logs played (same rule
set, opponent, seed, deal number, seat) and prints each log's net points per deal with a 95%
interval, and the paired difference A - B with its 95% interval: the same cards for both, so
the luck of the deal mostly cancels. A baseline log is played once and compared with every other.

BOT and OPPONENT are the arena's bots (``bots.ARENA_BOTS``: tito, carmen, luna, simple). Whole
matches are ``python -m bots.arena``. This is a benchmark, not a test.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import random
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import replace
from multiprocessing import Pool
from typing import Any

from bots import ARENA_BOTS, MatchContext
from bots.arena import log_records, percentile
from rules import CARDS, RULESETS, Deal, Ruleset


def play_one(job: tuple[str, str, str, int, int, int]) -> dict[str, Any]:
    """Deal ``number`` with the bot in ``seat``: its net points and CPU times."""
    bot, opponent, ruleset_name, target, seed, number_seat = job
    number, seat = divmod(number_seat, 2)
    ruleset: Ruleset = replace(RULESETS[ruleset_name], target=target if target > 0 else None)
    deck_rng = random.Random(f"duel:{seed}:{number}")
    deck = list(CARDS)
    deck_rng.shuffle(deck)
    dealer = deck_rng.randrange(2)
    bots = [ARENA_BOTS[bot](), ARENA_BOTS[opponent]()]
    rngs = [random.Random(f"duel:{seed}:{number}:{seat}:{side}") for side in (0, 1)]
    side_at = (0, 1) if seat == 0 else (1, 0)  # side_at[seat]: 0 the bot measured, 1 the opponent
    deal = Deal.new(ruleset, dealer, deck)
    cpu: list[float] = []
    while not deal.is_over:
        to_play = deal.to_play
        assert to_play is not None
        side = side_at[to_play]
        context = MatchContext(0, 0, ruleset.target)
        started = time.thread_time()
        action = bots[side].choose(deal.view(to_play), rngs[side], context)
        if side == 0:
            cpu.append(time.thread_time() - started)
        deal, _ = deal.apply(action, to_play)
    net = 0
    if deal.winner is not None:
        net = deal.points if deal.winner == seat else -deal.points
    return {  # "variant" names the bot measured: the key of older logs, which still compare
        "variant": bot,
        "opponent": opponent,
        "ruleset": ruleset_name,
        "target": target,
        "seed": seed,
        "deal": number,
        "seat": seat,
        "net": net,
        "outcome": deal.outcome or "dead",
        "variant_won": deal.winner == seat,
        "cpu": cpu,
    }


def play(args: argparse.Namespace) -> None:
    target = args.target if args.target is not None else (RULESETS[args.ruleset].target or 0)
    done: set[int] = set()
    wanted = (args.bot, args.opponent, args.ruleset, args.seed)
    with contextlib.suppress(FileNotFoundError):  # a new log
        for record in log_records(args.log):
            if (record["variant"], record["opponent"], record["ruleset"], record["seed"]) == wanted:
                done.add(record["deal"] * 2 + record["seat"])
    jobs = [
        (args.bot, args.opponent, args.ruleset, target, args.seed, index)
        for index in range(2 * args.first, 2 * (args.first + args.deals))
        if index not in done
    ]
    with open(args.log, "a", encoding="utf-8") as log:
        if args.workers <= 1:
            results = map(play_one, jobs)
            for result in results:
                log.write(json.dumps(result) + "\n")
                log.flush()
        else:
            with Pool(args.workers) as pool:
                for result in pool.imap_unordered(play_one, jobs, chunksize=1):
                    log.write(json.dumps(result) + "\n")
                    log.flush()
    print(report([args.log], None))


def read(path: str) -> dict[tuple[str, str, int, int, int], dict[str, Any]]:
    """Deals of a log by (rule set, opponent, seed, deal, seat); a deal logged twice counts once."""
    out: dict[tuple[str, str, int, int, int], dict[str, Any]] = {}
    for record in log_records(path):
        key = (record["ruleset"], record["opponent"], record["seed"], record["deal"], record["seat"])
        out.setdefault(key, record)
    return out


def interval(values: Sequence[float]) -> str:
    if len(values) < 2:
        return "n/a"
    mean = statistics.fmean(values)
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values))
    return f"{mean:+.2f} (95% interval {mean - half:+.2f} to {mean + half:+.2f})"


def describe(path: str, records: Sequence[dict[str, Any]]) -> str:
    """Net points per deal (the two seats of a deal averaged), wins and CPU of one log."""
    by_deal: dict[tuple[str, str, int, int], list[int]] = {}
    for record in records:
        key = (record["ruleset"], record["opponent"], record["seed"], record["deal"])
        by_deal.setdefault(key, []).append(record["net"])
    nets = [statistics.fmean(values) for values in by_deal.values()]
    cpu = [elapsed for record in records for elapsed in record["cpu"]]
    won = sum(1 for record in records if record["variant_won"])
    return (
        f"{path}: {records[0]['variant']} vs {records[0]['opponent']}, {len(records)} deals played; "
        f"net points per deal {interval(nets)}; deals won {won / len(records):.1%}; "
        f"CPU per decision median {statistics.median(cpu) * 1000:.1f} ms, p99 {percentile(cpu, 0.99) * 1000:.0f} ms"
        if cpu
        else f"{path}: {len(records)} deals"
    )


def report(paths: Sequence[str], baseline: str | None) -> str:
    lines = []
    logs = [read(path) for path in paths]
    for path, records in zip(paths, logs, strict=True):
        if records:
            lines.append(describe(path, list(records.values())))
    if baseline is not None and len(logs) == 2:
        first, second = logs
        common = sorted(set(first) & set(second))
        by_deal: dict[tuple[str, str, int, int], list[float]] = {}
        for key in common:
            by_deal.setdefault(key[:4], []).append(first[key]["net"] - second[key]["net"])
        gains = [statistics.fmean(values) for values in by_deal.values()]
        lines.append(
            f"paired over {len(common)} deals played by both ({len(gains)} deals dealt): "
            f"{paths[0]} - {paths[1]} = {interval(gains)} net points per deal"
        )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.bot_duel", description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    playing = commands.add_parser("play", help="play deals and log them")
    playing.add_argument("bot", choices=sorted(ARENA_BOTS))
    playing.add_argument("opponent", choices=sorted(ARENA_BOTS))
    playing.add_argument("--deals", type=int, default=100)
    playing.add_argument("--first", type=int, default=0)
    playing.add_argument("--ruleset", choices=sorted(RULESETS), default="classic")
    playing.add_argument("--target", type=int, help="match target the bots see (default: the rule set's)")
    playing.add_argument("--seed", type=int, default=0)
    playing.add_argument("--workers", type=int, default=1)
    playing.add_argument("--log", required=True)
    comparing = commands.add_parser("compare", help="paired difference of two logs")
    comparing.add_argument("logs", nargs=2)
    args = parser.parse_args(argv)
    if args.command == "play":
        play(args)
    else:
        print(report(args.logs, args.logs[1]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
