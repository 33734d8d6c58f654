"""Fair-play screening: each rated match's decisions, read from LUNA's reviews into its players'
signals (bots/fairplay.py), in the background. The move path gains one row, no computation.

When a rated match that counted ends (tables.play.services.matches.end_match, where its ratings
move), screen_later records its Screening, once: the unique match makes a second call, or a
retried last move, add nothing. The periodic sweep (tables/fairplay/tasks.py) hands pending
screenings to the reviews' workers. A screening has every finished deal of the match reviewed
for both seats by the reviews' own writer, which reads a review already stored (one a player
asked for) instead of computing it again: a decision costs what its review costs, once. Then,
in one transaction, it stores the decisions the players made themselves (not the server's moves
on timeout) and recomputes both players' signals. Reviews people asked for go first: a
screening stops while one waits and resumes at the next sweep, the reviews it got kept.
"""

from __future__ import annotations

import datetime as dt
import logging
from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from bots.fairplay import WINDOW, Scored, scored, signal_of
from bots.review import ReviewSettings
from tables.fairplay.models import FairPlaySignal, ScreenedDecision, Screening
from tables.play.models import Deal, Match, Move
from tables.reviews import services as reviews
from tables.reviews.models import DealReview

log = logging.getLogger(__name__)

SWEEP_BATCH = 4  # screenings handed to the reviews' workers per sweep
RUNNING_STALE = dt.timedelta(minutes=30)  # a match's reviews take minutes at most: its worker was lost
MAX_ATTEMPTS = 3  # a screening whose reviews keep failing is left failed, for staff to see
RECENT_MATCHES = 5  # the last screened matches each account's row links to


def screen_later(match: Match) -> None:
    """Record that ``match``, rated and counted, is to be screened (in the transaction that
    ends it); a second call for the same match adds nothing."""
    Screening.objects.bulk_create([Screening(match=match)], ignore_conflicts=True)


def due_screenings(limit: int = SWEEP_BATCH) -> list[int]:
    """The oldest screenings waiting for a worker, or whose worker was lost."""
    lost = Q(status=Screening.Status.RUNNING, started_at__lt=timezone.now() - RUNNING_STALE)
    due = Screening.objects.filter(Q(status=Screening.Status.PENDING) | lost).order_by("created_at", "pk")
    return list(due.values_list("pk", flat=True)[:limit])


def screen(screening_id: int, settings: ReviewSettings | None = None) -> str:
    """Screen a match if nobody is: a duplicate or late task does nothing. ``settings``: the
    reviews' search budget (the reviews' own unless given)."""
    row = _claim(screening_id)
    if row is None:
        return "nothing to do"
    deals = Deal.objects.filter(match_id=row.match_id, status=Deal.Status.OVER).order_by("number")
    for deal in deals:
        for seat in (0, 1):
            if reviews.asked_and_waiting():
                _release(row, failed=False)
                return "gave way to a review someone asked for"
            if not _reviewed(deal, seat, settings):
                _release(row, failed=True)
                return "a review is missing"
    _record(row.pk)
    return "done"


def _claim(screening_id: int) -> Screening | None:
    """Mark the screening running in a transaction of its own, so that a second worker leaves it."""
    now = timezone.now()
    with transaction.atomic():
        row = Screening.objects.select_for_update(skip_locked=True).filter(pk=screening_id).first()
        if row is None or row.status in (Screening.Status.DONE, Screening.Status.FAILED):
            return None
        if row.status == Screening.Status.RUNNING and row.started_at and now - row.started_at < RUNNING_STALE:
            return None
        row.status, row.started_at = Screening.Status.RUNNING, now
        row.save(update_fields=["status", "started_at"])
    return row


def _release(row: Screening, failed: bool) -> None:
    """Back to the queue; failed for good after MAX_ATTEMPTS failures."""
    row.attempts += int(failed)
    gave_up = row.attempts >= MAX_ATTEMPTS
    row.status = Screening.Status.FAILED if gave_up else Screening.Status.PENDING
    row.finished_at = timezone.now() if gave_up else None
    row.save(update_fields=["status", "attempts", "finished_at"])


def _reviewed(deal: Deal, seat: int, settings: ReviewSettings | None) -> bool:
    """Whether ``seat``'s review of ``deal`` is done, computed now if it was not (and nobody is)."""
    review, _ = DealReview.objects.get_or_create(deal=deal, seat=seat)
    if review.status != DealReview.Status.DONE:
        reviews.run_review(review.pk, settings)
    return DealReview.objects.filter(pk=review.pk, status=DealReview.Status.DONE).exists()


def _record(screening_id: int) -> None:
    """Store the match's decisions and recompute its players' signals, once."""
    with transaction.atomic():
        row = Screening.objects.select_for_update().select_related("match").get(pk=screening_id)
        if row.status == Screening.Status.DONE:
            return
        players = _players(row.match)
        ScreenedDecision.objects.bulk_create(_decisions(row.match, players), ignore_conflicts=True)
        for player_id in set(players.values()):
            recompute_signal(player_id)
        row.status, row.finished_at = Screening.Status.DONE, timezone.now()
        row.save(update_fields=["status", "finished_at"])


def _players(match: Match) -> dict[int, int]:
    """Who played each seat of the match: the account that made its moves."""
    moves = Move.objects.filter(deal__match=match, source=Move.Source.PLAYER, actor__isnull=False)
    return dict(moves.values_list("seat", "actor_id").distinct())


def _decisions(match: Match, players: dict[int, int]) -> list[ScreenedDecision]:
    """The reviewed decisions each player made in ``match`` (the server's moves on timeout aside)."""
    own = set(Move.objects.filter(deal__match=match, source=Move.Source.PLAYER).values_list("deal_id", "seq"))
    done = DealReview.objects.filter(deal__match=match, status=DealReview.Status.DONE, seat__in=players)
    ended_at = match.ended_at or timezone.now()
    return [
        ScreenedDecision(
            player_id=players[review.seat],
            deal_id=review.deal_id,
            number=decision["number"],
            ended_at=ended_at,
            loss=one.loss,
            best=one.best,
        )
        for review in done
        for decision in (review.result or {}).get("decisions", ())
        if (review.deal_id, decision["number"]) in own
        for one in [scored(decision)]
    ]


def recompute_signal(player_id: int) -> FairPlaySignal:
    """The account's signal over its last WINDOW screened decisions, and its last matches."""
    rows = ScreenedDecision.objects.filter(player_id=player_id).order_by(
        "-ended_at", "-deal__number", "-number"
    )
    latest = list(rows.values_list("loss", "best", "deal_id", "deal__match_id")[:WINDOW])
    signal = signal_of([Scored(loss, best) for loss, best, _, _ in reversed(latest)])
    values: dict[str, Any] = {
        "decisions": signal.decisions,
        "enough": signal.enough,
        "best_share": signal.best_share,
        "good_share": signal.good_share,
        "mean_loss": signal.mean_loss,
        "recent": _recent([match_id for *_, match_id in latest]),
    }
    row, _ = FairPlaySignal.objects.update_or_create(player_id=player_id, defaults=values)
    return row


def _recent(match_ids: list[int]) -> list[dict[str, Any]]:
    """The last RECENT_MATCHES of ``match_ids`` (newest first), each with its finished deals' ids."""
    recent = list(dict.fromkeys(match_ids))[:RECENT_MATCHES]
    deals = Deal.objects.filter(match_id__in=recent, status=Deal.Status.OVER).order_by("number")
    by_match: dict[int, list[int]] = {match_id: [] for match_id in recent}
    for match_id, deal_id in deals.values_list("match_id", "pk"):
        by_match[match_id].append(deal_id)
    return [{"match": match_id, "deals": deal_ids} for match_id, deal_ids in by_match.items()]
