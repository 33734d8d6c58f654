"""Tables of three and four in the JSON API (mounted under /api by tables.api): create, read,
join, robots, leave, start, resign. Each deal is played at its board's ordinary table through
/api/tables/{token}. Every endpoint calls tables.variants.services; none writes a model."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.http import HttpRequest
from ninja import Router
from ninja.responses import Status

from tables.core.errors import BadRequest
from tables.core.schemas import errors
from tables.play.api_caller import caller_of, player_of, player_or_guest
from tables.variants import payloads, selectors, services
from tables.variants.models import GameTable
from tables.variants.schemas import GameIn, GameOut, JoinIn, LeaveIn, RobotIn

router = Router(tags=["games of three and four"])

WRITE_ERRORS = errors(400, 401, 403, 404, 409)


@router.post(
    "/games",
    response={201: GameOut, **errors(400, 401, 403)},
    summary="Open a table of three (winner stays) or four (partnership gin)",
)
def create_game(request: HttpRequest, payload: GameIn) -> Status[dict[str, Any]]:
    options = payload.dict()
    players, name = options.pop("players"), options.pop("name")
    variant = GameTable.variant_for(players)
    if variant is None:
        raise BadRequest("players must be 3 or 4 (two players: POST /api/tables).", field="players")
    with transaction.atomic():  # a refused table leaves no guest behind
        owner = player_or_guest(request, name)
        game = services.create_game(owner, variant, **options)
    return Status(201, payloads.game_detail(game, owner))


@router.get(
    "/games/{token}", response={200: GameOut, **errors(400, 401, 404)}, summary="A table of three or four"
)
def read_game(request: HttpRequest, token: str) -> dict[str, Any]:
    return _detail(request, token)


@router.post(
    "/games/{token}/join", response={200: GameOut, **WRITE_ERRORS}, summary="Take the first free seat"
)
def join_game(request: HttpRequest, token: str, payload: JoinIn | None = None) -> dict[str, Any]:
    with transaction.atomic():  # a refused join leaves no guest behind
        services.join_game(token, player_or_guest(request, payload.name if payload else None))
    return _detail(request, token)


@router.post(
    "/games/{token}/robots", response={200: GameOut, **WRITE_ERRORS}, summary="Seat a robot (the owner)"
)
def add_robot(request: HttpRequest, token: str, payload: RobotIn) -> dict[str, Any]:
    services.add_robot(token, player_of(request), payload.level)
    return _detail(request, token)


@router.post(
    "/games/{token}/leave",
    response={200: GameOut, **WRITE_ERRORS},
    summary="Before the start: stand up, or (the owner) clear a seat",
)
def leave_game(request: HttpRequest, token: str, payload: LeaveIn) -> dict[str, Any]:
    services.leave_game(token, player_of(request), payload.seat)
    return _detail(request, token)


@router.post(
    "/games/{token}/start",
    response={200: GameOut, **WRITE_ERRORS},
    summary="Start (the owner, every seat filled)",
)
def start_game(request: HttpRequest, token: str) -> dict[str, Any]:
    services.start_game(token, player_of(request))
    return _detail(request, token)


@router.post(
    "/games/{token}/resign",
    response={200: GameOut, **WRITE_ERRORS},
    summary="Resign: your side loses the game",
)
def resign_game(request: HttpRequest, token: str) -> dict[str, Any]:
    services.resign_game(token, player_of(request))
    return _detail(request, token)


@router.post(
    "/games/{token}/again",
    response={200: GameOut, **WRITE_ERRORS},
    summary="After the game, play again: the next game at this table (opened by the first to ask), your seat in it",
)
def play_again(request: HttpRequest, token: str) -> dict[str, Any]:
    following = services.play_again(token, player_of(request))
    return payloads.game_detail(following, caller_of(request).player)


def _detail(request: HttpRequest, token: str) -> dict[str, Any]:
    return payloads.game_detail(selectors.game_by_token(token), caller_of(request).player)
