"""Random deal positions for the bot tests: deals played by random legal moves."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import replace

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


# A deal that LUNA (seat 0) and CARMEN (seat 1) once played for ever (arena, playgridia to 100,
# seed 1, match 684, its eighth deal at 95-37): from action 54, with 7 cards in the stock, they
# took each other's discards and threw back an ace each time, three aces round and round.
_LOOP_DECK = (
    "3D TD 6H 8S QS TC JS 2S TH 3H QD 3S 9H KC 3C 9S QC 5C AS KD KS AC 5S 9C AH KH "
    "4S JC 6C 8C 7D 5H JH 2H 4C 5D 7H 8D AD 6D 4D 6S 8H 9D TS 4H 7S 7C JD 2C QH 2D"
)
_LOOP_TURNS = (  # a draw and a discard each, comma-separated
    "draw_stock/discard JS, draw_stock/discard KD, draw_stock/discard TH, take_discard/discard KC, "
    "draw_stock/discard 9C, draw_stock/discard KH, draw_stock/discard 9H, draw_stock/discard JC, "
    "draw_stock/discard 6H, draw_stock/discard 9S, draw_stock/discard 6C, draw_stock/discard 8S, "
    "draw_stock/discard JH, draw_stock/discard 8C, draw_stock/discard 4C, draw_stock/discard 3S, "
    "take_discard/discard 4S, draw_stock/discard 7H, draw_stock/discard 8D, draw_stock/discard 2H, "
    "take_discard/discard 7D, draw_stock/discard 6D, draw_stock/discard 4D, draw_stock/discard 6S, "
    "draw_stock/discard 8H, draw_stock/discard 9D, draw_stock/discard AS, take_discard/discard AD, "
    "take_discard/discard AC, take_discard/discard AS, take_discard/discard AD, take_discard/discard AC, "
    "take_discard/discard AS"
)
EXCHANGE_LOOP_DECK = _LOOP_DECK.split()
EXCHANGE_LOOP_ACTIONS = [action for turn in _LOOP_TURNS.split(", ") for action in turn.split("/")]
EXCHANGE_LOOP_START = 54  # LUNA to draw, AS on the pile: the first time
EXCHANGE_LOOP_PERIOD = 12  # actions after which the same position comes back


def exchange_loop(actions: int) -> Deal:
    """The deal above after its first ``actions`` actions (at most len(EXCHANGE_LOOP_ACTIONS))."""
    deal = Deal.new(replace(RULESETS["playgridia"], target=100), 0, EXCHANGE_LOOP_DECK)
    for action in EXCHANGE_LOOP_ACTIONS[:actions]:
        deal, _ = deal.apply(action)
    return deal
