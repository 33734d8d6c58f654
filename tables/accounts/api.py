"""The caller's account in the JSON API: profile, vacation, API tokens and login sessions (mounted by tables.api)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.db.models import Q
from django.http import HttpRequest
from ninja import Router
from ninja.responses import Status

from tables.accounts import identity
from tables.accounts import payloads as account_payloads
from tables.accounts import services as account_services
from tables.accounts.models import ApiToken
from tables.accounts.schemas import (
    EndedOut,
    NewTokenOut,
    ProfileIn,
    ProfileOut,
    RevokedOut,
    SessionsOut,
    TokenIn,
    TokensOut,
    VacationIn,
)
from tables.core.errors import Forbidden, NotFound
from tables.core.schemas import READ_ERRORS, TABLE_WRITE_ERRORS, WRITE_ERRORS, errors
from tables.play.api_caller import (
    account_of,
    caller_of,
    player_of,
)

router = Router()


@router.get("/me", response={200: ProfileOut, **READ_ERRORS}, summary="The caller's profile", tags=["me"])
def profile(request: HttpRequest) -> dict[str, Any]:
    return account_payloads.profile(player_of(request))


@router.patch(
    "/me", response={200: ProfileOut, **WRITE_ERRORS}, summary="Change the caller's profile", tags=["me"]
)
def update_profile(request: HttpRequest, payload: ProfileIn) -> dict[str, Any]:
    player = player_of(request)
    account_services.update_profile(player, **payload.dict(exclude_none=True))
    return account_payloads.profile(player)


@router.put(
    "/me/vacation",
    response={200: ProfileOut, **TABLE_WRITE_ERRORS},
    summary="Be on vacation until the end of a day (accounts): slow clocks stop",
    tags=["me"],
)
def declare_vacation(request: HttpRequest, payload: VacationIn) -> dict[str, Any]:
    return account_payloads.profile(account_services.declare_vacation(player_of(request), payload.until))


@router.delete(
    "/me/vacation",
    response={200: ProfileOut, **TABLE_WRITE_ERRORS},
    summary="End the vacation now: the days not begun are given back",
    tags=["me"],
)
def end_vacation(request: HttpRequest) -> dict[str, Any]:
    return account_payloads.profile(account_services.end_vacation(player_of(request)))


# -- API tokens ----------------------------------------------------------------------------
# Under /api/me/tokens; /api/tokens, where they were first, answers the same (deprecated).

_LIST: dict[str, Any] = {"response": {200: TokensOut, **errors(400, 401, 403)}, "tags": ["me"]}
_CREATE: dict[str, Any] = {"response": {201: NewTokenOut, **WRITE_ERRORS}, "tags": ["me"]}
_REVOKE: dict[str, Any] = {"response": {200: RevokedOut, **errors(400, 401, 403, 404)}, "tags": ["me"]}
_OLD: dict[str, Any] = {"deprecated": True, "summary": "The same as under /api/me/tokens"}


@router.get(
    "/me/tokens", summary="The account's API tokens: scope, expiry, last use (never their values)", **_LIST
)
@router.get("/tokens", operation_id="list_tokens_deprecated", **_OLD, **_LIST)
def list_tokens(request: HttpRequest) -> dict[str, Any]:
    tokens = (
        ApiToken.objects.filter(user=account_of(request)).filter(Q(revoked_at__isnull=True)).order_by("id")
    )
    return {"tokens": [account_payloads.token_row(token) for token in tokens]}


@router.post(
    "/me/tokens",
    summary="Create an API token, read-only or to play, with an optional expiry (shown once)",
    **_CREATE,
)
@router.post("/tokens", operation_id="create_token_deprecated", **_OLD, **_CREATE)
def create_token(request: HttpRequest, payload: TokenIn) -> Status[dict[str, Any]]:
    if caller_of(request).via != "session":
        raise Forbidden("Create tokens from a logged-in browser.")
    token, raw = identity.issue_api_token(
        account_of(request), payload.name, payload.scope, payload.expires_at
    )
    return Status(201, {**account_payloads.token_row(token), "token": raw})


@router.delete("/me/tokens/{token_id}", summary="Revoke an API token", **_REVOKE)
@router.delete("/tokens/{token_id}", operation_id="revoke_token_deprecated", **_OLD, **_REVOKE)
def revoke_token(request: HttpRequest, token_id: int) -> dict[str, Any]:
    if not identity.revoke_api_token(account_of(request), token_id):
        raise NotFound("There is no such token.")
    return {"revoked": token_id}


# -- login sessions ------------------------------------------------------------------------


def _browser_account(request: HttpRequest) -> tuple[User, str | None]:
    """The account of a logged-in browser and its session's key: a program (token) manages none."""
    if caller_of(request).via != "session":
        raise Forbidden("Manage login sessions from a logged-in browser.")
    return account_of(request), request.session.session_key


@router.get(
    "/me/sessions",
    response={200: SessionsOut, **errors(400, 401, 403)},
    summary="Where the account is logged in: browser, address, last seen",
    tags=["me"],
)
def list_sessions(request: HttpRequest) -> dict[str, Any]:
    user, current = _browser_account(request)
    rows = account_services.live_sessions(user)
    return {"sessions": [account_payloads.session_row(row, current) for row in rows]}


@router.delete(
    "/me/sessions",
    response={200: EndedOut, **errors(400, 401, 403)},
    summary="Log out every other session (their sockets close at once)",
    tags=["me"],
)
def end_other_sessions(request: HttpRequest) -> dict[str, Any]:
    user, current = _browser_account(request)
    return {"ended": len(account_services.end_other_sessions(user, current))}


@router.delete(
    "/me/sessions/{session_id}",
    response={200: EndedOut, **errors(400, 401, 403, 404)},
    summary="Log out one other session (its sockets close at once)",
    tags=["me"],
)
def end_session(request: HttpRequest, session_id: int) -> dict[str, Any]:
    user, current = _browser_account(request)
    if not account_services.end_session(user, session_id, current):
        raise NotFound("There is no such session (your own ends by logging out).")
    return {"ended": 1}
