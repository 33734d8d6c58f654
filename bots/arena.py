"""Bot against bot over full matches: ``python -m bots.arena A B --games N --ruleset R``.

Seats alternate from match to match; a fixed ``--seed`` replays the same decks,
dealers and bot randomness whatever the number of workers. Prints, for A against
B, the match win rate with its 95% (Wilson) interval, points per deal, gin and
undercut rates and each bot's median / p99 decision time.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from multiprocessing import Pool
from typing import Any

from tqdm import tqdm  # type: ignore[import-untyped]

from rules import CARDS, RULESETS, Deal, Match, Ruleset

from . import ARENA_BOTS
from .base import Bot, MatchContext

MAX_DEALS = 500  # a guard against a match that never ends (dead deals forever)


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
    result = MatchResult(winner=-1, seat_of_a=seat_of_a)
    while not match.is_over and len(match.records) < MAX_DEALS:
        deck = list(CARDS)
        rng.shuffle(deck)
        deal = play_deal(match.next_deal(deck), match, bots, rngs, side_at, result)
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


def run(setup: Setup, games: int, workers: int, progress: bool = True) -> list[MatchResult]:
    jobs = [(setup, number) for number in range(games)]
    bar = tqdm(total=games, desc=" vs ".join(setup.names), file=sys.stderr, disable=not progress)
    results: list[MatchResult] = []
    if workers <= 1:
        iterator: Iterator[MatchResult] = map(_play_numbered, jobs)
        for outcome in iterator:
            results.append(outcome)
            bar.update()
    else:
        with Pool(workers) as pool:
            for outcome in pool.imap(_play_numbered, jobs, chunksize=1):
                results.append(outcome)
                bar.update()
    bar.close()
    return results


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
        knocks = [deal for deal in deals if deal.knocker == side and deal.outcome in ("knock", "undercut")]
        report[name if setup.names[0] != setup.names[1] else f"{name}_{side}"] = {
            "points_per_deal": sum(deal.points for deal in deals if deal.winner == side) / max(1, len(deals)),
            "gin_rate": sum(1 for deal in deals if deal.winner == side and "gin" in deal.outcome)
            / max(1, len(deals)),
            "undercut_rate": sum(1 for deal in deals if deal.winner == side and deal.outcome == "undercut")
            / max(1, len(deals)),
            "undercut_against_rate": sum(1 for deal in knocks if deal.outcome == "undercut")
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
    lines = [
        f"{a} vs {b}: {report['matches']} matches, {report['ruleset']} (target {target}), seed {report['seed']}",
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
    parser.add_argument("a", choices=sorted(ARENA_BOTS))
    parser.add_argument("b", choices=sorted(ARENA_BOTS))
    parser.add_argument("--games", type=int, default=100, help="matches to play")
    parser.add_argument("--ruleset", choices=sorted(RULESETS), default="playgridia")
    parser.add_argument("--target", type=int, help="match target (default: the rule set's)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    ruleset = RULESETS[args.ruleset]
    if args.target is not None:
        ruleset = replace(ruleset, target=args.target)
    setup = Setup((args.a, args.b), ruleset, args.seed)
    results = run(setup, args.games, args.workers, progress=not args.quiet)
    report = summary(setup, results)
    print(json.dumps(report, indent=2) if args.json else format_report(report))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
