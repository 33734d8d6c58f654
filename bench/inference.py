"""How close LUNA's sampled opponent hands come to the true one: a benchmark of its inference.

``python -m bench.inference [--opponent BOT] [--deals N] [--samples K] [--ruleset R] [--seed S]``

Plays N deals of CARMEN against the opponent (simple unless said; CARMEN in both seats in turn) and, at each of CARMEN's
decisions from the fifth discard of the deal on, samples K hidden opponent hands as LUNA would
(``bots.sampling.OpponentSampler`` with ``LUNA_SETTINGS``). Prints the share of the true hidden
cards a sampled hand holds (and what uniform sampling would give), the sampled hands' deadwood
against the true hand's (mean error and bias), and, at discard positions, how well the sampled
hands tell which of the observer's cards would complete a meld for the opponent (the Brier score
of that share of sampled hands, against the true hand; a constant guess of the true rate scores
rate * (1 - rate)). The positions and the sampling seeds are fixed by the seed. This is a
benchmark, not a test.
"""

from __future__ import annotations

import argparse
import random
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

from bots import ARENA_BOTS, Carmen
from bots.handeval import bits, makes_meld
from bots.knowledge import Knowledge
from bots.playout import arranged
from bots.sampling import OpponentSampler
from rules import CARDS, RULESETS, Deal, DealView
from rules.cards import cards_to_mask

FIRST_TURN = 5  # discards made before a position counts: earlier, little is known


@dataclass(frozen=True, slots=True)
class Position:
    view: DealView
    true_hidden: int  # the opponent's cards the observer has not seen it take


def positions(ruleset: str, deals: int, seed: int, opponent: str = "simple") -> list[Position]:
    found = []
    for number in range(deals):
        rng = random.Random(f"inference:{seed}:{number}")
        deck = list(CARDS)
        rng.shuffle(deck)
        observer = number % 2
        bots = {observer: Carmen(), 1 - observer: ARENA_BOTS[opponent]()}
        deal = Deal.new(RULESETS[ruleset], rng.randrange(2), deck)
        while not deal.is_over:
            seat = deal.to_play
            assert seat is not None
            view = deal.view(seat)
            if seat == observer and Knowledge.from_view(view).turns >= FIRST_TURN:
                known = cards_to_mask(view.known_cards[1 - seat])
                found.append(Position(view, deal.hand_mask(1 - seat) & ~known))
            deal, _ = deal.apply(bots[seat].choose(view, rng), seat)
    return found


@dataclass(slots=True)
class Scores:
    hits: list[float]
    uniform: list[float]
    deadwood_error: list[float]
    deadwood_bias: list[float]
    feeds_predicted: list[float]  # per card of the observer's hand at a discard position
    feeds: list[bool]  # ...whether it would complete a meld in the true hand


def score(found: Sequence[Position], samples: int, seed: int) -> Scores:
    scores = Scores([], [], [], [], [], [])
    for index, position in enumerate(found):
        know = Knowledge.from_view(position.view)
        sampler = OpponentSampler(position.view, know)
        rng = random.Random(f"inference-samples:{seed}:{index}")
        count = know.opponent_hidden_count
        true_hand = know.opponent_known | position.true_hidden
        true_deadwood = arranged(true_hand)[1]
        hands = []
        for _ in range(samples):
            hidden = sampler.hidden(rng)
            scores.hits.append((hidden & position.true_hidden).bit_count() / count)
            hands.append(know.opponent_known | hidden)
            deadwood = arranged(hands[-1])[1]
            scores.deadwood_error.append(abs(deadwood - true_deadwood))
            scores.deadwood_bias.append(deadwood - true_deadwood)
        scores.uniform.append(count / know.unseen.bit_count())
        if know.phase == "discard":
            for card in bits(know.hand):
                if card != know.just_taken:
                    scores.feeds_predicted.append(statistics.fmean(makes_meld(hand, card) for hand in hands))
                    scores.feeds.append(makes_meld(true_hand, card))
    return scores


def feeding_line(scores: Scores) -> str:
    rate = statistics.fmean(scores.feeds)
    brier = statistics.fmean(
        (predicted - feeds) ** 2
        for predicted, feeds in zip(scores.feeds_predicted, scores.feeds, strict=True)
    )
    return (
        f"  cards that would complete a meld: {100 * rate:.1f}% of {len(scores.feeds)}, predicted "
        f"{100 * statistics.fmean(scores.feeds_predicted):.1f}%; Brier {brier:.4f} (constant {rate * (1 - rate):.4f})"
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.inference", description=__doc__.split("\n\n")[0])
    parser.add_argument("--opponent", choices=sorted(ARENA_BOTS), default="simple")
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--samples", type=int, default=32)
    parser.add_argument("--ruleset", choices=sorted(RULESETS), default="classic")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    found = positions(args.ruleset, args.deals, args.seed, args.opponent)
    print(
        f"{len(found)} positions from {args.deals} deals of CARMEN against {args.opponent} ({args.ruleset})"
    )
    result = score(found, args.samples, args.seed)
    print(
        f"LUNA's sampler: true cards held {100 * statistics.fmean(result.hits):.1f}% "
        f"(uniform {100 * statistics.fmean(result.uniform):.1f}%); deadwood error "
        f"{statistics.fmean(result.deadwood_error):.2f}, bias {statistics.fmean(result.deadwood_bias):+.2f}"
    )
    if result.feeds:
        print(feeding_line(result))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
