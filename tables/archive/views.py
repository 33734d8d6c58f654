"""The players' archive pages: a finished match, a deal's step-by-step replay, and the
visitor's own finished matches (/me/archive/). Who may see what is tables.archive.selectors's rule;
a visitor who may not gets a 404, so that a private table's matches are not revealed."""

from __future__ import annotations

from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from tables.accounts import identity
from tables.accounts.models import Player
from tables.archive import replays
from tables.archive import selectors as archive
from tables.core.errors import NotFound
from tables.play import texts
from tables.play.models import Match
from tables.reviews import selectors as review_accuracy
from tables.variants import replays as game_replays

ARCHIVE_PAGE_SIZE = 20


def _viewer(request: HttpRequest) -> tuple[Player | None, bool]:
    user = getattr(request, "user", None)
    return identity.player_for_request(request), bool(user is not None and user.is_staff)


def _match(request: HttpRequest, match_id: int) -> tuple[Match, Player | None, bool]:
    player, staff = _viewer(request)
    try:
        return archive.viewable_match(match_id, player, staff), player, staff
    except NotFound:
        raise Http404("There is no such match.") from None


def match_archive(request: HttpRequest, match_id: int) -> HttpResponse:
    match, player, staff = _match(request, match_id)
    deals = archive.deals_of(match)
    data = replays.match_archive(match, deals, [archive.is_replayable(deal, staff) for deal in deals])
    accuracy = review_accuracy.match_accuracy(match)
    context = {
        "accuracy": accuracy,
        "accuracy_deals": max(figure.deals for figure in accuracy),
        "match": data,
        "seat": match.table.seat_of(player),
        "ended_at": match.ended_at,
        "resigned_before_a_deal_ended": data["outcome"] == "resigned"
        and not any(deal["status"] == "over" for deal in data["deals"]),
        "table_token": match.table.invite_token if staff or match.table.seat_of(player) is not None else None,
        "reportable": _reportable(match, player),
        "game_deal": _game_deal(match),
    }
    return render(request, "tables/match_archive.html", context)


def _game_deal(match: Match) -> dict[str, object] | None:
    """The game of three or four a board's match is a deal of, with the round's netting."""
    board = archive.board_of(match)
    if board is None:
        return None
    return game_replays.board_deal(board, archive.board_matches(board.game))


def _reportable(match: Match, viewer: Player | None) -> list[Player]:
    """The match's players an account looking at it may report to staff (docs/social.md)."""
    if viewer is None or viewer.user_id is None:
        return []
    return [
        seated
        for seated in match.table.seats
        if seated is not None and seated.user_id is not None and not seated.is_bot and seated.pk != viewer.pk
    ]


def deal_replay(request: HttpRequest, match_id: int, number: int) -> HttpResponse:
    match, player, staff = _match(request, match_id)
    try:
        deal = archive.replayable_deal(match, number, staff)
    except NotFound:
        raise Http404("There is no such deal.") from None
    data = replays.deal_replay(match, deal, archive.actions_of(deal))
    context = {
        "replay": data,
        "seat": match.table.seat_of(player),
        "player": player,
        "rule_names": texts.for_page(),
    }
    return render(request, "tables/deal_replay.html", context)


def my_archive(request: HttpRequest) -> HttpResponse:
    """The visitor's finished matches and, apart, their finished games of three and four (whose
    deals' matches are listed under the game, not here), the latest first, a page at a time."""
    player, _ = _viewer(request)
    page = games_page = None
    rows = []
    game_rows = []
    if player is not None:
        games_page = Paginator(archive.finished_games_of(player), ARCHIVE_PAGE_SIZE).get_page(
            request.GET.get("games")
        )
        if games_page.paginator.count:  # most players have none: no second query then
            game_rows = [game_replays.archive_row(game, player) for game in games_page.object_list]
        page = Paginator(archive.finished_matches_of(player), ARCHIVE_PAGE_SIZE).get_page(
            request.GET.get("page")
        )
        for match in page.object_list:
            head = replays.match_head(match)
            seat = match.table.seat_of(player)
            rows.append(
                {**head, "seat": seat, "opponent": head["players"][1 - seat] if seat is not None else None}
            )
    context = {"player": player, "page": page, "rows": rows, "games_page": games_page, "game_rows": game_rows}
    return render(request, "tables/my_archive.html", context)
