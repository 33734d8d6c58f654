"""The JSON API under /api/ (django-ninja; schema at /api/openapi.json, described in docs/api.md).

Every endpoint resolves the caller (an API token, or the browser's session or guest cookie
with CSRF) and calls tables.services; none of them writes a model itself.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models import Q
from django.http import HttpRequest, HttpResponse
from ninja import NinjaAPI, Schema
from ninja.errors import AuthenticationError, HttpError, ValidationError
from ninja.parser import Parser
from ninja.responses import Status
from ninja.security import APIKeyCookie, HttpBearer
from pydantic import Field

import rules

from . import identity, payloads, selectors, services, verbs
from .errors import Forbidden, NotAuthenticated, NotFound, ServiceError, StaleVersion
from .models import ApiToken, Deal, Match, Player, Table
from .text_input import nul_location


class Caller:
    """Who is calling; ``player`` is None for a visitor who has not typed a name yet."""

    def __init__(self, player: Player | None, via: str):
        self.player = player
        self.via = via


class BearerToken(HttpBearer):
    """``Authorization: Bearer gm_...``: a program playing as an account."""

    def authenticate(self, request: HttpRequest, token: str) -> Caller:
        player = identity.player_for_api_token(token)
        if player is None:
            raise NotAuthenticated("That API token is unknown or revoked.")
        return Caller(player, "token")


class BrowserSession(APIKeyCookie):
    """The browser: an account's session or a guest's cookie; unsafe methods need the CSRF token."""

    param_name = "sessionid"

    def authenticate(self, request: HttpRequest, key: str | None) -> Caller:
        return Caller(identity.player_for_request(request), "session")


class TextParser(Parser):
    """JSON bodies, refused with a 400 naming the field when a string holds a NUL character."""

    def parse_body(self, request: HttpRequest) -> dict[str, Any]:
        data = super().parse_body(request)
        location = nul_location(data)
        if location is not None:
            raise ValidationError([{"loc": ("body", *location), "msg": "must not contain a NUL character"}])
        return data


api = NinjaAPI(
    parser=TextParser(),
    title="Ginmesa API",
    version="1",
    description="Gin Rummy at persistent tables. See docs/api.md for versions, errors and auth.",
    urls_namespace="api",
    auth=[BearerToken(), BrowserSession()],
)


# -- errors --------------------------------------------------------------------------------


def _error(request: HttpRequest, status: int, code: str, detail: str, **extra: Any) -> HttpResponse:
    return api.create_response(request, {"error": code, "detail": detail, **extra}, status=status)


def _caller(request: HttpRequest) -> Caller:
    caller = getattr(request, "auth", None)
    return caller if isinstance(caller, Caller) else Caller(None, "none")


@api.exception_handler(ServiceError)
def _service_error(request: HttpRequest, exc: ServiceError) -> HttpResponse:
    extra: dict[str, Any] = {}
    if exc.field:
        extra["field"] = exc.field
    if isinstance(exc, StaleVersion) and "table" in exc.extra:
        extra["state"] = payloads.table_state(
            selectors.get_table(exc.extra["table"]), _caller(request).player
        )
    if "retry_after" in exc.extra:
        extra["retry_after"] = exc.extra["retry_after"]
    return _error(request, exc.status, exc.code, exc.message, **extra)


@api.exception_handler(rules.IllegalMove)
def _illegal_move(request: HttpRequest, exc: rules.IllegalMove) -> HttpResponse:
    return _error(request, 400, "illegal_move", str(exc), field="action")


@api.exception_handler(ValidationError)
def _invalid_input(request: HttpRequest, exc: ValidationError) -> HttpResponse:
    first = exc.errors[0] if exc.errors else {}
    location = [str(part) for part in first.get("loc", ()) if part not in ("body", "payload", "query")]
    field = ".".join(location) or "body"
    return _error(request, 400, "invalid_input", f"{field}: {first.get('msg', 'invalid')}", field=field)


@api.exception_handler(AuthenticationError)
def _unauthenticated(request: HttpRequest, exc: AuthenticationError) -> HttpResponse:
    return _error(request, 401, "not_authenticated", "Log in, or send an API token.")


@api.exception_handler(HttpError)
def _http_error(request: HttpRequest, exc: HttpError) -> HttpResponse:
    if isinstance(exc.__cause__, ValidationError):  # ninja wraps what TextParser refused
        return _invalid_input(request, exc.__cause__)
    if exc.status_code == 400:  # ninja's "Cannot parse request body"
        return _error(request, 400, "invalid_json", "The request body is not valid JSON.", field="body")
    code = "csrf_failed" if exc.status_code == 403 else "error"
    return _error(request, exc.status_code, code, str(exc))


# -- input ---------------------------------------------------------------------------------


class NameIn(Schema):
    name: str | None = Field(None, max_length=40, description="A guest's name, when not logged in")


class CreateTableIn(NameIn):
    ruleset: str = Field("playgridia", description="playgridia, classic or reino")
    target: int | None = Field(None, description="playgridia: null for one deal, 100 to play to 100")
    custom: dict[str, Any] | None = Field(None, description="Other rules.Ruleset options to override")
    turn_seconds: int = Field(86400, description="30, 45, 60, 90, 600, 43200, 86400, 259200, 604800")
    visibility: str = Field("invite", description="invite (link only) or public (listed in the lobby)")
    spectator_chat: bool = True
    forfeit_after: int = Field(3, description="consecutive timed-out turns that forfeit the match")


class VersionIn(Schema):
    expected_version: int | None = Field(None, description="the table version the client acts on")


class BotIn(Schema):
    level: str = Field(..., description="tito, carmen or luna")


class MoveIn(Schema):
    action: str = Field(
        ...,
        max_length=24,
        description="take_upcard, pass, draw_stock, take_discard, "
        "discard, knock, big_gin; or the whole action, e.g. 'discard 7H'",
    )
    card: str | None = Field(None, max_length=3, description="the card of discard / knock, e.g. 7H")
    expected_version: int = Field(..., description="the table version the move was chosen at")
    client_move_id: str | None = Field(None, min_length=1, max_length=64, description="idempotency key")


class ChatIn(Schema):
    text: str = Field(..., description="plain text, at most 500 characters")


class MuteIn(Schema):
    seat: int
    muted: bool = True


class TokenIn(Schema):
    name: str = Field("", max_length=60)


class ProfileIn(Schema):
    display_name: str | None = Field(None, max_length=40)
    deck_design: str | None = None
    language: str | None = None
    time_zone: str | None = Field(None, max_length=64)
    alert_prefs: dict[str, Any] | None = None


# -- helpers -------------------------------------------------------------------------------


def _player(request: HttpRequest) -> Player:
    player = _caller(request).player
    if player is None:
        raise NotAuthenticated("Type a name (join or open a table) or log in first.")
    return player


def _player_or_guest(request: HttpRequest, name: str | None) -> Player:
    """The caller, or a new guest named ``name`` for a browser that has no identity yet."""
    caller = _caller(request)
    if caller.player is not None:
        return caller.player
    if caller.via != "session":
        raise NotAuthenticated("Log in, or send an API token.")
    caller.player = identity.become_guest(request, name)
    return caller.player


def _state(request: HttpRequest, outcome_or_table: services.Outcome | Table | str) -> dict[str, Any]:
    table = outcome_or_table.table if isinstance(outcome_or_table, services.Outcome) else outcome_or_table
    return payloads.table_state(selectors.get_table(table), _caller(request).player)


# -- tables --------------------------------------------------------------------------------


@api.post("/tables", response={201: dict}, summary="Open a table", tags=["tables"])
def create_table(request: HttpRequest, payload: CreateTableIn):
    with transaction.atomic():  # a refused table leaves no guest behind
        owner = _player_or_guest(request, payload.name)
        table = services.create_table(owner, **payload.dict(exclude={"name"}))
    return Status(201, _state(request, table.invite_token))


@api.get("/tables/{token}", summary="The table as the caller may see it", tags=["tables"])
def table_state(request: HttpRequest, token: str):
    return _state(request, token)


@api.post("/tables/{token}/join", summary="Take the free seat, or watch", tags=["tables"])
def join(request: HttpRequest, token: str, payload: NameIn):
    selectors.get_table(token)  # 404 before a visitor becomes a guest
    player = _player_or_guest(request, payload.name)
    return _state(request, services.join_table(token, player))


@api.post("/tables/{token}/moves", summary="Play an action", tags=["play"])
def move(request: HttpRequest, token: str, payload: MoveIn):
    outcome = services.apply_move(
        token,
        _player(request),
        payload.action,
        payload.expected_version,
        client_move_id=payload.client_move_id,
        card=payload.card,
    )
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
        return _state(request, outcome)
    player = _caller(request).player
    published = getattr(outcome.table, "published_states", None) or {}
    if player is not None and str(player.pk) in published:
        return published[str(player.pk)]  # built at the commit for this player's sockets
    return payloads.table_state(outcome.table, player)


@api.get(
    "/tables/{token}/moves", summary="The current deal's move log, as the caller may see it", tags=["play"]
)
def move_log(request: HttpRequest, token: str):
    table = selectors.get_table(token)
    seat = table.seat_of(_caller(request).player)
    deal = table.current_deal
    moves = [] if deal is None else deal.moves.order_by("seq")
    return {
        "deal": None if deal is None else deal.number,
        "moves": [payloads.move_summary(m, seat) for m in moves],
    }


def _verb_endpoint(verb: verbs.TableVerb) -> None:
    """The API's endpoint of a table verb (tables/verbs.py), with the body the verb takes."""
    route = api.post(
        f"/tables/{{token}}/{verb.path}",
        summary=verb.summary,
        tags=[verb.tag],
        operation_id=f"tables_api_{verb.name}",
    )
    if verb.body == verbs.BOT_LEVEL:

        def with_level(request: HttpRequest, token: str, payload: BotIn) -> dict[str, Any]:
            return _state(request, verb.run(token, _player(request), level=payload.level))

        route(with_level)
    elif verb.body == verbs.VERSION:

        def with_version(request: HttpRequest, token: str, payload: VersionIn) -> dict[str, Any]:
            return _state(request, verb.run(token, _player(request), payload.expected_version))

        route(with_version)
    else:

        def bare(request: HttpRequest, token: str) -> dict[str, Any]:
            return _state(request, verb.run(token, _player(request)))

        route(bare)


for _verb in verbs.VERBS:
    _verb_endpoint(_verb)


# -- chat ----------------------------------------------------------------------------------


@api.get("/tables/{token}/chat", summary="Chat the caller may read, after message id `after`", tags=["chat"])
def chat_history(request: HttpRequest, token: str, after: int = 0):
    table = selectors.get_table(token)
    messages = selectors.chat_history(table, _caller(request).player, after=after)
    return {"messages": [payloads.chat_message(message) for message in messages]}


@api.post("/tables/{token}/chat", response={201: dict}, summary="Post a chat message", tags=["chat"])
def chat_post(request: HttpRequest, token: str, payload: ChatIn):
    message = services.post_chat(token, _player(request), payload.text)
    return Status(201, payloads.chat_message(message))


@api.post("/tables/{token}/chat/mute", summary="Mute (or unmute) a seat's chat for the caller", tags=["chat"])
def chat_mute(request: HttpRequest, token: str, payload: MuteIn):
    services.set_mute(token, _player(request), payload.seat, payload.muted)
    return {"seat": payload.seat, "muted": payload.muted}


# -- export --------------------------------------------------------------------------------


def _finished_deal_for(request: HttpRequest, token: str, match_number: int, deal_number: int) -> Deal:
    deal = (
        Deal.objects.select_related("match__table")
        .filter(match__table__invite_token=token, match__number=match_number, number=deal_number)
        .first()
    )
    if deal is None:
        raise NotFound("There is no such deal.")
    _require_player_or_staff(request, deal.match.table)
    if deal.status != Deal.Status.OVER and not _is_staff(request):
        raise Forbidden("A deal is exported once it is over.")
    return deal


def _is_staff(request: HttpRequest) -> bool:
    player = _caller(request).player
    return bool(player and player.user_id and player.user.is_staff)


def _require_player_or_staff(request: HttpRequest, table: Table) -> None:
    if table.seat_of(_caller(request).player) is None and not _is_staff(request):
        raise Forbidden("Only the table's players and staff export its deals.")


@api.get(
    "/tables/{token}/matches/{match_number}/deals/{deal_number}/export",
    summary="A finished deal as rules.replay reads it",
    tags=["export"],
)
def export_deal(request: HttpRequest, token: str, match_number: int, deal_number: int):
    return payloads.deal_export(_finished_deal_for(request, token, match_number, deal_number))


@api.get("/tables/{token}/matches/{match_number}/export", summary="A match's finished deals", tags=["export"])
def export_match(request: HttpRequest, token: str, match_number: int):
    match = (
        Match.objects.select_related("table").filter(table__invite_token=token, number=match_number).first()
    )
    if match is None:
        raise NotFound("There is no such match.")
    _require_player_or_staff(request, match.table)
    data = payloads.match_export(match)
    if not _is_staff(request):
        data["deals"] = [deal for deal in data["deals"] if deal["outcome"]]  # unfinished deals stay secret
    return data


# -- the caller ----------------------------------------------------------------------------


@api.get("/me/tables", summary="The caller's tables, those awaiting the caller first", tags=["me"])
def my_tables(request: HttpRequest):
    player = _player(request)
    rows = [payloads.my_table_row(table, player) for table in selectors.tables_of(player)]
    rows.sort(key=lambda row: (not row["your_move"], row["seconds_left"] is None, row["seconds_left"] or 0))
    return {"tables": rows}


@api.get("/me", summary="The caller's profile", tags=["me"])
def profile(request: HttpRequest):
    return _profile(_player(request))


@api.patch("/me", summary="Change the caller's profile", tags=["me"])
def update_profile(request: HttpRequest, payload: ProfileIn):
    player = _player(request)
    services.update_profile(player, **payload.dict(exclude_none=True))
    return _profile(player)


def _profile(player: Player) -> dict[str, Any]:
    return {
        "display_name": player.display_name,
        "is_guest": player.is_guest,
        "deck_design": player.deck_design,
        "language": player.language,
        "time_zone": player.time_zone,
        "alert_prefs": player.alert_prefs,
    }


@api.get("/lobby", summary="Public tables waiting for a player", tags=["tables"])
def lobby(request: HttpRequest):
    return {"tables": [payloads.lobby_row(table) for table in selectors.lobby_tables()]}


# -- API tokens ----------------------------------------------------------------------------


def _account(request: HttpRequest):
    player = _player(request)
    if player.user_id is None:
        raise Forbidden("API tokens belong to accounts: sign up first.")
    return player.user


@api.get("/tokens", summary="The account's API tokens (never their values)", tags=["me"])
def list_tokens(request: HttpRequest):
    tokens = ApiToken.objects.filter(user=_account(request)).filter(Q(revoked_at__isnull=True)).order_by("id")
    return {"tokens": [_token_row(token) for token in tokens]}


@api.post("/tokens", response={201: dict}, summary="Create an API token (shown once)", tags=["me"])
def create_token(request: HttpRequest, payload: TokenIn):
    if _caller(request).via != "session":
        raise Forbidden("Create tokens from a logged-in browser.")
    token, raw = identity.issue_api_token(_account(request), payload.name)
    return Status(201, {**_token_row(token), "token": raw})


@api.delete("/tokens/{token_id}", summary="Revoke an API token", tags=["me"])
def revoke_token(request: HttpRequest, token_id: int):
    if not identity.revoke_api_token(_account(request), token_id):
        raise NotFound("There is no such token.")
    return {"revoked": token_id}


def _token_row(token: ApiToken) -> dict[str, Any]:
    return {
        "id": token.id,
        "name": token.name,
        "prefix": token.prefix,
        "created_at": token.created_at.isoformat(),
        "last_used_at": token.last_used_at.isoformat() if token.last_used_at else None,
    }


# -- web push (tables.alerts) --------------------------------------------------------------

from .alerts.api import router as push_router  # noqa: E402  (the router reuses this API's auth)

api.add_router("/me/push", push_router)
