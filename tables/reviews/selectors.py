"""Accuracy over more than a deal: a match's per seat, a player's over their last rated
reviewed matches, and the robots' for comparison. Each is the mean loss in points over all the
decisions reviewed (the stored reviews' ``points_loss`` sums and ``total`` counts: one query,
no review's JSON read) turned into 0-100 by bots.review_verdicts.accuracy_of_mean, so a long
deal weighs by its decisions. Reviews stored before the points scale have no sum and do not
count."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.core.cache import cache
from django.db.models import Count, Q, QuerySet, Sum
from redis.exceptions import RedisError

from bots.review_verdicts import accuracy_of_mean
from tables.accounts.models import Player
from tables.play.models import Match
from tables.reviews.models import DealReview

RECENT_MATCHES = 10  # a player's last rated matches with a review of their decisions


@dataclass(frozen=True)
class Accuracy:
    accuracy: float | None  # None: no reviewed decision
    decisions: int
    deals: int
    matches: int = 0


def _counted() -> QuerySet[DealReview]:
    return DealReview.objects.filter(status=DealReview.Status.DONE, points_loss__isnull=False)


def _figure(rows: QuerySet[DealReview]) -> Accuracy:
    totals = rows.aggregate(
        loss=Sum("points_loss"),
        decisions=Sum("total"),
        deals=Count("pk"),
        matches=Count("deal__match", distinct=True),
    )
    return _accuracy(totals["loss"], totals["decisions"], totals["deals"], totals["matches"])


def match_accuracy(match: Match) -> tuple[Accuracy, Accuracy]:
    """Each seat's accuracy over the match's reviewed deals (one query)."""
    terms: dict[str, Any] = {}
    for seat in (0, 1):
        mine = Q(seat=seat)
        terms[f"loss{seat}"] = Sum("points_loss", filter=mine)
        terms[f"decisions{seat}"] = Sum("total", filter=mine)
        terms[f"deals{seat}"] = Count("pk", filter=mine)
    totals = _counted().filter(deal__match=match).aggregate(**terms)
    first, second = (
        _accuracy(totals[f"loss{seat}"], totals[f"decisions{seat}"], deals, matches=int(deals > 0))
        for seat, deals in ((0, totals["deals0"]), (1, totals["deals1"]))
    )
    return first, second


def _accuracy(loss: float | None, decisions: int | None, deals: int, matches: int = 0) -> Accuracy:
    if not decisions:
        return Accuracy(None, 0, deals, matches)
    return Accuracy(accuracy_of_mean((loss or 0.0) / decisions), decisions, deals, matches)


def _own_reviews(player: Player) -> Q:
    """The reviews of ``player``'s own decisions (their seat at the table)."""
    return Q(seat=0, deal__match__table__seat0=player) | Q(seat=1, deal__match__table__seat1=player)


def player_accuracy(player: Player, last: int = RECENT_MATCHES) -> Accuracy:
    """``player``'s accuracy over their last ``last`` finished rated matches with a review of
    their decisions (one query)."""
    rows = _counted().filter(
        _own_reviews(player), deal__match__status=Match.Status.OVER, deal__match__table__rated=True
    )
    matches = Match.objects.filter(pk__in=rows.values("deal__match")).order_by("-ended_at", "-pk")
    recent = matches.values("pk")[:last]  # a subquery: one query in all
    return _figure(rows.filter(deal__match__in=recent))


ROBOTS_CACHE_KEY, ROBOTS_CACHE_SECONDS = "reviews:robots-accuracy", 600


def robots_accuracy() -> list[tuple[str, Accuracy]]:
    """Each robot's name and accuracy over all its reviewed decisions (a robot's play does not
    change: every review counts), for comparison. Every player page shows them, and they sum
    every robot's review there is, so they are kept in the cache for ten minutes."""
    try:
        figures: list[tuple[str, Accuracy]] | None = cache.get_or_set(
            ROBOTS_CACHE_KEY, _robots_accuracy, ROBOTS_CACHE_SECONDS
        )
    except RedisError:  # the cache is down: the page still shows them, from the database
        figures = None
    return _robots_accuracy() if figures is None else figures


def _robots_accuracy() -> list[tuple[str, Accuracy]]:
    """Two queries, one per seat (a robot with no reviewed decision is left out)."""
    sums: dict[str, list[float]] = {}
    for seat in (0, 1):
        robot = f"deal__match__table__seat{seat}"
        rows = _counted().filter(seat=seat, **{f"{robot}__is_bot": True})
        grouped = rows.values(f"{robot}__display_name").annotate(
            loss=Sum("points_loss"), decisions=Sum("total"), deals=Count("pk")
        )
        for row in grouped:
            held = sums.setdefault(row[f"{robot}__display_name"], [0.0, 0, 0])
            held[0] += row["loss"] or 0.0
            held[1] += row["decisions"] or 0
            held[2] += row["deals"]
    return [
        (name, Accuracy(accuracy_of_mean(loss / decisions), int(decisions), int(deals)))
        for name, (loss, decisions, deals) in sorted(sums.items())
        if decisions
    ]
