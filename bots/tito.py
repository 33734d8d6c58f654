"""TITO, the easy bot: sensible but plain.

Takes the face-up card only when it makes a meld, throws its highest unmelded
card, and knocks as soon as it can (unless an undercut would hand the opponent
the match: then it waits for a near-gin hand).
"""

from __future__ import annotations

import random

from rules.melding import best_discard_mask, min_deadwood_mask
from rules.moves import BIG_GIN, Action
from rules.view import DealView

from .base import NO_MATCH, MatchContext, draw_action, find_action, finish_action
from .handeval import highest_deadwood, makes_meld
from .knowledge import Knowledge

CAUTIOUS_KNOCK = 3  # the most deadwood TITO knocks with when an undercut would lose the match


class Tito:
    name = "tito"

    def choose(self, view: DealView, rng: random.Random, match: MatchContext | None = None) -> Action:
        know = Knowledge.from_view(view)
        if know.phase in ("offer", "draw"):
            return draw_action(view, know.top >= 0 and makes_meld(know.hand, know.top))
        if min_deadwood_mask(know.hand) == 0 and find_action(view, BIG_GIN) is not None:
            return Action.big_gin()
        card = highest_deadwood(know.hand, know.just_taken)
        if card < 0:  # every card melded: throw the one that costs least
            card = best_discard_mask(know.hand, know.just_taken)[0]
        deadwood = min_deadwood_mask(know.hand ^ 1 << card)
        return finish_action(view, card, knock=deadwood <= knock_ceiling(view, match or NO_MATCH, know))


def knock_ceiling(view: DealView, match: MatchContext, know: Knowledge) -> int:
    """The most deadwood worth knocking with: the limit, lower when an undercut ends the match."""
    if match.target is not None:
        undercut_floor = match.opponent_total + view.ruleset.undercut_bonus
        if undercut_floor >= match.target:
            return min(know.knock_limit, CAUTIOUS_KNOCK)
    return know.knock_limit
