"""Who calls the JSON API (tables.api) and what the caller may do: an API token's account, or
the browser's session or guest cookie; the caller's view of a table; who may export a deal."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.http import HttpRequest
from ninja.security import APIKeyCookie, HttpBearer

from tables.accounts import identity
from tables.accounts.models import Player
from tables.core.errors import Forbidden, MissingScope, NotAuthenticated, NotFound
from tables.play import payloads, selectors, services
from tables.play.models import Deal, Table


class Caller:
    """Who is calling; ``player`` is None for a visitor who has not typed a name yet."""

    def __init__(self, player: Player | None, via: str):
        self.player = player
        self.via = via


_READS = ("GET", "HEAD", "OPTIONS")


class BearerToken(HttpBearer):
    """``Authorization: Bearer gm_...``: a program acting as an account. A token of the "read"
    scope may only read (GET); anything else answers 403 ``missing_scope``."""

    def authenticate(self, request: HttpRequest, token: str) -> Caller:
        check = identity.check_api_token(token)
        if check.player is None:
            raise NotAuthenticated(check.refusal)  # unknown, revoked or expired
        if request.method not in _READS and not check.plays:
            raise MissingScope(identity.READ_ONLY_REFUSAL)
        return Caller(check.player, "token")


class BrowserSession(APIKeyCookie):
    """The browser: an account's session or a guest's cookie; unsafe methods need the CSRF token."""

    param_name = "sessionid"

    def authenticate(self, request: HttpRequest, key: str | None) -> Caller:
        return Caller(identity.player_for_request(request), "session")


def caller_of(request: HttpRequest) -> Caller:
    caller = getattr(request, "auth", None)
    return caller if isinstance(caller, Caller) else Caller(None, "none")


def player_of(request: HttpRequest) -> Player:
    player = caller_of(request).player
    if player is None:
        raise NotAuthenticated("Type a name (join or open a table) or log in first.")
    return player


def player_or_guest(request: HttpRequest, name: str | None) -> Player:
    """The caller, or a new guest named ``name`` for a browser that has no identity yet."""
    caller = caller_of(request)
    if caller.player is not None:
        return caller.player
    if caller.via != "session":
        raise NotAuthenticated("Log in, or send an API token.")
    caller.player = identity.become_guest(request, name)
    return caller.player


def account_of(request: HttpRequest) -> User:
    player = player_of(request)
    if player.user is None:
        raise Forbidden("API tokens belong to accounts: sign up first.")
    return player.user


def state_for(request: HttpRequest, outcome_or_table: services.Outcome | Table | str) -> dict[str, Any]:
    table = outcome_or_table.table if isinstance(outcome_or_table, services.Outcome) else outcome_or_table
    return payloads.table_state(selectors.get_table(table), caller_of(request).player)


def is_staff(request: HttpRequest) -> bool:
    player = caller_of(request).player
    return bool(player and player.user is not None and player.user.is_staff)


def require_player_or_staff(request: HttpRequest, table: Table) -> None:
    if table.seat_of(caller_of(request).player) is None and not is_staff(request):
        raise Forbidden("Only the table's players and staff export its deals.")


def finished_deal(request: HttpRequest, token: str, match_number: int, deal_number: int) -> Deal:
    deal = (
        Deal.objects.select_related("match__table")
        .filter(match__table__invite_token=token, match__number=match_number, number=deal_number)
        .first()
    )
    if deal is None:
        raise NotFound("There is no such deal.")
    require_player_or_staff(request, deal.match.table)
    if deal.status != Deal.Status.OVER and not is_staff(request):
        raise Forbidden("A deal is exported once it is over.")
    return deal
