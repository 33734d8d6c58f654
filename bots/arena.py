"""Bot against bot over full matches: ``python -m bots.arena A B --games N --ruleset R``.

Seats alternate from match to match; a fixed ``--seed`` replays the same decks,
dealers and bot randomness whatever the number of workers. Prints, for A against
B, the match win rate with its 95% (Wilson) interval, points per deal, gin and
undercut rates and each bot's median / p99 decision time.

``--log FILE`` appends each finished match to FILE as one JSON line, so a killed
run keeps its matches; ``--resume`` plays only the matches the log lacks, and
``--report FILE...`` prints the report of the matches in one or more logs (runs
with other seeds or other ``--first`` match ranges combine).

A deal still going after MAX_ACTIONS actions stops the run with `EndlessDeal`, which names
the match (seed and number) to replay: the bots draw from the stock rather than repeat a
position (knowledge.repeats_position), so such a deal is a defect, never a result.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import statistics
import sys
import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from multiprocessing import Pool
from typing import IO, Any

from tqdm import tqdm  # type: ignore[import-untyped]

from rules import CARDS, RULESETS, Deal, Match, Ruleset
from rules.scoring import KNOCK, UNDERCUT

from . import ARENA_BOTS
from .base import Bot, MatchContext

MAX_DEALS = 500  # a guard against a match that never ends (dead deals forever)
MAX_ACTIONS = 1_000  # a guard against a deal that never ends (bots passing discards round)


class EndlessDeal(RuntimeError):
    """A deal went past MAX_ACTIONS: a defect of the bots, reported with the match to replay it."""


@dataclass(frozen=True, slots=True)
class DealOutcome:
    winner: int | None  # 0 = bot A, 1 = bot B, None = dead deal
    outcome: str  # knock, gin, big_gin, undercut or dead
    points: int
    knocker: int | None  # 0 = bot A, 1 = bot B


@dataclass(slots=True)
class MatchResult:
    winner: int  # 0 = bot A, 1 = bot B
    seat_of_a: int  # the seat bot A played in
    number: int = 0  # the match's number, which with the seed fixes its decks
    deals: list[DealOutcome] = field(default_factory=list)
    times: tuple[list[float], list[float]] = field(default_factory=lambda: ([], []))  # wall seconds, by bot
    cpu: tuple[list[float], list[float]] = field(default_factory=lambda: ([], []))  # CPU seconds, by bot


@dataclass(frozen=True, slots=True)
class Setup:
    names: tuple[str, str]
    ruleset: Ruleset
    seed: int


def play_match(setup: Setup, number: int) -> MatchResult:
    """Match ``number``: bot A sits in seat ``number % 2``."""
    rng = random.Random(f"{setup.seed}:{number}")
    seat_of_a = number % 2
    bots: list[Bot] = [ARENA_BOTS[name]() for name in setup.names]
    rngs = [random.Random(f"{setup.seed}:{number}:{side}") for side in (0, 1)]
    side_at = (0, 1) if seat_of_a == 0 else (1, 0)  # side_at[seat]: 0 for bot A, 1 for bot B
    match = Match.new(setup.ruleset, first_dealer=rng.randrange(2))
    result = MatchResult(winner=-1, seat_of_a=seat_of_a, number=number)
    while not match.is_over and len(match.records) < MAX_DEALS:
        deck = list(CARDS)
        rng.shuffle(deck)
        try:
            deal = play_deal(match.next_deal(deck), match, bots, rngs, side_at, result)
        except EndlessDeal as endless:
            where = f"match {number} of seed {setup.seed} ({' vs '.join(setup.names)}), deal {len(match.records) + 1}"
            raise EndlessDeal(f"{where}: {endless}") from None
        match = match.record(deal)
        knocker = deal.knocker
        result.deals.append(
            DealOutcome(
                winner=None if deal.winner is None else side_at[deal.winner],
                outcome=deal.outcome or "dead",
                points=deal.points,
                knocker=None if knocker is None else side_at[knocker],
            )
        )
    result.winner = side_at[match.winner] if match.winner is not None else -1
    return result


def play_deal(
    deal: Deal,
    match: Match,
    bots: Sequence[Bot],
    rngs: Sequence[random.Random],
    side_at: tuple[int, int],
    result: MatchResult,
) -> Deal:
    totals = match.totals
    target = match.ruleset.target
    while not deal.is_over:
        if deal.version >= MAX_ACTIONS:
            raise EndlessDeal(f"no end after {deal.version} actions")
        seat = deal.to_play
        assert seat is not None
        side = side_at[seat]
        context = MatchContext(totals[seat], totals[1 - seat], target)
        view = deal.view(seat)
        started, started_cpu = time.perf_counter(), time.thread_time()
        action = bots[side].choose(view, rngs[side], context)
        result.times[side].append(time.perf_counter() - started)
        result.cpu[side].append(time.thread_time() - started_cpu)
        deal, _ = deal.apply(action, seat)
    return deal


def _play_numbered(job: tuple[Setup, int]) -> MatchResult:
    return play_match(*job)


def run(
    setup: Setup,
    games: int,
    workers: int,
    progress: bool = True,
    *,
    first: int = 0,
    skip: Iterable[int] = (),
    log: IO[str] | None = None,
) -> list[MatchResult]:
    """Matches ``first`` to ``first + games - 1`` but those in ``skip``, in match order;
    each is written to ``log`` as soon as it ends (whatever order the workers finish in)."""
    skipped = set(skip)
    jobs = [(setup, number) for number in range(first, first + games) if number not in skipped]
    bar = tqdm(total=len(jobs), desc=" vs ".join(setup.names), file=sys.stderr, disable=not progress)
    results: list[MatchResult] = []

    def collect(outcomes: Iterable[MatchResult]) -> None:
        for outcome in outcomes:
            results.append(outcome)
            if log is not None:
                log.write(json.dumps(match_record(setup, outcome)) + "\n")
                log.flush()
            bar.update()

    if workers <= 1:
        collect(map(_play_numbered, jobs))
    else:
        with Pool(workers) as pool:
            collect(pool.imap_unordered(_play_numbered, jobs, chunksize=1))
    bar.close()
    return sorted(results, key=lambda match: match.number)


# ---------------------------------------------------------------- match logs


def match_record(setup: Setup, result: MatchResult) -> dict[str, Any]:
    """One log line: the setup it belongs to and everything the report reads of the match."""
    return {
        "bots": list(setup.names),
        "ruleset": setup.ruleset.name,
        "target": setup.ruleset.target,
        "seed": setup.seed,
        "match": result.number,
        "winner": result.winner,
        "seat_of_a": result.seat_of_a,
        "deals": [[deal.winner, deal.outcome, deal.points, deal.knocker] for deal in result.deals],
        "times": list(result.times),
        "cpu": list(result.cpu),
    }


def record_setup(record: dict[str, Any]) -> Setup:
    ruleset = replace(RULESETS[record["ruleset"]], target=record["target"])
    return Setup((record["bots"][0], record["bots"][1]), ruleset, record["seed"])


def record_result(record: dict[str, Any]) -> MatchResult:
    a_times, b_times = record["times"]
    a_cpu, b_cpu = record["cpu"]
    return MatchResult(
        winner=record["winner"],
        seat_of_a=record["seat_of_a"],
        number=record["match"],
        deals=[DealOutcome(*deal) for deal in record["deals"]],
        times=(a_times, b_times),
        cpu=(a_cpu, b_cpu),
    )


def log_records(path: str) -> Iterator[dict[str, Any]]:
    """The JSON lines of a log; a line cut short by a killed run is skipped."""
    with open(path, encoding="utf-8") as lines:
        for line in lines:
            try:
                yield json.loads(line)
            except json.JSONDecodeError:
                continue


def read_logs(paths: Sequence[str]) -> list[tuple[Setup, MatchResult]]:
    """Every logged match, once: a match logged twice (same setup, seed and number) counts once."""
    seen: dict[tuple[Setup, int], tuple[Setup, MatchResult]] = {}
    for path in paths:
        for record in log_records(path):
            setup = record_setup(record)
            seen.setdefault((setup, record["match"]), (setup, record_result(record)))
    return list(seen.values())


def combined_report(logged: Sequence[tuple[Setup, MatchResult]]) -> dict[str, Any]:
    """The report over logged matches, which must share bots, rule set and target."""
    setups = {(setup.names, setup.ruleset) for setup, _ in logged}
    if not setups:
        raise ValueError("the logs hold no match")
    if len(setups) != 1:
        raise ValueError(f"the logs mix {len(setups)} pairings or rule sets; report them apart")
    seeds = sorted({setup.seed for setup, _ in logged})
    setup = logged[0][0]
    results = [result for _, result in sorted(logged, key=lambda pair: (pair[0].seed, pair[1].number))]
    report = summary(setup, results)
    report["seed"] = seeds[0] if len(seeds) == 1 else seeds
    return report


# ---------------------------------------------------------------- the report


def wilson(wins: int, total: int, z: float = 1.96) -> tuple[float, float]:
    """95% score interval of a proportion."""
    if total == 0:
        return 0.0, 1.0
    rate = wins / total
    centre = (rate + z * z / (2 * total)) / (1 + z * z / total)
    half = z * math.sqrt(rate * (1 - rate) / total + z * z / (4 * total * total)) / (1 + z * z / total)
    return centre - half, centre + half


def percentile(values: Sequence[float], fraction: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def summary(setup: Setup, results: Sequence[MatchResult]) -> dict[str, Any]:
    deals = [deal for match in results for deal in match.deals]
    wins = sum(1 for match in results if match.winner == 0)
    low, high = wilson(wins, len(results))
    report: dict[str, Any] = {
        "bots": list(setup.names),
        "ruleset": setup.ruleset.name,
        "target": setup.ruleset.target,
        "seed": setup.seed,
        "matches": len(results),
        "deals": len(deals),
        "dead_deals": sum(1 for deal in deals if deal.winner is None),
        "a_match_wins": wins,
        "a_match_win_rate": wins / max(1, len(results)),
        "a_win_rate_95": [low, high],
    }
    for side, name in enumerate(setup.names):
        times = [elapsed for match in results for elapsed in match.times[side]]
        cpu = [elapsed for match in results for elapsed in match.cpu[side]]
        knocks = [deal for deal in deals if deal.knocker == side and deal.outcome in (KNOCK, UNDERCUT)]
        report[name if setup.names[0] != setup.names[1] else f"{name}_{side}"] = {
            "points_per_deal": sum(deal.points for deal in deals if deal.winner == side) / max(1, len(deals)),
            "gin_rate": sum(1 for deal in deals if deal.winner == side and "gin" in deal.outcome)
            / max(1, len(deals)),
            "undercut_rate": sum(1 for deal in deals if deal.winner == side and deal.outcome == UNDERCUT)
            / max(1, len(deals)),
            "undercut_against_rate": sum(1 for deal in knocks if deal.outcome == UNDERCUT)
            / max(1, len(knocks)),
            "decisions": len(times),
            "median_ms": statistics.median(times) * 1000 if times else 0.0,
            "p99_ms": percentile(times, 0.99) * 1000,
            "cpu_median_ms": statistics.median(cpu) * 1000 if cpu else 0.0,
            "cpu_p99_ms": percentile(cpu, 0.99) * 1000,
        }
    return report


def format_report(report: dict[str, Any]) -> str:
    a, b = report["bots"]
    low, high = report["a_win_rate_95"]
    target = report["target"] if report["target"] is not None else "single deal"
    seeds = report["seed"]
    seed = f"seeds {', '.join(map(str, seeds))}" if isinstance(seeds, list) else f"seed {seeds}"
    lines = [
        f"{a} vs {b}: {report['matches']} matches, {report['ruleset']} (target {target}), {seed}",
        f"{a} match win rate {report['a_match_win_rate']:.1%} (95% interval {low:.1%} - {high:.1%})",
        f"deals {report['deals']} (dead {report['dead_deals']})",
    ]
    for key in report:
        if isinstance(report[key], dict):
            side = report[key]
            lines.append(
                f"  {key:>8}: {side['points_per_deal']:6.2f} points/deal, gin {side['gin_rate']:.1%}, "
                f"undercuts won {side['undercut_rate']:.1%}, own knocks undercut {side['undercut_against_rate']:.1%}"
            )
            lines.append(
                f"  {'':>8}  decision time over {side['decisions']} decisions: median {side['median_ms']:.2f} ms, "
                f"p99 {side['p99_ms']:.2f} ms wall; median {side['cpu_median_ms']:.2f} ms, "
                f"p99 {side['cpu_p99_ms']:.2f} ms CPU (one core)"
            )
    return "\n".join(lines)


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bots.arena", description=__doc__.splitlines()[0])
    parser.add_argument("a", nargs="?", choices=sorted(ARENA_BOTS))
    parser.add_argument("b", nargs="?", choices=sorted(ARENA_BOTS))
    parser.add_argument("--games", type=int, default=100, help="matches to play")
    parser.add_argument("--first", type=int, default=0, help="number of the first match (default 0)")
    parser.add_argument("--ruleset", choices=sorted(RULESETS), default="playgridia")
    parser.add_argument("--target", type=int, help="match target (default: the rule set's)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.add_argument("--log", metavar="FILE", help="append each finished match to FILE as a JSON line")
    parser.add_argument(
        "--resume", action="store_true", help="with --log: play only the matches FILE lacks, report them all"
    )
    parser.add_argument(
        "--report", nargs="+", metavar="FILE", help="report the matches of these logs; play none"
    )
    args = parser.parse_args(argv)
    if args.report is None and (args.a is None or args.b is None):
        parser.error("name two bots, or give --report FILE...")
    if args.resume and args.log is None:
        parser.error("--resume needs --log FILE")
    return args


def play(args: argparse.Namespace) -> dict[str, Any]:
    ruleset = RULESETS[args.ruleset]
    if args.target is not None:
        ruleset = replace(ruleset, target=args.target)
    setup = Setup((args.a, args.b), ruleset, args.seed)
    wanted = range(args.first, args.first + args.games)
    logged = []
    if args.resume and os.path.exists(args.log):
        logged = [
            result for known, result in read_logs([args.log]) if known == setup and result.number in wanted
        ]
    if args.log is None:
        results = run(setup, args.games, args.workers, progress=not args.quiet, first=args.first)
    else:
        with open(args.log, "a+", encoding="utf-8") as log:
            end_line(log)
            skip = [result.number for result in logged]
            results = run(
                setup, args.games, args.workers, not args.quiet, first=args.first, skip=skip, log=log
            )
    return summary(setup, sorted(logged + results, key=lambda match: match.number))


def end_line(log: IO[str]) -> None:
    """Close a line a killed run left unfinished, so that the next record starts a line of its own."""
    if log.tell() > 0:
        log.seek(log.tell() - 1)
        last = log.read(1)
        if last != "\n":
            log.write("\n")


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    if args.report is not None:
        try:
            report = combined_report(read_logs(args.report))
        except ValueError as error:
            print(f"arena: {error}", file=sys.stderr)
            return 2
    else:
        report = play(args)
    print(json.dumps(report, indent=2) if args.json else format_report(report))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
