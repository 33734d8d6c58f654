"""Deal reviews (bots/review.py): who may have one, asking for it once, computing it, reading it.

Rules: never for a deal still being played (nor one abandoned mid-deal: it has no end to judge);
while the match goes on, a player gets the review of their own decisions only; once it is over,
its players get both seats', and so does anyone for a public table: an anonymous visitor reads
an existing review, asking for one takes an identity. One review is stored per
(deal, seat): the unique constraint, and the deal row locked while it is looked up or created,
make two requests at once produce one review and one computation.
"""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Callable
from typing import Any

from django.db import transaction
from django.utils import timezone

from bots.review import REVIEW_SETTINGS, VERDICTS, ReviewSettings, decision_points, review_deal
from tables.accounts.models import Player
from tables.core.announcements import ChangeKind, TableChange, announce
from tables.core.errors import Conflict, Forbidden, NotFound
from tables.play import engine
from tables.play.models import Deal, Match, Table
from tables.reviews.models import DealReview

log = logging.getLogger(__name__)

STALE_SECONDS = 600  # a review pending or running this long lost its task: asking again restarts it


def deal_by_token(token: str, match_number: int, deal_number: int) -> dict[str, Any]:
    """A deal named as the table's API names it: the table's invite token, match and deal numbers."""
    return {"match__table__invite_token": token, "match__number": match_number, "number": deal_number}


def deal_by_match(match_id: int, deal_number: int) -> dict[str, Any]:
    """A deal named as the archive names it: the match's id and the deal's number."""
    return {"match_id": match_id, "number": deal_number}


def _deal_row(where: dict[str, Any], lock: bool = False) -> Deal:
    rows = Deal.objects.select_related("match__table")
    if lock:
        rows = rows.select_for_update(of=("self",))
    deal = rows.filter(**where).first()
    if deal is None:
        raise NotFound("There is no such deal.")
    return deal


def reviewable_seats(deal: Deal, player: Player | None, staff: bool = False) -> tuple[int, ...]:
    """The seats whose decisions ``player`` may see reviewed in ``deal``; refused otherwise."""
    if deal.status != Deal.Status.OVER:
        raise Conflict("A deal is reviewed once it is over.")
    table = deal.match.table
    seat = table.seat_of(player)
    if deal.match.status == Match.Status.OVER:
        if seat is not None or staff or table.visibility == Table.Visibility.PUBLIC:
            return (0, 1)
        raise Forbidden("Only the table's players review the deals of a table that is not public.")
    if seat is None:
        raise Forbidden("While the match goes on, only its players review their own decisions.")
    return (seat,)


def _stale(row: DealReview, now: dt.datetime) -> bool:
    since = row.started_at or row.created_at
    return row.status == DealReview.Status.FAILED or (
        row.status in (DealReview.Status.PENDING, DealReview.Status.RUNNING)
        and (now - since).total_seconds() > STALE_SECONDS
    )


def request_review(
    where: dict[str, Any], player: Player, staff: bool = False
) -> tuple[list[DealReview], list[int]]:
    """The reviews ``player`` may see for the deal ``where`` names (deal_by_token, deal_by_match),
    created if missing, and the ids of those due to a worker (new, failed, or whose task was
    lost), not yet handed to one (ask_for_review does). Asking takes an identity: a computation
    is never an anonymous one's."""
    _, rows, to_run = _request(where, player, staff)
    return rows, to_run


def ask_for_review(where: dict[str, Any], player: Player, staff: bool = False) -> None:
    """request_review, then, its transaction committed, the announcement of the reviews due: the
    background work's receiver (tables.background.scheduling) hands them to a worker."""
    deal, _, to_run = _request(where, player, staff)
    if to_run:
        table = deal.match.table
        announce(TableChange(table.pk, table.version, ChangeKind.REVIEW, reviews=tuple(to_run)))


def _request(where: dict[str, Any], player: Player, staff: bool) -> tuple[Deal, list[DealReview], list[int]]:
    now = timezone.now()
    with transaction.atomic():
        deal = _deal_row(where, lock=True)  # one request at a time per deal
        rows, to_run = [], []
        for seat in reviewable_seats(deal, player, staff):
            row, created = DealReview.objects.get_or_create(
                deal=deal, seat=seat, defaults={"requested_by": player}
            )
            if created:
                to_run.append(row.pk)
            elif _stale(row, now):
                row.status, row.done, row.started_at, row.created_at = DealReview.Status.PENDING, 0, None, now
                row.save(update_fields=["status", "done", "started_at", "created_at"])
                to_run.append(row.pk)
            rows.append(row)
    return deal, rows, to_run


def review_status(where: dict[str, Any], player: Player | None, staff: bool = False) -> dict[str, Any]:
    """The deal's reviews as ``player`` (None: an anonymous visitor) may see them: status and
    progress, the result once done."""
    deal = _deal_row(where)
    seats = reviewable_seats(deal, player, staff)
    rows = DealReview.objects.filter(deal=deal, seat__in=seats).order_by("seat")
    return review_answer(deal, list(rows))


def review_answer(deal: Deal, rows: list[DealReview]) -> dict[str, Any]:
    return {
        "match": deal.match.number,
        "deal": deal.number,
        "thresholds": [{"verdict": name, "loss": loss} for name, loss in VERDICTS],
        "reviews": [
            {
                "seat": row.seat,
                "status": row.status,
                "done": row.done,
                "total": row.total,
                "result": row.result if row.status == DealReview.Status.DONE else None,
            }
            for row in rows
        ],
    }


def start_scores(deal: Deal) -> tuple[int, int]:
    """The match totals, by seat, when ``deal`` was dealt."""
    sheet = engine.load_match(deal.match).score_sheet[: deal.number - 1]
    return sheet[-1].totals if sheet else (0, 0)


def run_review(review_id: int, settings: ReviewSettings | None = None) -> str:
    """Compute review ``review_id`` if nobody is: a duplicate or late task does nothing.
    ``settings``: the search budget, this module's REVIEW_SETTINGS unless given."""
    now = timezone.now()
    with transaction.atomic():
        row = (
            DealReview.objects.select_for_update().filter(pk=review_id).select_related("deal__match").first()
        )
        if row is None or row.status == DealReview.Status.DONE:
            return "nothing to do"
        if row.status == DealReview.Status.RUNNING and not _stale(row, now):
            return "already running"
        deal = engine.load_deal(row.deal)
        row.status, row.started_at, row.done = DealReview.Status.RUNNING, now, 0
        row.total = len(decision_points(deal, (row.seat,)))
        row.save(update_fields=["status", "started_at", "done", "total"])
    try:
        review = review_deal(
            deal,
            (row.seat,),
            start_scores(row.deal),
            seed=f"{row.deal_id}:{row.seat}",
            settings=settings or REVIEW_SETTINGS,
            progress=_progress(row.pk),
        )
    except Exception:
        log.exception("the review of seat %s in deal %s failed", row.seat, row.deal_id)
        DealReview.objects.filter(pk=row.pk).update(
            status=DealReview.Status.FAILED, finished_at=timezone.now()
        )
        return "failed"
    DealReview.objects.filter(pk=row.pk).update(
        status=DealReview.Status.DONE,
        result=review.to_dict(),
        done=len(review.decisions),
        total=len(review.decisions),
        finished_at=timezone.now(),
    )
    return "done"


def _progress(review_id: int) -> Callable[[int, int], None]:
    def saved(done: int, total: int) -> None:
        DealReview.objects.filter(pk=review_id).update(done=done, total=total)

    return saved
