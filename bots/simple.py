"""`simple`: the reference opponent of gin rummy AI research, used by the arena.

Takes the face-up card only when it completes a meld, otherwise draws from the
stock; discards, at random among ties, a card leaving the least deadwood (never
the card just taken); knocks as soon as it can.
"""

from __future__ import annotations

import random

from rules.melding import min_deadwood_mask
from rules.moves import BIG_GIN, Action
from rules.view import DealView

from .base import MatchContext, draw_action, find_action, finish_action
from .handeval import bits, makes_meld
from .knowledge import Knowledge


class SimpleBot:
    name = "simple"

    def choose(self, view: DealView, rng: random.Random, match: MatchContext | None = None) -> Action:
        know = Knowledge.from_view(view)
        plain = plain_draw_or_big_gin(view, know)
        if plain is not None:
            return plain
        card, deadwood = least_deadwood_discard(know.hand, know.just_taken, rng)
        return finish_action(view, card, knock=deadwood <= know.knock_limit)


def plain_draw_or_big_gin(view: DealView, know: Knowledge) -> Action | None:
    """The plain player's move when it is not a discard: take the face-up card only for a
    meld, declare big gin whenever the rule set has it and the hand allows; else None."""
    if know.phase in ("offer", "draw"):
        return draw_action(view, know.top >= 0 and makes_meld(know.hand, know.top))
    if min_deadwood_mask(know.hand) == 0 and find_action(view, BIG_GIN) is not None:
        return Action.big_gin()
    return None


def least_deadwood_discard(hand: int, exclude: int, rng: random.Random) -> tuple[int, int]:
    """A discard leaving the least deadwood, drawn at random among ties."""
    scored = [(min_deadwood_mask(hand ^ 1 << card), card) for card in bits(hand) if card != exclude]
    least = min(points for points, _ in scored)
    return rng.choice([card for points, card in scored if points == least]), least
