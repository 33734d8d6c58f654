"""The play-outs score an ending as the engine does (rules.showdown), on thousands of random knocks.

bots/playout.py scores knocks on masks, because play-outs are hot, with the engine's own pieces
(the knocker's arrangement shown, the defence against it); these knocks prove the totals equal.
"""

from __future__ import annotations

import random

import pytest

from bots.handeval import bits, related
from bots.playout import SimDeal, SimRules, finish_turn, settle
from rules import CARDS, RULESETS, Ruleset
from rules.melding import best_arrangement_mask, min_deadwood_mask
from rules.showdown import Showdown, best_defence_mask, showdown

from .positions import RULESET_NAMES

KNOCKS = 2000  # random knocks per rule set
BIG_GINS = 100  # random big-gin hands (reino)
ALL = (1 << 52) - 1


def _random_meld(rng: random.Random, free: int) -> int:
    """A set or run of free cards (0 if none was found)."""
    for _ in range(50):
        if rng.random() < 0.5:
            rank = rng.randrange(13)
            meld = sum(1 << (suit * 13 + rank) for suit in rng.sample(range(4), rng.choice((3, 4))))
        else:
            length = rng.choice((3, 3, 4, 5))
            low = rng.randrange(4) * 13 + rng.randrange(14 - length)
            meld = sum(1 << (low + step) for step in range(length))
        if meld & ~free == 0:
            return meld
    return 0


def _fill(rng: random.Random, hand: int, free: int, size: int, pool: int) -> int:
    """``hand`` filled up to ``size`` cards from ``pool`` (free cards), else from any free card."""
    while hand.bit_count() < size:
        choices = list(bits(pool & free & ~hand)) or list(bits(free & ~hand))
        hand |= 1 << rng.choice(choices)
    return hand


def _random_knock(rng: random.Random) -> tuple[int, int]:
    """(knocker's 10 cards with at most 10 deadwood, defender's 10): melds on both sides and
    defender cards next to the knocker's, so that layoffs, gins and undercuts all come up."""
    while True:
        knocker = 0
        for _ in range(rng.choice((1, 2, 2, 3))):
            meld = _random_meld(rng, ALL & ~knocker)
            if knocker.bit_count() + meld.bit_count() <= 10:
                knocker |= meld
        low_cards = sum(1 << card for card in range(52) if card % 13 < rng.choice((3, 5, 13)))
        knocker = _fill(rng, knocker, ALL, 10, low_cards)
        if min_deadwood_mask(knocker) <= 10:
            break
    free = ALL & ~knocker
    defender = 0
    for _ in range(rng.choice((0, 1, 2))):
        meld = _random_meld(rng, free & ~defender)
        if defender.bit_count() + meld.bit_count() <= 10:
            defender |= meld
    near_knocker = 0
    for card in bits(knocker):
        near_knocker |= related(card)
    for _ in range(rng.choice((0, 1, 2, 3))):
        defender = _fill(rng, defender, free, min(10, defender.bit_count() + 1), near_knocker)
    return knocker, _fill(rng, defender, free, 10, free)


def _cards(mask: int) -> list[str]:
    return [str(CARDS[card]) for card in bits(mask)]


def _engine(ruleset: Ruleset, knocker: int, defender: int, multiplier: int) -> tuple[Showdown, int]:
    """The engine's showdown of seat 0 knocking against seat 1, and the seat that scores."""
    result = showdown(ruleset, _cards(knocker), _cards(defender), multiplier=multiplier)
    return result, 0 if result.winner == "knocker" else 1


@pytest.mark.parametrize("name", RULESET_NAMES)
def test_a_played_out_knock_scores_as_the_engine_scores_it(name: str) -> None:
    ruleset = RULESETS[name]
    rng = random.Random(f"playout-scoring:{name}")
    outcomes: set[str] = set()
    other_arrangement = 0  # knocks where the arrangement shown is not the first one found
    for _ in range(KNOCKS):
        knocker, defender = _random_knock(rng)
        multiplier = rng.choice((1, 1, 2, 4))
        sim = SimDeal(SimRules.of(ruleset, ruleset.knock_limit, multiplier), [knocker, defender], [], [])
        played = settle(sim, 0)
        engine, scorer = _engine(ruleset, knocker, defender, multiplier)
        outcomes.add(engine.outcome)
        assert played == (scorer, engine.points), (name, _cards(knocker), _cards(defender))
        first_melds = best_arrangement_mask(knocker)[0]
        if engine.outcome != "gin":
            other_arrangement += engine.defender_deadwood != best_defence_mask(first_melds, defender).deadwood
    assert outcomes == {"knock", "gin", "undercut"}
    assert other_arrangement > 0  # the knocks include hands whose choice of arrangement matters


def _random_big_gin(rng: random.Random) -> tuple[int, int]:
    """(11 cards all in melds, 10 other cards)."""
    while True:
        hand = 0
        while hand.bit_count() < 11:
            meld = _random_meld(rng, ALL & ~hand)
            if not meld or hand.bit_count() + meld.bit_count() > 11:
                break
            hand |= meld
        if hand.bit_count() == 11:
            free = list(bits(ALL & ~hand))
            return hand, sum(1 << card for card in rng.sample(free, 10))


def test_a_played_out_big_gin_scores_as_the_engine_scores_it() -> None:
    ruleset = RULESETS["reino"]
    rng = random.Random("playout-scoring:big-gin")
    for _ in range(BIG_GINS):
        hand, defender = _random_big_gin(rng)
        multiplier = rng.choice((1, 2))
        sim = SimDeal(SimRules.of(ruleset, ruleset.knock_limit, multiplier), [hand, defender], [], [])
        engine, scorer = _engine(ruleset, hand, defender, multiplier)
        assert engine.outcome == "big_gin"
        assert finish_turn(sim, 0, -1) == (scorer, engine.points)
