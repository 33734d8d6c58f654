"""Practice positions: made from a player's own reviewed deal, answered one at a time.

Only the player's own seat, only a review in points that is done, only its mistakes and
blunders; each position is the engine's view of that seat just before the move (rules'
DealView.to_dict(): the hidden-information rules of the table itself). Making them twice
changes nothing (one per decision); an answer must be a legal move of the position.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models import F
from django.utils import timezone

from bots.practice import reason_for
from bots.review import decision_points
from rules import Action
from rules.view import DealView
from tables.accounts.models import Player
from tables.core.errors import BadRequest, Conflict, Forbidden, NotFound
from tables.play import engine
from tables.play.models import Deal
from tables.practice.models import PracticePosition
from tables.reviews.models import DealReview
from tables.reviews.services import of_old_scale

PRACTISED = ("mistake", "blunder")


def practice_from_deal(match_id: int, deal_number: int, player: Player) -> list[PracticePosition]:
    """The practice positions of ``player``'s mistakes and blunders in a deal of theirs, made
    once from its review of their seat."""
    with transaction.atomic():
        deal = (
            Deal.objects.select_related("match__table").filter(match_id=match_id, number=deal_number).first()
        )
        if deal is None:
            raise NotFound("There is no such deal.")
        seat = deal.match.table.seat_of(player)
        if seat is None:
            raise Forbidden("Practice comes from your own decisions: this deal is not yours.")
        review = DealReview.objects.select_for_update().filter(deal=deal, seat=seat).first()
        if review is None or review.status != DealReview.Status.DONE or of_old_scale(review.result):
            raise Conflict("Ask for LUNA's review of this deal first: practice comes from its mistakes.")
        result: dict[str, Any] = review.result or {}
        marked = {one["number"]: one for one in result["decisions"] if one["verdict"] in PRACTISED}
        made = set(PracticePosition.objects.filter(review=review).values_list("number", flat=True))
        for number, before, _ in decision_points(engine.load_deal(deal), (seat,)):
            if number in marked and number not in made:
                _make(player, review, number, before.view(seat), marked[number])
        return list(PracticePosition.objects.filter(review=review, player=player).order_by("number"))


def _make(player: Player, review: DealReview, number: int, view: DealView, decision: dict[str, Any]) -> None:
    luna = decision["points_best"]
    PracticePosition.objects.create(
        player=player,
        review=review,
        number=number,
        view=view.to_dict(),
        played=decision["played"],
        verdict=decision["verdict"],
        points_loss=decision["points_loss"],
        luna=luna,
        reason=reason_for(view, Action.parse(luna)).to_dict(),
    )


def positions_of(player: Player) -> list[PracticePosition]:
    """The player's practice positions: those not yet answered first, then the latest."""
    rows = PracticePosition.objects.filter(player=player).select_related("review__deal")
    return list(rows.order_by(F("answered_at").asc(nulls_first=True), "-created_at", "number"))


def answer(position_id: int, player: Player, move: str) -> PracticePosition:
    """Record ``player``'s answer to their position (answering again replaces it)."""
    with transaction.atomic():
        rows = PracticePosition.objects.select_for_update().select_related("review__deal")
        position = rows.filter(pk=position_id, player=player).first()
        if position is None:
            raise NotFound("There is no such practice position.")
        try:
            action = str(Action.parse(move))
        except ValueError:  # rules.RulesError included
            raise BadRequest("That is not a move.", field="action") from None
        if action not in position.view["legal_actions"]:
            raise BadRequest("That move is not legal in this position.", field="action")
        position.answer, position.answered_at = action, timezone.now()
        position.save(update_fields=["answer", "answered_at"])
    return position


def position_payload(position: PracticePosition) -> dict[str, Any]:
    """A position as its player sees it: LUNA's choice, the move played and the reason only
    once they answered."""
    deal = position.review.deal
    shown: dict[str, Any] = {
        "id": position.pk,
        "match_id": deal.match_id,
        "deal": deal.number,
        "number": position.number,
        "verdict": position.verdict,
        "view": position.view,
        "answered": position.answered_at is not None,
    }
    if position.answered_at is not None:
        shown.update(
            answer=position.answer,
            played=position.played,
            luna=position.luna,
            reason=position.reason,
            points_loss=position.points_loss,
            matches_luna=position.answer == position.luna,
        )
    return shown
