"""Speed of the rules engine; a plain script, not a test.

Run from the repository root, pinned to one core:

    taskset -c 0 .venv/bin/python -m bench.bench_rules

Hands are drawn up front from a seeded generator, so every run times the same
hands; each call gets a distinct hand (nothing is reused between calls).
"""

from __future__ import annotations

import argparse
import gc
import itertools
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

if __package__ in (None, ""):  # run as a file: make the repository importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rules import BUILD
from rules.cards import CARDS, SUITS, Card, format_cards
from rules.melding import best_discard, best_melding

Hand = list[Card]


# ---------------------------------------------------------------- hands


def random_hands(rng: random.Random, count: int, size: int) -> list[Hand]:
    return [rng.sample(CARDS, size) for _ in range(count)]


def meld_rich_hands(rng: random.Random, count: int, size: int) -> list[Hand]:
    """Cards packed into a few neighbouring ranks of a few suits, so melds overlap a lot."""
    hands = []
    for _ in range(count):
        suits = rng.sample(SUITS, rng.choice((3, 4)))
        width = -(-size // len(suits)) + rng.choice((0, 1))  # just enough ranks to hold the hand
        low = rng.randint(1, 14 - width)
        pool = [card for card in CARDS if card.suit in suits and low <= card.rank < low + width]
        hands.append(rng.sample(pool, size))
    return hands


def dense_hands(size: int, per_pool: int = 40) -> list[Hand]:
    """The densest hands there are: ``size`` cards out of 11-14 cards of 1-4 suits over a
    window of neighbouring ranks (e.g. three ranks in all four suits). Deterministic."""
    hands = []
    for count in range(1, 5):
        for suits in itertools.combinations(SUITS, count):
            for width in range(2, 14):
                for low in range(1, 15 - width):
                    pool = [card for card in CARDS if card.suit in suits and low <= card.rank < low + width]
                    if size <= len(pool) <= size + 3:
                        hands += [
                            list(hand)
                            for hand in itertools.islice(itertools.combinations(pool, size), per_pool)
                        ]
    return hands


# ---------------------------------------------------------------- timing


@dataclass(frozen=True)
class Timing:
    name: str
    micros: list[float]  # one per hand, in hand order
    hands: Sequence[Hand]

    @property
    def slowest_hand(self) -> Hand:
        return list(self.hands[max(range(len(self.micros)), key=self.micros.__getitem__)])


def time_each(
    name: str, function: Callable[[Hand], object], hands: Sequence[Hand], repeat: int = 1
) -> Timing:
    """Time each hand (perf_counter_ns around each call, garbage collector off; the thread's CPU
    clock costs about 3 µs a reading on these VMs, as much as a call).

    With ``repeat`` > 1 a hand is called that many times in a row and its fastest
    call kept: on a shared machine this filters out the calls another process
    interrupted. Nothing is remembered between calls, so repeats are not cached.
    """
    clock = time.perf_counter_ns
    micros = []
    gc.collect()
    gc.disable()
    try:
        for hand in hands:
            fastest = 1 << 62
            for _ in range(repeat):
                start = clock()
                function(hand)
                fastest = min(fastest, clock() - start)
            micros.append(fastest / 1000)
    finally:
        gc.enable()
    return Timing(name, micros, hands)


def retime(function: Callable[[Hand], object], hand: Hand, repeats: int = 25) -> float:
    """Median µs of one hand timed again, to tell a truly slow hand from a hiccup."""
    return statistics.median(time_each("", function, [hand] * repeats).micros)


def percentile(values: Sequence[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def print_row(timing: Timing) -> None:
    values = timing.micros
    print(
        f"{timing.name:<34} {statistics.median(values):>9.1f} {percentile(values, 0.99):>9.1f}"
        f" {max(values):>9.1f} {len(values):>8}"
    )


# ---------------------------------------------------------------- benchmarks


Row = tuple[Timing, Callable[[Hand], object]]


def bench_melding(rng: random.Random, count: int, repeat: int = 1) -> list[Row]:
    random_10, rich_10 = random_hands(rng, count, 10), meld_rich_hands(rng, count, 10)
    return [
        (time_each("best_melding, 10 random", best_melding, random_10, repeat), best_melding),
        (time_each("best_melding, 10 meld-rich", best_melding, rich_10, repeat), best_melding),
    ]


def bench_discard(rng: random.Random, count: int, repeat: int = 1) -> list[Row]:
    random_11, rich_11 = random_hands(rng, count, 11), meld_rich_hands(rng, count, 11)
    return [
        (time_each("best_discard, 11 random", best_discard, random_11, repeat), best_discard),
        (time_each("best_discard, 11 meld-rich", best_discard, rich_11, repeat), best_discard),
    ]


def report_worst(results: Sequence[Row]) -> None:
    """The slowest hand of each row, timed again on its own, then the slowest dense hand."""
    print("\nworst case found (slowest hand, median of 25 repeats of it):")
    for timing, function in results:
        hand = timing.slowest_hand
        print(f"  {timing.name:<32} {retime(function, hand):>8.1f} µs  {format_cards(sorted(hand))}")
    for name, function, size in (("best_melding", best_melding, 11), ("best_discard", best_discard, 11)):
        hands = dense_hands(size)
        fastest = time_each("", function, hands, repeat=3).micros
        hand = hands[max(range(len(hands)), key=fastest.__getitem__)]
        label = f"{name}, {size} dense ({len(hands)} tried)"
        print(f"  {label:<32} {retime(function, hand):>8.1f} µs  {format_cards(sorted(hand))}")


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--hands", type=int, default=20000, help="hands per row (default 20000)")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument(
        "--repeat", type=int, default=1, help="calls per hand, fastest kept (default 1: one call per hand)"
    )
    parser.add_argument("--deals", type=int, default=3000, help="full deals per rule set (default 3000)")
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    print(
        f"Python {sys.version.split()[0]}, {BUILD} rules engine, {args.hands} hands per row, seed {args.seed}, "
        f"repeat {args.repeat}"
    )
    overhead = statistics.median(time_each("", lambda hand: None, [[]] * 1000).micros)
    print(f"(each figure includes the timer's own cost: {overhead:.2f} µs for an empty call)")
    print(f"{'µs per call':<34} {'median':>9} {'p99':>9} {'max':>9} {'calls':>8}")
    results = bench_melding(rng, args.hands, args.repeat) + bench_discard(rng, args.hands, args.repeat)
    for timing, _ in results:
        print_row(timing)
    report_worst(results)
    bench_deals(args.seed, args.deals)


# ---------------------------------------------------------------- whole deals


def bench_deals(seed: int, deals: int) -> None:
    """Full random-legal deals per second under each rule set: Deal.new, then a uniformly random
    legal action until the deal ends, as a bot's playout does. Decks are drawn up front. CPU time of
    the thread, so that the other processes of a shared core do not count."""
    from rules import RULESETS, Deal  # the deal engine's own benchmark: kept apart from the above

    print(
        f"\nfull random-legal deals, {deals} per rule set (Deal.new, legal_actions, apply), {BUILD} rules engine"
    )
    print(f"{'rule set':<34} {'deals/s':>9} {'ms/deal':>9} {'µs/action':>9} {'actions':>8}")
    for name, ruleset in RULESETS.items():
        rng = random.Random(seed)
        decks = [rng.sample(CARDS, 52) for _ in range(deals)]
        actions = 0
        gc.collect()
        gc.disable()
        try:
            start = time.thread_time()
            for number, deck in enumerate(decks):
                deal = Deal.new(ruleset, number % 2, deck)
                while not deal.is_over:
                    deal, _ = deal.apply(rng.choice(deal.legal_actions()))
                actions += deal.version
            seconds = time.thread_time() - start
        finally:
            gc.enable()
        print(
            f"{name:<34} {deals / seconds:>9.0f} {1000 * seconds / deals:>9.3f}"
            f" {1e6 * seconds / actions:>9.2f} {actions // deals:>8}"
        )


if __name__ == "__main__":
    main()
