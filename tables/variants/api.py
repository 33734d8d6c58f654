"""Tables of three and four in the JSON API (mounted under /api by tables.api): create, read,
join, robots, leave, start, resign, play again, the game's chat, its boards as a spectator sees
them. Each deal is played at its board's ordinary table through /api/tables/{token}. Every
endpoint calls tables.variants.services; none writes a model."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.http import HttpRequest
from django.utils.translation import gettext
from ninja import P, QueryEx, Router
from ninja.responses import Status

from tables.core.errors import BadRequest, NotFound
from tables.core.schemas import errors
from tables.play import payloads as table_payloads
from tables.play.api_caller import caller_of, player_of, player_or_guest
from tables.play.schemas import ChatHistoryOut, ChatIn, ChatMessageOut
from tables.social.selectors import blocked_either_way
from tables.variants import payloads, selectors, services
from tables.variants.models import GameTable
from tables.variants.schemas import BoardsOut, GameIn, GameOut, JoinIn, LeaveIn, LobbyGamesOut, RobotIn

router = Router(tags=["games of three and four"])

WRITE_ERRORS = errors(400, 401, 403, 404, 409)
MAX_ROUND = 10_000  # beyond any game (a board's round is a small integer column)


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
    "/games",
    response={200: LobbyGamesOut, **errors(400, 401)},
    summary="Public tables of three and four waiting for players (the lobby's)",
)
def lobby_games(request: HttpRequest) -> dict[str, Any]:
    apart = blocked_either_way(caller_of(request).player)
    return {"games": [payloads.lobby_game_row(game) for game in selectors.lobby_games(apart)]}


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


@router.get(
    "/games/{token}/chat",
    response={200: ChatHistoryOut, **errors(400, 401, 404)},
    summary="The game's chat the caller may read, after message id `after` (every board's table shows it)",
)
def game_chat(request: HttpRequest, token: str, after: int = 0) -> dict[str, Any]:
    messages = selectors.game_chat(selectors.game_by_token(token), caller_of(request).player, after=after)
    return {"messages": [table_payloads.chat_message(message) for message in messages]}


@router.post(
    "/games/{token}/chat",
    response={201: ChatMessageOut, **errors(400, 401, 403, 404, 409, 413, 429)},
    summary="Write in the game's chat (players in the players' channel, others as spectators if allowed)",
)
def game_chat_post(request: HttpRequest, token: str, payload: ChatIn) -> Status[dict[str, Any]]:
    message = services.post_game_chat(token, player_of(request), payload.text)
    return Status(201, table_payloads.chat_message(message))


@router.get(
    "/games/{token}/boards",
    response={200: BoardsOut, **errors(400, 401, 404)},
    summary="The boards of a round (default: the newest) as a spectator of their tables sees them: no card of a hand",
)
def read_boards(
    request: HttpRequest, token: str, round: QueryEx[int | None, P(ge=1, le=MAX_ROUND)] = None
) -> dict[str, Any]:
    game = selectors.game_by_token(token)
    boards = selectors.round_boards(game, round)
    if round is not None and not boards:
        raise NotFound(gettext("This table has no such round yet."))
    return payloads.boards_payload(game, boards)


def _detail(request: HttpRequest, token: str) -> dict[str, Any]:
    return payloads.game_detail(selectors.game_by_token(token), caller_of(request).player)
