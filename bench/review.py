"""LUNA's deal review (bots/review.py): CPU per reviewed deal and how stable a verdict is.

Deals are played to their end by CARMEN (seat 0) against TITO (seat 1), the rule sets in turn,
each from a score drawn from a seeded generator (below the target where there is one). Each deal
is reviewed twice, every decision of both seats (as once a match is over), with two seeds:

    cpu         CPU seconds of one review of a whole deal (time.process_time: one core; both
                reviews of each deal count), median and p99, and per decision
    stability   the share of decisions whose verdict differs between the two seeds, and the share
                that moves by more than one step (good <-> mistake or blunder, ...)

    taskset -c 0 .venv/bin/python -m bench.review --deals 200

No target is asserted here; the issue's budget is 10 s of CPU for a deal of about 30 decisions.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections import Counter
from dataclasses import dataclass

from bots import Carmen, MatchContext, Tito
from bots.review import GOOD, REVIEW_SETTINGS, VERDICTS, review_deal
from rules import BUILD, CARDS, RULESETS, Deal

RULESET_NAMES = ("playgridia", "classic", "reino")
STEPS = {GOOD: 0, **{name: len(VERDICTS) - position for position, (name, _) in enumerate(VERDICTS)}}


@dataclass
class Figures:
    seconds: list[float]
    decisions: list[int]
    changed: int = 0
    jumped: int = 0
    compared: int = 0
    verdicts: Counter[str] | None = None


def played(rng: random.Random, ruleset_name: str) -> tuple[Deal, tuple[int, int]]:
    """A finished deal between CARMEN and TITO and the score it started from."""
    ruleset = RULESETS[ruleset_name]
    target = ruleset.target
    scores = (rng.randrange(target), rng.randrange(target)) if target else (0, 0)
    deck = list(CARDS)
    rng.shuffle(deck)
    deal = Deal.new(ruleset, rng.randrange(2), deck)
    bots = (Carmen(), Tito())
    while not deal.is_over:
        seat = deal.to_play
        assert seat is not None
        context = MatchContext(scores[seat], scores[1 - seat], target)
        deal, _ = deal.apply(bots[seat].choose(deal.view(seat), rng, context))
    return deal, scores


def timed_review(deal: Deal, scores: tuple[int, int], seed: str) -> tuple[float, list[str]]:
    start = time.process_time()
    review = review_deal(deal, (0, 1), scores, seed=seed, settings=REVIEW_SETTINGS)
    return time.process_time() - start, [decision.verdict for decision in review.decisions]


def run(deals: int, seed: int) -> Figures:
    rng = random.Random(seed)
    figures = Figures(seconds=[], decisions=[], verdicts=Counter())
    for number in range(deals):
        deal, scores = played(rng, RULESET_NAMES[number % len(RULESET_NAMES)])
        first_cpu, first = timed_review(deal, scores, f"{seed}:{number}:a")
        second_cpu, second = timed_review(deal, scores, f"{seed}:{number}:b")
        figures.seconds += [first_cpu, second_cpu]
        figures.decisions.append(len(first))
        figures.compared += len(first)
        figures.changed += sum(a != b for a, b in zip(first, second, strict=True))
        figures.jumped += sum(abs(STEPS[a] - STEPS[b]) > 1 for a, b in zip(first, second, strict=True))
        assert figures.verdicts is not None
        figures.verdicts.update(first)
        print(
            f"deal {number + 1}/{deals}: {len(first)} decisions, {first_cpu:.2f} s and {second_cpu:.2f} s CPU"
        )
    return figures


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def report(figures: Figures) -> None:
    seconds, decisions = figures.seconds, figures.decisions
    per_decision = sum(seconds) / (2 * sum(decisions)) if sum(decisions) else 0.0
    budget = f"{REVIEW_SETTINGS.draw_samples}/{REVIEW_SETTINGS.discard_samples} sampled deals (draw/discard)"
    print(
        f"\n{len(decisions)} deals, {len(seconds)} reviews (both seats each), {budget}, {BUILD} rules engine"
    )
    print(f"decisions per deal: median {statistics.median(decisions)}, max {max(decisions)}")
    print(
        f"CPU per reviewed deal: median {statistics.median(seconds):.2f} s, p99 {percentile(seconds, 0.99):.2f} s"
    )
    print(
        f"CPU per decision: {per_decision * 1000:.0f} ms (a deal of 30 decisions: {30 * per_decision:.1f} s)"
    )
    print(
        f"verdicts changed from one seed to another: {figures.changed}/{figures.compared} "
        f"({figures.changed / max(figures.compared, 1):.1%}); by more than one step: {figures.jumped}"
    )
    print(f"verdicts (first seed): {dict(figures.verdicts or {})}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--seed", type=int, default=2026)
    options = parser.parse_args()
    report(run(options.deals, options.seed))


if __name__ == "__main__":
    main()
