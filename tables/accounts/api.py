"""The caller's account in the JSON API: profile, vacation, API tokens, login sessions, deleting
the account and downloading its data (mounted by tables.api)."""

from __future__ import annotations

import time
from typing import Any

from allauth.account import app_settings as allauth_settings
from allauth.account.internal.flows.login import get_authentication_records
from allauth.core import ratelimit
from django.contrib.auth import logout
from django.contrib.auth.models import User
from django.db.models import Q
from django.http import HttpRequest
from ninja import Router
from ninja.responses import Status

from tables.accounts import export_links, identity
from tables.accounts import payloads as account_payloads
from tables.accounts import services as account_services
from tables.accounts.models import ApiToken
from tables.accounts.schemas import (
    AutomaticVacationIn,
    DataExportOut,
    DeleteAccountIn,
    DeletedOut,
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
from tables.core.errors import BadRequest, Forbidden, NotFound, RateLimited, ReauthenticationRequired
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


@router.post(
    "/me/bot",
    response={200: ProfileOut, **errors(400, 401, 403, 409)},
    summary="Declare the account a bot account, for good (only before its first game)",
    description=(
        "A bot account is a program playing through the API, as Lichess's BOT accounts: marked BOT "
        "wherever its name is shown, and refused every rated seat (403 `bot_account_unrated`): it "
        "plays unrated tables. Irreversible. 409 once the account has played a game, or when it is "
        "one already; 403 for a guest (docs/accounts.md)."
    ),
    tags=["me"],
)
def declare_bot_account(request: HttpRequest) -> dict[str, Any]:
    return account_payloads.profile(account_services.declare_bot_account(player_of(request)))


@router.put(
    "/me/vacation",
    response={200: ProfileOut, **TABLE_WRITE_ERRORS},
    summary="Be on vacation until the end of a day (accounts): slow clocks stop",
    tags=["me"],
)
def declare_vacation(request: HttpRequest, payload: VacationIn) -> dict[str, Any]:
    return account_payloads.profile(account_services.declare_vacation(player_of(request), payload.until))


@router.patch(
    "/me/vacation",
    response={200: ProfileOut, **TABLE_WRITE_ERRORS},
    summary="Automatic vacation on or off (accounts): a slow turn that would time out starts a day of vacation",
    description=(
        "With `automatic` true, when a turn of the account at a slow table (a turn clock of 12 hours "
        "or more) would time out and the year has a vacation day left, a vacation starts instead, from "
        "that moment to the end of the day in the account's time zone, counted as one it declares; "
        'never at a live clock. 403 for a guest (docs/live.md, "Automatic vacation").'
    ),
    tags=["me"],
)
def set_automatic_vacation(request: HttpRequest, payload: AutomaticVacationIn) -> dict[str, Any]:
    return account_payloads.profile(
        account_services.set_automatic_vacation(player_of(request), payload.automatic)
    )


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


# -- deleting the account ------------------------------------------------------------------


@router.delete(
    "/me",
    response={200: DeletedOut, **errors(400, 401, 403, 409, 429)},
    summary="Delete the account for good (a logged-in browser; the password or a recent login)",
    description=(
        "Running matches are resigned; finished ones stay, the seat shown as 'deleted player'; "
        "personal data is erased and every session logged out (docs/accounts.md). 403 "
        "`reauthentication_required` without the right password or a login in the last 5 minutes."
    ),
    tags=["me"],
)
def delete_account(request: HttpRequest, payload: DeleteAccountIn) -> dict[str, Any]:
    user, _ = _browser_account(request)
    if not payload.confirm:
        raise BadRequest("Send confirm: true to delete the account.", field="confirm")
    if payload.password is not None:
        if not ratelimit.consume(request, action="reauthenticate", user=user):
            raise RateLimited("Too many attempts: wait a minute.")
        if not user.check_password(payload.password):
            raise ReauthenticationRequired("That is not the account's password.", field="password")
    elif not _recently_authenticated(request, user):
        raise ReauthenticationRequired(
            "Send the account's password: the last login is more than 5 minutes old."
        )
    account_services.delete_account(user)
    logout(request)
    return {"deleted": True}


def _recently_authenticated(request: HttpRequest, user: User) -> bool:
    """A login or allauth reauthentication of this session within allauth's reauthentication
    window (5 minutes)."""
    records = get_authentication_records(request, user)
    latest = max((float(record.get("at", 0)) for record in records), default=0.0)
    return time.time() - latest < float(allauth_settings.REAUTHENTICATION_TIMEOUT)


# -- download my data ----------------------------------------------------------------------


@router.post(
    "/me/export",
    response={202: DataExportOut, **errors(400, 401, 403)},
    summary="Ask for an archive of the account's data (built in the background)",
    tags=["me"],
)
def request_data_export(request: HttpRequest) -> Status[dict[str, Any]]:
    user, _ = _browser_account(request)
    return Status(202, export_links.export_row(export_links.ask_for_export(identity.player_for_user(user))))


@router.get(
    "/me/export",
    response={200: DataExportOut, **errors(400, 401, 403)},
    summary="The account's data archive: being built, or its link (7 days)",
    tags=["me"],
)
def data_export(request: HttpRequest) -> dict[str, Any]:
    user, _ = _browser_account(request)
    return export_links.export_row(account_services.latest_export(identity.player_for_user(user)))
