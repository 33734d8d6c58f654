"""The page of a table of three or four (its invite link) and its buttons. Each deal is played
on its board's own table page; this page seats the players, starts the game and keeps the
score sheet."""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import messages
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tables.accounts import identity
from tables.accounts.models import Player
from tables.core.errors import ServiceError
from tables.variants import payloads, selectors, services
from tables.variants.models import GameTable


def game_page(request: HttpRequest, token: str) -> HttpResponse:
    try:
        game = selectors.game_by_token(token)
    except ServiceError:
        raise Http404(_("There is no such table.")) from None
    player = identity.player_for_request(request)
    detail = payloads.game_detail(game, player)
    context = {
        "game": detail,
        "player": player,
        "free_seat": detail["status"] == "waiting" and len(detail["seats"]) < detail["seat_count"],
        "boards": payloads.board_names(detail),
        "rows": payloads.page_rows(detail),
    }
    return render(request, "variants/game.html", context)


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
