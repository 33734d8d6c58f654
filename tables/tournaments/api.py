"""Tournaments in the JSON API (mounted under /api by tables.api): list, create, read, join,
withdraw, cancel and add a robot. Every endpoint calls tables.tournaments.services; none writes
a model itself. A tournament is named by its invite token, as on its page."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.http import HttpRequest
from django.utils import timezone
from ninja import Router
from ninja.responses import Status

from tables.core.errors import BadRequest, NotFound
from tables.core.schemas import errors
from tables.play.api_caller import caller_of, player_of
from tables.tournaments import payloads, selectors, services
from tables.tournaments.models import Tournament
from tables.tournaments.schemas import RobotIn, TournamentIn, TournamentOut, TournamentsOut

router = Router(tags=["tournaments"])

WRITE_ERRORS = errors(400, 401, 403, 404, 409)


@router.get(
    "/tournaments",
    response={200: TournamentsOut, **errors(400, 401)},
    summary="Listed tournaments: registering, running or finished; by rule set, pace, rated, and joinable",
)
def list_tournaments(
    request: HttpRequest,
    status: str = "registering",
    ruleset: str | None = None,
    pace: str | None = None,
    rated: bool | None = None,
    can_join: bool = False,
) -> dict[str, Any]:
    if status not in ("registering", "running", "finished"):
        raise BadRequest("status must be registering, running or finished.", field="status")
    if pace not in (None, "", "slow", "live"):
        raise BadRequest("pace must be slow or live.", field="pace")
    filters = {
        "ruleset": ruleset or "",
        "pace": pace or "",
        "rated": "" if rated is None else str(rated).lower(),
    }
    rows = selectors.listed(status, filters)
    if can_join:
        rows = selectors.joinable(rows, caller_of(request).player, timezone.now())
    return {"tournaments": [payloads.tournament_summary(row) for row in rows]}


@router.post(
    "/tournaments", response={201: TournamentOut, **errors(400, 401, 403)}, summary="Create a tournament"
)
def create_tournament(request: HttpRequest, payload: TournamentIn) -> Status[dict[str, Any]]:
    settings = payload.dict()
    if settings["starts_at"] is not None and timezone.is_naive(settings["starts_at"]):
        settings["starts_at"] = settings["starts_at"].replace(tzinfo=dt.UTC)
    tournament = services.create_tournament(player_of(request), **settings)
    return Status(201, _detail(request, tournament))


@router.get(
    "/tournaments/{token}", response={200: TournamentOut, **errors(400, 401, 404)}, summary="A tournament"
)
def read_tournament(request: HttpRequest, token: str) -> dict[str, Any]:
    return _detail(request, _by_token(token))


@router.post("/tournaments/{token}/join", response={200: TournamentOut, **WRITE_ERRORS}, summary="Join")
def join_tournament(request: HttpRequest, token: str) -> dict[str, Any]:
    services.join(token, player_of(request))
    return _detail(request, _by_token(token))


@router.post(
    "/tournaments/{token}/withdraw",
    response={200: TournamentOut, **WRITE_ERRORS},
    summary="Withdraw: before the start the place is free again; during it the matches still on are forfeited",
)
def withdraw_from_tournament(request: HttpRequest, token: str) -> dict[str, Any]:
    services.withdraw(token, player_of(request))
    return _detail(request, _by_token(token))


@router.post(
    "/tournaments/{token}/cancel",
    response={200: TournamentOut, **WRITE_ERRORS},
    summary="Cancel before the start (the creator or staff)",
)
def cancel_tournament(request: HttpRequest, token: str) -> dict[str, Any]:
    services.cancel(token, player_of(request))
    return _detail(request, _by_token(token))


@router.post(
    "/tournaments/{token}/robots",
    response={200: TournamentOut, **WRITE_ERRORS},
    summary="Enter a robot (the creator, unrated events only)",
)
def add_robot(request: HttpRequest, token: str, payload: RobotIn) -> dict[str, Any]:
    services.add_robot(token, player_of(request), payload.level)
    return _detail(request, _by_token(token))


def _by_token(token: str) -> Tournament:
    found = Tournament.objects.filter(invite_token=token).select_related("creator", "winner").first()
    if found is None:
        raise NotFound("No such tournament.")
    return found


def _detail(request: HttpRequest, tournament: Tournament) -> dict[str, Any]:
    return payloads.tournament_detail(tournament, caller_of(request).player, timezone.now())
