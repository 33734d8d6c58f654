"""Deal reviews (bots/review.py): who may have one, asking for it once, computing it, reading it.

Rules: never for a deal still being played (nor one abandoned mid-deal: it has no end to judge);
while the match goes on, a player gets the review of their own decisions only; once it is over,
its players get both seats', and so does anyone for a public table: an anonymous visitor reads
an existing review, asking for one takes an identity. One review is stored per
(deal, seat): the unique constraint, and the deal row locked while it is looked up or created,
make two requests at once produce one review and one computation.

A review costs seconds of a worker's CPU (about 10 s, at most 24 s: bench/README.md), so asking
is metered (docs/reliability.md, "Reviews"): an account may ask, a guest only at a table where
they hold a seat; each asker and each address has REVIEW_LIMITS on reviews in flight and per
day, and the pending backlog has a cap; a refusal is 429 with the seconds to wait and changes
nothing. The pending rows are the queue: each task computes the most urgent one (the players'
own requests first, then the oldest), whichever request sent it, so the order does not depend on
the broker. A review whose task or worker was lost is marked failed and may be asked again.
"""

from __future__ import annotations

import datetime as dt
import logging
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.db.models import Q, QuerySet
from django.urls import reverse
from django.utils import timezone

from bots.review import REVIEW_SETTINGS, ReviewSettings, decision_points, review_deal
from bots.review_verdicts import MATCH_SCALE, MATCH_VERDICTS, POINTS_SCALE, VERDICTS
from tables.accounts.models import Player
from tables.alerts import services as inbox_lines
from tables.core.announcements import ChangeKind, TableChange, announce
from tables.core.errors import Conflict, Forbidden, NotFound, RateLimited
from tables.play import engine
from tables.play.models import Deal, Match, Table
from tables.reviews.models import DealReview

log = logging.getLogger(__name__)

# A review pending this long lost its task (BACKLOG_LIMIT reviews of 10 s wait under 600 s);
# one running this long lost its worker (a review takes at most 24 s): either is marked failed,
# and asking again restarts it.
STALE_SECONDS = 600
RUNNING_STALE_SECONDS = 120


@dataclass(frozen=True)
class Limit:
    in_flight: int  # reviews pending or running
    per_day: int  # reviews asked in the last 24 hours


# Per asker (an account, or a guest at their own table) and per address. A request for a finished
# match makes two reviews (both seats): two deals at once per asker.
ASKER_LIMIT = Limit(in_flight=4, per_day=40)
ADDRESS_LIMIT = Limit(in_flight=8, per_day=80)
BACKLOG_LIMIT = 50  # pending reviews (the players' own have a backlog of their own as large)
RETRY_IN_FLIGHT_SECONDS = 30  # about three reviews' time
RETRY_BUSY_SECONDS = 60
DAY = dt.timedelta(days=1)


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


def asks_as_player(deal: Deal, player: Player) -> bool:
    """Whether ``player`` asks at their own table (their request goes first); a guest may ask
    only there: anyone else's reviews are an account's to ask for."""
    own = deal.match.table.seat_of(player) is not None
    if not own and player.user_id is None:
        raise Forbidden(
            "A guest asks for reviews of their own matches only: sign up or log in to ask for others'."
        )
    return own


def of_old_scale(result: dict[str, Any] | None) -> bool:
    """A review stored before the points scale: its verdicts are in match-winning chance and its
    choices carry no points, so it cannot be judged again in points without being computed again."""
    return result is not None and result.get("scale", MATCH_SCALE) != POINTS_SCALE


def _lost(row: DealReview, now: dt.datetime) -> bool:
    """Failed, or its task or worker lost (STALE_SECONDS, RUNNING_STALE_SECONDS): asked again, it
    restarts; so does a review of the old scale (of_old_scale): asked again, it is computed anew."""
    if row.status == DealReview.Status.DONE:
        return of_old_scale(row.result)
    if row.status == DealReview.Status.PENDING:
        return (now - row.created_at).total_seconds() > STALE_SECONDS
    if row.status == DealReview.Status.RUNNING:
        return (now - (row.started_at or row.created_at)).total_seconds() > RUNNING_STALE_SECONDS
    return row.status == DealReview.Status.FAILED


def _shown_status(row: DealReview, now: dt.datetime) -> str:
    if row.status == DealReview.Status.DONE:
        return row.status  # an old-scale one too: shown, marked of its scale, until asked again
    return DealReview.Status.FAILED if _lost(row, now) else row.status


def _shown_result(row: DealReview) -> dict[str, Any] | None:
    """The stored result; one of the old scale says so (scale "match_chance": its verdicts
    are the match judgement's, it has no points nor accuracy)."""
    if row.status != DealReview.Status.DONE or row.result is None:
        return None
    result: dict[str, Any] = row.result
    if of_old_scale(result):
        return {**result, "scale": MATCH_SCALE, "accuracy": None}
    return result


def _in_flight(now: dt.datetime) -> Q:
    pending = Q(status=DealReview.Status.PENDING, created_at__gt=now - dt.timedelta(seconds=STALE_SECONDS))
    running = Q(
        status=DealReview.Status.RUNNING, started_at__gt=now - dt.timedelta(seconds=RUNNING_STALE_SECONDS)
    )
    return pending | running


def asked_and_waiting() -> bool:
    """Whether a review someone asked for waits for a worker: fair play's screening
    (tables.fairplay.services), which asks for reviews on nobody's behalf, gives way to it."""
    waiting = DealReview.objects.filter(_in_flight(timezone.now()), status=DealReview.Status.PENDING)
    return waiting.filter(requested_by__isnull=False).exists()


def _within(limit: Limit, rows: QuerySet[DealReview], count: int, now: dt.datetime, whose: str) -> None:
    """Refuse ``count`` more reviews asked by ``rows``' asker over ``limit`` (429 with the wait)."""
    if rows.filter(_in_flight(now)).count() + count > limit.in_flight:
        raise RateLimited(
            f"{whose} already have reviews being computed: at most {limit.in_flight} at once.",
            extra={"retry_after": RETRY_IN_FLIGHT_SECONDS},
        )
    today = rows.filter(created_at__gt=now - DAY).order_by("created_at")
    if today.count() + count > limit.per_day:
        oldest = today.values_list("created_at", flat=True).first() or now
        wait = max(1, math.ceil((oldest + DAY - now).total_seconds()))
        raise RateLimited(f"{whose} asked for {limit.per_day} reviews today.", extra={"retry_after": wait})


def _check_limits(player: Player, address: str, own: bool, count: int, now: dt.datetime) -> None:
    """The asker's and the address's limits and the backlog's cap, for ``count`` new reviews."""
    Player.objects.select_for_update().filter(pk=player.pk).first()  # one request at a time per asker
    _within(ASKER_LIMIT, DealReview.objects.filter(requested_by=player), count, now, "You")
    if address:
        _within(
            ADDRESS_LIMIT,
            DealReview.objects.filter(requested_from=address),
            count,
            now,
            "Your address's players",
        )
    fresh = dt.timedelta(seconds=STALE_SECONDS)
    backlog = DealReview.objects.filter(status=DealReview.Status.PENDING, created_at__gt=now - fresh)
    if own:  # the players' own requests are never kept waiting by strangers' backlog
        backlog = backlog.filter(for_players=True)
    if backlog.count() + count > BACKLOG_LIMIT:
        raise RateLimited(
            "LUNA is busy with other reviews: ask again in a minute.",
            extra={"retry_after": RETRY_BUSY_SECONDS},
        )


def request_review(
    where: dict[str, Any], player: Player, staff: bool = False, address: str = ""
) -> tuple[list[DealReview], list[int]]:
    """The reviews ``player`` may see for the deal ``where`` names (deal_by_token, deal_by_match),
    created if missing, and the ids of those due to a worker (new, or failed or lost: restarted),
    not yet handed to one (ask_for_review does). ``address``: the asker's (its limit; empty:
    unknown). Only a new or restarted review counts against the limits; a refusal (RateLimited)
    changes nothing. Asking takes an identity: a computation is never an anonymous one's."""
    _, rows, to_run = _request(where, player, staff, address)
    return rows, to_run


def ask_for_review(where: dict[str, Any], player: Player, staff: bool = False, address: str = "") -> None:
    """request_review, then, its transaction committed, the announcement of the reviews due: the
    background work's receiver (tables.background.scheduling) hands them to a worker."""
    deal, _, to_run = _request(where, player, staff, address)
    if to_run:
        table = deal.match.table
        announce(TableChange(table.pk, table.version, ChangeKind.REVIEW, reviews=tuple(to_run)))


def _request(
    where: dict[str, Any], player: Player, staff: bool, address: str
) -> tuple[Deal, list[DealReview], list[int]]:
    now = timezone.now()
    with transaction.atomic():
        deal = _deal_row(where, lock=True)  # one request at a time per deal
        seats = reviewable_seats(deal, player, staff)
        own = asks_as_player(deal, player)
        existing = {row.seat: row for row in DealReview.objects.filter(deal=deal, seat__in=seats)}
        restart = [seat for seat in seats if seat not in existing or _lost(existing[seat], now)]
        if restart:
            _check_limits(player, address, own, len(restart), now)
        rows, to_run = [], []
        for seat in seats:
            row = existing.get(seat) or DealReview(deal=deal, seat=seat)
            if seat in restart:
                row.status, row.done, row.started_at, row.created_at = DealReview.Status.PENDING, 0, None, now
                row.points_loss = None
                row.requested_by, row.for_players, row.requested_from = player, own, address
                row.save()
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
    now = timezone.now()
    return {
        "match": deal.match.number,
        "deal": deal.number,
        "thresholds": [{"verdict": name, "loss": loss} for name, loss in VERDICTS],
        "match_thresholds": [{"verdict": name, "loss": loss} for name, loss in MATCH_VERDICTS],
        "reviews": [
            {
                "seat": row.seat,
                "status": _shown_status(row, now),
                "done": row.done,
                "total": row.total,
                "result": _shown_result(row),
            }
            for row in rows
        ],
    }


def start_scores(deal: Deal) -> tuple[int, int]:
    """The match totals, by seat, when ``deal`` was dealt."""
    sheet = engine.load_match(deal.match).score_sheet[: deal.number - 1]
    return sheet[-1].totals if sheet else (0, 0)


def run_next_review(settings: ReviewSettings | None = None) -> str:
    """Compute the most urgent pending review: the players' own requests first, then the oldest.
    Each review task runs this, whichever review it was sent for: one task per pending review,
    each taking the most urgent. Reviews lost meanwhile are marked failed first."""
    now = timezone.now()
    DealReview.objects.filter(status__in=(DealReview.Status.PENDING, DealReview.Status.RUNNING)).filter(
        ~_in_flight(now)
    ).update(status=DealReview.Status.FAILED, finished_at=now)
    pending = DealReview.objects.filter(status=DealReview.Status.PENDING)
    return _run(pending.order_by("-for_players", "created_at", "pk"), now, settings, skip_locked=True)


def run_review(review_id: int, settings: ReviewSettings | None = None) -> str:
    """Compute review ``review_id`` if nobody is: a duplicate or late task does nothing.
    ``settings``: the search budget, this module's REVIEW_SETTINGS unless given."""
    return _run(DealReview.objects.filter(pk=review_id), timezone.now(), settings)


def _run(
    rows: QuerySet[DealReview], now: dt.datetime, settings: ReviewSettings | None, skip_locked: bool = False
) -> str:
    """Claim the first of ``rows`` (running, in its own transaction: a second worker skips or
    leaves it), then compute it outside any transaction."""
    with transaction.atomic():
        locked = rows.select_for_update(skip_locked=skip_locked, of=("self",))
        row = locked.select_related("deal__match").first()
        if row is None or row.status == DealReview.Status.DONE:
            return "nothing to do"
        if row.status == DealReview.Status.RUNNING and not _lost(row, now):
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
    with transaction.atomic():
        _lock_seats_of_asker(row)
        DealReview.objects.filter(pk=row.pk).update(
            status=DealReview.Status.DONE,
            result=review.to_dict(),
            points_loss=sum(decision.points_loss for decision in review.decisions),
            done=len(review.decisions),
            total=len(review.decisions),
            finished_at=timezone.now(),
        )
        tell_ready(row)
    return "done"


def _lock_seats_of_asker(row: DealReview) -> None:
    """Lock the asker's reviews of the deal, in order: of two seats finishing at once, the
    second waits for the first to commit, then finds it done and writes the line."""
    mine = DealReview.objects.filter(deal_id=row.deal_id, requested_by_id=row.requested_by_id)
    list(mine.select_for_update().order_by("pk").values_list("pk", flat=True))


def tell_ready(row: DealReview) -> None:
    """The asker's inbox line "a review is ready", once the last of the seats they asked for in
    that deal is done (both seats: one line, its occasion the deal)."""
    asker = Player.objects.filter(pk=row.requested_by_id).first() if row.requested_by_id else None
    unfinished = (DealReview.Status.PENDING, DealReview.Status.RUNNING)
    mine = DealReview.objects.filter(deal_id=row.deal_id, requested_by=asker, status__in=unfinished)
    if asker is None or mine.exists():
        return
    deal = row.deal
    path = reverse("deal_replay", args=[deal.match_id, deal.number])
    inbox_lines.tell(asker, "review_ready", f"review:{deal.pk}", path, deal=deal.number)


def _progress(review_id: int) -> Callable[[int, int], None]:
    def saved(done: int, total: int) -> None:
        DealReview.objects.filter(pk=review_id).update(done=done, total=total)

    return saved
