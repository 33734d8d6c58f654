"""The page of a table of three or four (its invite link) and its buttons. Each deal is played
on its board's own table page; this page seats the players, starts the game, keeps the
score sheet and shows the game's one chat (every board's table page shows it too)."""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import messages
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from tables.accounts import identity
from tables.accounts.models import Player
from tables.archive import selectors as archive
from tables.core.errors import ServiceError
from tables.play import payloads as table_payloads
from tables.variants import payloads, replays, selectors, services
from tables.variants.models import GameTable


def game_page(request: HttpRequest, token: str) -> HttpResponse:
    try:
        game = selectors.game_by_token(token)
    except ServiceError:
        raise Http404(_("There is no such table.")) from None
    player = identity.player_for_request(request)
    detail = payloads.game_detail(game, player)
    spectator_chat = bool(game.table_options.get("spectator_chat", True))
    context = {
        "game": detail,
        "player": player,
        "free_seat": detail["status"] == "waiting" and len(detail["seats"]) < detail["seat_count"],
        "boards": payloads.board_names(detail),
        "rows": payloads.page_rows(detail),
        "game_panel": payloads.board_panel(game, detail, None),
        "chat": [table_payloads.chat_message(message) for message in selectors.game_chat(game, player)],
        "chat_open": detail["boards"] != [],  # the game's chat is its boards': none before the start
        "may_chat": detail["you"] is not None or spectator_chat,
        "spectator_chat": spectator_chat,
        "my_url": table_payloads.player_url(player),
        "deal_archive": _deal_archive(game, detail["you"] is not None or request.user.is_staff),
    }
    return render(request, "variants/game.html", context)


def _deal_archive(game: GameTable, shown: bool) -> list[dict[str, object]]:
    """Once the game is over, every deal with its match's archive page, for those who may see
    them (its players, staff: a board's table is invite-only); none before, a deal of a game in
    play is seen at its table."""
    if not shown or game.status != GameTable.Status.OVER:
        return []
    return replays.deal_links(game, archive.board_matches(game))


@require_GET
def game_panel(request: HttpRequest, token: str) -> HttpResponse:
    """The game's panel alone, as the page's table-game.js swaps it in: the one of the board
    whose table token is ``board`` (its table page's), else the game page's."""
    try:
        game = selectors.game_by_token(token)
        at = selectors.board_by_table_token(game, request.GET.get("board"))
    except ServiceError as error:
        raise Http404(error.message) from None
    detail = payloads.game_detail(game, identity.player_for_request(request))
    return render(request, "variants/_board_game.html", {"panel": payloads.board_panel(game, detail, at)})


def _whole(raw: str | None) -> int | None:
    return int(raw) if raw and raw.isdigit() else None


ACTIONS: dict[str, Callable[[str, Player, HttpRequest], object]] = {
    "join": lambda token, player, request: services.join_game(token, player),
    "robot": lambda token, player, request: services.add_robot(token, player, request.POST.get("level", "")),
    "leave": lambda token, player, request: services.leave_game(
        token, player, _whole(request.POST.get("seat"))
    ),
    "start": lambda token, player, request: services.start_game(token, player),
    "resign": lambda token, player, request: services.resign_game(token, player),
    "again": lambda token, player, request: services.play_again(token, player),  # the next game
    "chat": lambda token, player, request: services.post_game_chat(token, player, request.POST.get("text")),
}


@require_POST
def game_action(request: HttpRequest, token: str, action: str) -> HttpResponse:
    act = ACTIONS.get(action)
    if act is None:
        raise Http404(_("There is no such action."))
    try:
        with transaction.atomic():  # a refused join leaves no guest behind
            player = identity.player_for_request(request)
            if player is None and action == "join":
                player = identity.become_guest(request, request.POST.get("name"))
            if player is None:
                messages.error(request, _("Type a name (join or open a table) or log in first."))
                return redirect("game", token=token)
            done = act(token, player, request)
            if action == "again" and isinstance(done, GameTable):  # to the next game's page
                return redirect("game", token=done.invite_token)
    except ServiceError as error:
        messages.error(request, error.message)
    return redirect("game", token=token)
