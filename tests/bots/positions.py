"""Random deal positions for the bot tests: deals played by random legal moves."""

from __future__ import annotations

import random
from collections.abc import Iterator

from rules import CARDS, RULESETS, Deal
from rules.moves import BIG_GIN, KNOCK

RULESET_NAMES = ("playgridia", "classic", "reino")


def random_deal(rng: random.Random, ruleset: str) -> Deal:
    deck = list(CARDS)
    rng.shuffle(deck)
    return Deal.new(RULESETS[ruleset], rng.randrange(2), deck)


def random_positions(seed: int, count: int) -> Iterator[Deal]:
    """``count`` deals in progress (every phase, every rule set), reached by random moves
    that rarely end the deal early."""
    rng = random.Random(seed)
    produced = 0
    while produced < count:
        deal = random_deal(rng, RULESET_NAMES[produced % len(RULESET_NAMES)])
        while not deal.is_over and produced < count:
            yield deal
            produced += 1
            actions = deal.legal_actions()
            quiet = [action for action in actions if action.kind not in (KNOCK, BIG_GIN)]
            deal, _ = deal.apply(rng.choice(quiet if quiet and rng.random() < 0.95 else actions))
