"""CARMEN, the medium bot: counts cards and weighs every option in deadwood points.

- A discard is judged by the deadwood it leaves, the deadwood expected after the
  next stock draw (only cards still unseen can come), and the chance that the
  opponent melds it (from the cards it took, threw and declined).
- The face-up card is taken when it beats the expected stock draw.
- A knock is weighed against the undercut risk, which grows as the deal goes on,
  and against the match score.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from rules.melding import best_discard_mask, min_deadwood_mask
from rules.moves import BIG_GIN, Action
from rules.scoring import UNDERCUT, deal_points
from rules.view import DealView

from .base import NO_MATCH, MatchContext, draw_action, find_action, finish_action
from .handeval import bits, expected_after_draw, feeding_chance, opponent_holds
from .knowledge import Knowledge

NOW_WEIGHT = 0.4  # deadwood kept now versus expected after the next draw
FEED_COST = 8.0  # deadwood points a meld handed to the opponent is worth
TAKE_MARGIN = 1.0  # the face-up card must beat the stock by this much (it tells the opponent)
EARLY_TURNS = 6  # discards (both seats) before the undercut risk starts to grow
TOOK_CAUTION = 2  # deadwood points less accepted per card the opponent took from the pile
FULL_CAUTION_UNDERCUT = 25  # undercut bonus at which Judgement.caution_by_undercut keeps the full caution
SAFE_AT_MATCH_POINT = 2  # knock deadwood accepted when an undercut would lose the match


@dataclass(frozen=True, slots=True)
class Judgement:
    """The weights of the deadwood-point judgement: CARMEN's by default; LUNA starts from its own."""

    now_weight: float = NOW_WEIGHT
    feed_cost: float = FEED_COST
    take_margin: float = TAKE_MARGIN
    early_turns: int = EARLY_TURNS  # discards before the knock ceiling starts to fall
    took_caution: int = TOOK_CAUTION  # knock ceiling points less per card the opponent took
    caution_by_undercut: bool = False  # the ceiling falls in proportion to the undercut bonus (25: full)
    safe_at_match_point: int = SAFE_AT_MATCH_POINT  # the ceiling where an undercut would lose the match


CARMEN_JUDGEMENT = Judgement()


class Carmen:
    name = "carmen"

    def choose(self, view: DealView, rng: random.Random, match: MatchContext | None = None) -> Action:
        know = Knowledge.from_view(view)
        if know.phase in ("offer", "draw"):
            return draw_action(view, wants_face_up(know))
        if min_deadwood_mask(know.hand) == 0 and find_action(view, BIG_GIN) is not None:
            return Action.big_gin()
        card, deadwood = best_discard_mask(know.hand, know.just_taken)
        if deadwood <= knock_ceiling(know, least_undercut(view), match or NO_MATCH):
            return finish_action(view, card, knock=True)
        return finish_action(view, ranked_discards(know)[0][1], knock=False)


def wants_face_up(know: Knowledge, judgement: Judgement = CARMEN_JUDGEMENT) -> bool:
    """Take the top discard when it leaves less deadwood than a stock draw is expected to."""
    if know.top < 0:
        return False
    taken = best_discard_mask(know.hand | 1 << know.top, know.top)[1]
    stock = expected_after_draw(know.hand, know.unseen)
    return taken + judgement.take_margin <= stock


def ranked_discards(know: Knowledge, judgement: Judgement = CARMEN_JUDGEMENT) -> list[tuple[float, int]]:
    """(cost, card) for every allowed discard, cheapest first."""
    holds = opponent_holds(know) if judgement.feed_cost else []
    lateness = 1.0 + know.turns / 20
    now = judgement.now_weight
    ranked = []
    for card in bits(know.hand):
        if card == know.just_taken:
            continue
        kept = know.hand ^ 1 << card
        cost = now * min_deadwood_mask(kept) + (1 - now) * expected_after_draw(kept, know.unseen)
        if judgement.feed_cost:
            cost += judgement.feed_cost * lateness * feeding_chance(card, know, holds)
        ranked.append((cost, card))
    ranked.sort()
    return ranked


def least_undercut(view: DealView) -> int:
    """The fewest points an undercut scores in this deal (a tie: the undercut bonus, times the
    deal's multiplier), from the engine's points function."""
    return deal_points(view.ruleset, UNDERCUT, 0, 0, view.multiplier)


def knock_ceiling(
    know: Knowledge, undercut_points: int, match: MatchContext, judgement: Judgement = CARMEN_JUDGEMENT
) -> int:
    """The most deadwood CARMEN knocks with now.

    Early the opponent's hand is still rough, so any legal knock wins; later every
    two discards shave a point, and cards the opponent took from the pile (melds in
    its hand) shave two each. When an undercut (``undercut_points``: the least one, see
    least_undercut) would hand the opponent the match, only a near-gin knock.
    """
    caution = max(0, know.turns - judgement.early_turns) / 2
    caution += judgement.took_caution * know.opponent_known.bit_count()
    if judgement.caution_by_undercut:
        caution *= undercut_points / FULL_CAUTION_UNDERCUT
    ceiling = know.knock_limit - int(caution)
    if match.target is not None and match.opponent_total + undercut_points >= match.target:
        ceiling = min(ceiling, judgement.safe_at_match_point)
    return max(ceiling, 1 if know.stock_count > 4 else know.knock_limit)
