"""The review's calibration: what its verdicts say of ordinary play (bots/review_verdicts.py).

Deals of two pairings, LUNA against the simple baseline and CARMEN against TITO, are played in
matches (the rule sets in turn: classic and reino to 100, playgridia one deal), every decision
of both seats is reviewed as the site reviews it (bots/review.py, LUNA's budget, from the score
the deal started at), and each player's figures are printed:

    verdicts    the share of its decisions marked good, inaccuracy, mistake and blunder
    accuracy    its accuracy over all its decisions (review_verdicts.accuracy_of) and the mean
                of its per-deal figures
    losses      the 50th, 75th, 90th, 95th and 99th percentiles of its losses in points: the
                thresholds follow from them

    nice .venv/bin/python -m bench.review_calibration --deals 50 --log /tmp/calibration.jsonl
    .venv/bin/python -m bench.review_calibration --report /tmp/calibration.jsonl

Each reviewed deal is appended to ``--log`` as a JSON line (a killed run keeps its deals;
``--resume`` plays only the deals the log lacks: the same seed gives the same deals).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from collections import Counter
from collections.abc import Iterator
from typing import Any

from bots import ARENA_BOTS, MatchContext
from bots.review import review_deal
from bots.review_verdicts import GOOD, VERDICTS, accuracy_of
from rules import CARDS, RULESETS, Deal, Match

PAIRINGS = (("luna", "simple"), ("carmen", "tito"))
RULESET_NAMES = ("classic", "reino", "playgridia")
VERDICT_NAMES = (GOOD, *(name for name, _ in reversed(VERDICTS)))
MAX_ACTIONS = 1_000


def played_deals(
    pairing: tuple[str, str], seed: int
) -> Iterator[tuple[Deal, tuple[int, int], tuple[str, str]]]:
    """Deals of ``pairing`` in successive matches: (the deal, the score it started from by seat,
    the bot in each seat). Seats alternate from match to match."""
    for number in range(1_000_000):
        rng = random.Random(f"{seed}:{pairing}:{number}")
        ruleset = RULESETS[RULESET_NAMES[number % len(RULESET_NAMES)]]
        names = pairing if number % 2 == 0 else (pairing[1], pairing[0])
        bots = [ARENA_BOTS[name]() for name in names]
        match = Match.new(ruleset, first_dealer=rng.randrange(2))
        while not match.is_over:
            deck = list(CARDS)
            rng.shuffle(deck)
            start = match.totals
            deal = match.next_deal(deck)
            while not deal.is_over and deal.version < MAX_ACTIONS:
                seat = deal.to_play
                assert seat is not None
                context = MatchContext(start[seat], start[1 - seat], ruleset.target)
                deal, _ = deal.apply(bots[seat].choose(deal.view(seat), rng, context), seat)
            match = match.record(deal)
            yield deal, (start[0], start[1]), names


def reviewed(deal: Deal, scores: tuple[int, int], names: tuple[str, str], seed: str) -> dict[str, Any]:
    """One deal's review, both seats, as a log line: each decision's player, verdict and loss."""
    started = time.process_time()
    review = review_deal(deal, (0, 1), scores, seed=seed)
    cpu = time.process_time() - started
    decisions = [[names[one.seat], one.verdict, round(one.points_loss, 3)] for one in review.decisions]
    return {"names": list(names), "cpu": round(cpu, 3), "decisions": decisions}


def logged(path: str) -> list[dict[str, Any]]:
    try:
        with open(path, encoding="utf-8") as lines:
            return [json.loads(line) for line in lines if line.strip()]
    except FileNotFoundError:
        return []


def run(deals: int, seed: int, log: str | None, resume: bool) -> list[dict[str, Any]]:
    """``deals`` reviewed deals of each pairing, the pairings in turn (a stopped run has both)."""
    records = logged(log) if log and resume else []
    done = Counter(record["pairing"] for record in records)
    streams = [("-".join(pairing), played_deals(pairing, seed)) for pairing in PAIRINGS]
    for number in range(deals):
        for key, stream in streams:
            deal, scores, names = next(stream)
            if number < done[key]:
                continue
            record = {"pairing": key, **reviewed(deal, scores, names, f"{seed}:{key}:{number}")}
            records.append(record)
            if log:
                with open(log, "a", encoding="utf-8") as out:
                    out.write(json.dumps(record) + "\n")
            print(
                f"{key} deal {number + 1}/{deals}: {len(record['decisions'])} decisions, {record['cpu']:.1f} s"
            )
    return records


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else 0.0


def report(records: list[dict[str, Any]]) -> None:
    for key in sorted({record["pairing"] for record in records}):
        mine = [record for record in records if record["pairing"] == key]
        cpu = [record["cpu"] for record in mine]
        decided = sum(len(record["decisions"]) for record in mine)
        print(
            f"\n{key}: {len(mine)} deals, {decided} decisions, review CPU median {statistics.median(cpu):.2f} s a deal"
        )
        for name in key.split("-"):
            player_report(name, mine)
    thresholds = ", ".join(f"{name} from {loss:g}" for name, loss in reversed(VERDICTS))
    print(f"\nthresholds (points of the deal): {thresholds}")


def player_report(name: str, records: list[dict[str, Any]]) -> None:
    losses = [loss for record in records for who, _, loss in record["decisions"] if who == name]
    verdicts = Counter(
        verdict for record in records for who, verdict, _ in record["decisions"] if who == name
    )
    per_deal = [
        accuracy_of([loss for who, _, loss in record["decisions"] if who == name]) for record in records
    ]
    deal_figures = [figure for figure in per_deal if figure is not None]
    shares = ", ".join(
        f"{verdict} {verdicts[verdict] / max(len(losses), 1):.1%}" for verdict in VERDICT_NAMES
    )
    cuts = ", ".join(
        f"p{int(share * 100)} {percentile(losses, share):.1f}" for share in (0.5, 0.75, 0.9, 0.95, 0.99)
    )
    print(f"  {name}: {len(losses)} decisions in {len(deal_figures)} deals: {shares}")
    print(
        f"    accuracy {accuracy_of(losses)} over its decisions, mean of its deals "
        f"{statistics.fmean(deal_figures) if deal_figures else 0:.1f}; mean loss "
        f"{statistics.fmean(losses) if losses else 0:.2f} points; losses {cuts}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=500, help="deals of each pairing")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--log", help="append each reviewed deal to this JSON-lines file")
    parser.add_argument("--resume", action="store_true", help="play only the deals the log lacks")
    parser.add_argument("--report", nargs="*", help="print the report of these logs only")
    options = parser.parse_args()
    if options.report:
        report([record for path in options.report for record in logged(path)])
        return
    report(run(options.deals, options.seed, options.log, options.resume))


if __name__ == "__main__":
    main()
