"""TITO, the easy bot: sensible but plain.

Takes the face-up card only when it makes a meld, throws its highest unmelded
card (though, like a beginner, now and then just any unmelded card: it does not
keep pairs or count what is left), and knocks as soon as it can (unless an
undercut would hand the opponent the match: then it waits for a near-gin hand).
"""

from __future__ import annotations

import random

from rules.melding import best_discard_mask, min_deadwood_mask
from rules.moves import Action
from rules.view import DealView

from .base import NO_MATCH, MatchContext, finish_action
from .handeval import bits, highest_deadwood, melded_cards
from .knowledge import Knowledge
from .simple import plain_draw_or_big_gin

CAUTIOUS_KNOCK = 3  # the most deadwood TITO knocks with when an undercut would lose the match
SLIP = 0.3  # how often TITO throws any unmelded card instead of the highest


class Tito:
    name = "tito"

    def choose(self, view: DealView, rng: random.Random, match: MatchContext | None = None) -> Action:
        know = Knowledge.from_view(view)
        plain = plain_draw_or_big_gin(view, know)
        if plain is not None:
            return plain
        card = plain_discard(know, rng)
        deadwood = min_deadwood_mask(know.hand ^ 1 << card)
        return finish_action(view, card, knock=deadwood <= knock_ceiling(view, match or NO_MATCH, know))


def plain_discard(know: Knowledge, rng: random.Random) -> int:
    """The highest unmelded card, or now and then any unmelded card; a melded one if none is left."""
    card = highest_deadwood(know.hand, know.just_taken)
    if card < 0:  # every card melded: throw the one that costs least
        return best_discard_mask(know.hand, know.just_taken)[0]
    if rng.random() < SLIP:
        loose = know.hand & ~melded_cards(know.hand) & ~(1 << know.just_taken if know.just_taken >= 0 else 0)
        return rng.choice(list(bits(loose)))
    return card


def knock_ceiling(view: DealView, match: MatchContext, know: Knowledge) -> int:
    """The most deadwood worth knocking with: the limit, lower when an undercut ends the match."""
    if match.target is not None:
        undercut_floor = match.opponent_total + view.ruleset.undercut_bonus
        if undercut_floor >= match.target:
            return min(know.knock_limit, CAUTIOUS_KNOCK)
    return know.knock_limit
