"""A player's page (ratings with their history, statistics, finished matches) and the
leaderboard per pace. Accounts only: guests and robots have no page."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.core.paginator import Page, Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from tables.accounts import identity
from tables.accounts.models import Player
from tables.play.models import Match, Pace
from tables.play.payloads import player_url
from tables.ratings import selectors as player_stats
from tables.records import selectors as records
from tables.reviews import selectors as review_accuracy
from tables.tournaments import selectors as tournament_selectors

MATCHES_PER_PAGE = 20
LEADERS_PER_PAGE = 50
CHART_WIDTH, CHART_HEIGHT, CHART_MARGIN = 600, 160, 8


@dataclass(frozen=True)
class Chart:
    """An inline SVG polyline of ratings, drawn on the server (no script, no library)."""

    points: str
    lowest: int
    highest: int
    width: int = CHART_WIDTH
    height: int = CHART_HEIGHT


def rating_chart(values: list[float]) -> Chart | None:
    if len(values) < 2:
        return None
    low, high = min(values), max(values)
    spread = (high - low) or 1.0
    step = (CHART_WIDTH - 2 * CHART_MARGIN) / (len(values) - 1)
    usable = CHART_HEIGHT - 2 * CHART_MARGIN
    points = " ".join(
        f"{CHART_MARGIN + index * step:.1f},{CHART_MARGIN + (high - value) / spread * usable:.1f}"
        for index, value in enumerate(values)
    )
    return Chart(points, round(low), round(high))


def _page(request: HttpRequest, items: Any, size: int, count: int | None = None) -> Page[Any]:
    paginator = Paginator(items, size)
    if count is not None:
        paginator.count = count  # known already: spares the COUNT query
    return paginator.get_page(request.GET.get("page"))


@dataclass(frozen=True)
class Change:
    """The player's rating after a listed match, and how far that match moved it."""

    rating_after: float
    difference: float


def _change(match: Match) -> Change | None:
    """The annotations of matches_by_key."""
    before, after = getattr(match, "rating_before", None), getattr(match, "rating_after", None)
    return None if before is None or after is None else Change(after, after - before)


def _match_row(match: Match, player: Player) -> dict[str, Any]:
    table = match.table
    seat = 0 if table.seat0_id == player.pk else 1
    opponent = table.seats[1 - seat]
    scores = match.final_scores or [{"total": 0}, {"total": 0}]
    return {
        "match": match,
        "opponent": opponent,
        "opponent_url": player_url(opponent),
        "won": match.winner == seat,
        "score": (scores[seat]["total"], scores[1 - seat]["total"]),
        "ruleset": table.ruleset_name,
        "rated": table.rated,
        "change": _change(match),
    }


def player(request: HttpRequest, player_id: int) -> HttpResponse:
    shown = player_stats.account_player(player_id)
    if shown is None:
        raise Http404("There is no such player.")
    ratings = player_stats.ratings_of(shown)
    paces = []
    for pace in Pace:
        history = player_stats.rating_history(shown, pace) if pace in ratings else []
        paces.append({"pace": pace, "rating": ratings.get(pace), "chart": rating_chart(history)})
    viewer = identity.player_for_request(request)
    staff = bool(request.user.is_staff)
    stats = player_stats.statistics(shown, viewer, staff)  # every match counts, private ones too
    listed = records.finished_match_keys(shown, viewer, staff)  # names only what viewer may see
    page = _page(request, listed, MATCHES_PER_PAGE, stats.listed)
    matches = player_stats.matches_by_key(shown, list(page))
    context = {
        "shown": shown,
        # An account looking at someone else's page may challenge them (the new-table form).
        "may_challenge": viewer is not None
        and viewer.user_id is not None
        and viewer.pk != shown.pk
        and not viewer.is_bot,
        "paces": paces,
        "stats": stats,
        "accuracy": review_accuracy.player_accuracy(shown),
        "robots_accuracy": review_accuracy.robots_accuracy(),
        "page": page,
        "rows": [_match_row(match, shown) for match in matches],
        "tournaments": tournament_selectors.events_of(shown, viewer),
    }
    return render(request, "tables/player.html", context)


def leaderboard(request: HttpRequest) -> HttpResponse:
    pace = request.GET.get("pace", Pace.SLOW)
    if pace not in Pace.values:
        pace = Pace.SLOW
    page = _page(request, player_stats.leaderboard(pace), LEADERS_PER_PAGE)
    rows = [
        {
            "rank": page.start_index() + index if rating.established else None,
            "rating": rating,
            "url": player_url(rating.player),
        }
        for index, rating in enumerate(page)
    ]
    context = {"pace": pace, "paces": Pace.choices, "page": page, "rows": rows}
    return render(request, "tables/leaderboard.html", context)
