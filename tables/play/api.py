"""The table endpoints of the JSON API: open, read, join, move, the verbs, chat, export, the caller's tables and the lobby (mounted by tables.api)."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.http import HttpRequest
from ninja import Router
from ninja.responses import Status

from tables.core.errors import NotFound
from tables.core.schemas import READ_ERRORS, TABLE_READ_ERRORS, TABLE_WRITE_ERRORS, WRITE_ERRORS, errors
from tables.play import payloads, selectors, services, verbs
from tables.play.api_caller import (
    caller_of,
    finished_deal,
    is_staff,
    player_of,
    player_or_guest,
    require_player_or_staff,
    state_for,
)
from tables.play.models import Match
from tables.play.schemas import (
    BotIn,
    ChatHistoryOut,
    ChatIn,
    ChatMessageOut,
    CreateTableIn,
    DealExportOut,
    LobbyOut,
    MatchExportOut,
    MoveIn,
    MoveLogOut,
    MoveOut,
    MuteIn,
    MuteOut,
    MyTablesOut,
    NameIn,
    VersionIn,
)
from tables.play.state_schema import TableStateOut
from tables.social import selectors as social

router = Router()

# -- tables --------------------------------------------------------------------------------


@router.post(
    "/tables",
    response={201: TableStateOut, **WRITE_ERRORS},
    summary="Open a table",
    tags=["tables"],
)
def create_table(request: HttpRequest, payload: CreateTableIn) -> Status[dict[str, Any]]:
    with transaction.atomic():  # a refused table leaves no guest behind
        owner = player_or_guest(request, payload.name)
        table = services.create_table(owner, **payload.dict(exclude={"name"}))
    return Status(201, state_for(request, table.invite_token))


@router.get(
    "/tables/{token}",
    response={200: TableStateOut, **TABLE_READ_ERRORS},
    summary="The table as the caller may see it",
    tags=["tables"],
)
def table_state(request: HttpRequest, token: str) -> dict[str, Any]:
    return state_for(request, token)


@router.post(
    "/tables/{token}/join",
    response={200: TableStateOut, **errors(400, 401, 403, 404)},
    summary="Take the free seat, or watch",
    tags=["tables"],
)
def join(request: HttpRequest, token: str, payload: NameIn) -> dict[str, Any]:
    selectors.get_table(token)  # 404 before a visitor becomes a guest
    player = player_or_guest(request, payload.name)
    return state_for(request, services.join_table(token, player))


@router.post(
    "/tables/{token}/moves",
    response={200: MoveOut, **TABLE_WRITE_ERRORS},
    summary="Play an action",
    tags=["play"],
)
def move(request: HttpRequest, token: str, payload: MoveIn) -> dict[str, Any]:
    outcome = services.apply_move(
        token,
        player_of(request),
        payload.action,
        payload.expected_version,
        client_move_id=payload.client_move_id,
        card=payload.card,
        by_token=caller_of(request).via == "token",
    )
    assert outcome.move is not None  # a move's outcome holds the move
    return {
        "applied": not outcome.replayed,
        "replayed": outcome.replayed,
        "move": payloads.move_summary(outcome.move, outcome.seat),
        "events": [event.to_dict() for event in outcome.events],
        "state": _committed_state(request, outcome),
    }


def _committed_state(request: HttpRequest, outcome: services.Outcome) -> dict[str, Any]:
    """The table as this move left it: the locked rows are already loaded, so no second read
    on the hot path. A replayed move id reads the table afresh (it changed nothing now)."""
    if outcome.replayed:
        return state_for(request, outcome)
    player = caller_of(request).player
    published: dict[str, dict[str, Any]] = getattr(outcome.table, "published_states", None) or {}
    if player is not None and str(player.pk) in published:
        return published[str(player.pk)]  # built at the commit for this player's sockets
    return payloads.table_state(outcome.table, player)


@router.get(
    "/tables/{token}/moves",
    response={200: MoveLogOut, **TABLE_READ_ERRORS},
    summary="The current deal's move log, as the caller may see it",
    tags=["play"],
)
def move_log(request: HttpRequest, token: str) -> dict[str, Any]:
    table = selectors.get_table(token)
    seat = table.seat_of(caller_of(request).player)
    deal = table.current_deal
    moves = [] if deal is None else list(deal.moves.order_by("seq"))
    if not table.move_log:  # no looking back: only what the table state's history holds
        moves = payloads.latest_moves(moves, seat)
    return {
        "deal": None if deal is None else deal.number,
        "moves": [payloads.move_summary(m, seat) for m in moves],
    }


def _verb_endpoint(verb: verbs.TableVerb) -> None:
    """The API's endpoint of a table verb (tables/play/verbs.py), with the body the verb takes."""
    route = router.post(
        f"/tables/{{token}}/{verb.path}",
        response={200: TableStateOut, **TABLE_WRITE_ERRORS},
        summary=verb.summary,
        tags=[verb.tag],
        operation_id=f"tables_api_{verb.name}",
    )
    if verb.body == verbs.BOT_LEVEL:

        def with_level(request: HttpRequest, token: str, payload: BotIn) -> dict[str, Any]:
            return state_for(request, verb.run(token, player_of(request), level=payload.level))

        route(with_level)
    elif verb.body == verbs.VERSION:

        def with_version(request: HttpRequest, token: str, payload: VersionIn) -> dict[str, Any]:
            return state_for(request, verb.run(token, player_of(request), payload.expected_version))

        route(with_version)
    else:

        def bare(request: HttpRequest, token: str) -> dict[str, Any]:
            return state_for(request, verb.run(token, player_of(request)))

        route(bare)


for _verb in verbs.VERBS:
    _verb_endpoint(_verb)


# -- chat ----------------------------------------------------------------------------------


@router.get(
    "/tables/{token}/chat",
    response={200: ChatHistoryOut, **TABLE_READ_ERRORS},
    summary="Chat the caller may read, after message id `after`",
    tags=["chat"],
)
def chat_history(request: HttpRequest, token: str, after: int = 0) -> dict[str, Any]:
    table = selectors.get_table(token)
    messages = selectors.chat_history(table, caller_of(request).player, after=after)
    return {"messages": [payloads.chat_message(message) for message in messages]}


@router.post(
    "/tables/{token}/chat",
    response={201: ChatMessageOut, **errors(400, 401, 403, 404, 413, 429)},
    summary="Post a chat message",
    tags=["chat"],
)
def chat_post(request: HttpRequest, token: str, payload: ChatIn) -> Status[dict[str, Any]]:
    message = services.post_chat(token, player_of(request), payload.text)
    return Status(201, payloads.chat_message(message))


@router.post(
    "/tables/{token}/chat/mute",
    response={200: MuteOut, **errors(400, 401, 403, 404)},
    summary="Mute (or unmute) a seat's chat for the caller",
    tags=["chat"],
)
def chat_mute(request: HttpRequest, token: str, payload: MuteIn) -> dict[str, Any]:
    services.set_mute(token, player_of(request), payload.seat, payload.muted)
    return {"seat": payload.seat, "muted": payload.muted}


# -- export --------------------------------------------------------------------------------


@router.get(
    "/tables/{token}/matches/{match_number}/deals/{deal_number}/export",
    response={200: DealExportOut, **errors(400, 401, 403, 404)},
    summary="A finished deal as rules.replay reads it",
    tags=["export"],
)
def export_deal(request: HttpRequest, token: str, match_number: int, deal_number: int) -> dict[str, Any]:
    return payloads.deal_export(finished_deal(request, token, match_number, deal_number))


@router.get(
    "/tables/{token}/matches/{match_number}/export",
    response={200: MatchExportOut, **errors(400, 401, 403, 404)},
    summary="A match's finished deals",
    tags=["export"],
)
def export_match(request: HttpRequest, token: str, match_number: int) -> dict[str, Any]:
    match = (
        Match.objects.select_related("table").filter(table__invite_token=token, number=match_number).first()
    )
    if match is None:
        raise NotFound("There is no such match.")
    require_player_or_staff(request, match.table)
    data = payloads.match_export(match)
    if not is_staff(request):
        data["deals"] = [deal for deal in data["deals"] if deal["outcome"]]  # unfinished deals stay secret
    return data


# -- the caller ----------------------------------------------------------------------------


@router.get(
    "/me/tables",
    response={200: MyTablesOut, **READ_ERRORS},
    summary="The caller's tables, those awaiting the caller first",
    tags=["me"],
)
def my_tables(request: HttpRequest) -> dict[str, Any]:
    player = player_of(request)
    rows = [payloads.my_table_row(table, player) for table in selectors.tables_of(player)]
    rows.sort(key=lambda row: (not row["your_move"], row["seconds_left"] is None, row["seconds_left"] or 0))
    return {"tables": rows}


@router.get(
    "/lobby",
    response={200: LobbyOut, **READ_ERRORS},
    summary="Public tables waiting for a player",
    tags=["tables"],
)
def lobby(request: HttpRequest) -> dict[str, Any]:
    player = caller_of(request).player
    apart = social.blocked_either_way(player)
    tables = [table for table in selectors.lobby_tables() if table.owner_id not in apart]
    return {"tables": [payloads.lobby_row(table) for table in tables]}
