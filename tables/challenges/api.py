"""Challenges and seeks in the JSON API (mounted under /api by tables.api): challenge an account,
post a seek, list them, and accept, decline or withdraw. Every endpoint calls
tables.challenges.services; none writes a model itself."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.utils import timezone
from ninja import Router
from ninja.responses import Status

from tables.accounts.models import Player
from tables.challenges import payloads as challenge_payloads
from tables.challenges import selectors as challenge_selectors
from tables.challenges import services as challenge_services
from tables.challenges.schemas import ChallengeIn, ChallengeOut, ChallengesOut, SeekIn, SeeksOut
from tables.core.errors import BadRequest, NotFound
from tables.core.schemas import errors
from tables.play.api_caller import caller_of, player_of, state_for
from tables.play.state_schema import TableStateOut

router = Router(tags=["challenges"])

ANSWER_ERRORS = errors(400, 401, 403, 404, 409)


@router.get(
    "/challenges", response={200: ChallengesOut, **errors(400, 401)}, summary="The caller's open challenges"
)
def list_challenges(request: HttpRequest) -> dict[str, Any]:
    received, sent = challenge_selectors.open_challenges(player_of(request))
    now = timezone.now()
    return {
        "received": [challenge_payloads.challenge_row(row, now) for row in received],
        "sent": [challenge_payloads.challenge_row(row, now) for row in sent],
    }


@router.post(
    "/challenges",
    response={201: ChallengeOut, **errors(400, 401, 403, 404, 409, 429)},
    summary="Challenge an account to a match at a table with these options",
)
def create_challenge(request: HttpRequest, payload: ChallengeIn) -> Status[dict[str, Any]]:
    challenger = player_of(request)
    opponent = opponent_of(payload.opponent_id, payload.opponent_name)
    options = payload.dict(exclude={"opponent_id", "opponent_name"})
    challenge = challenge_services.challenge_player(challenger, opponent, options)
    return Status(201, challenge_payloads.challenge_row(challenge, timezone.now()))


def opponent_of(player_id: int | None, name: str | None) -> Player:
    """The account a challenge names, by id or by a display name only one account has."""
    if player_id is not None:
        found = Player.objects.filter(pk=player_id, user__isnull=False, is_bot=False).first()
        if found is None:
            raise NotFound("There is no such player.")
        return found
    if not name or not name.strip():
        raise BadRequest("Name the player to challenge (opponent_id or opponent_name).", field="opponent")
    matches = [
        player
        for player in challenge_selectors.accounts_named(name.strip())
        if player.display_name.lower() == name.strip().lower()
    ]
    if not matches:
        raise NotFound(f"No player is called {name.strip()!r}.")
    if len(matches) > 1:
        raise BadRequest(
            f"Several players are called {name.strip()!r}: challenge one by id.", field="opponent"
        )
    return matches[0]


@router.post(
    "/challenges/{challenge_id}/accept",
    response={200: TableStateOut, **ANSWER_ERRORS},
    summary="Accept a challenge or take a seek: the match starts",
)
def accept_challenge(request: HttpRequest, challenge_id: int) -> dict[str, Any]:
    return state_for(request, challenge_services.accept(challenge_id, player_of(request)))


@router.post(
    "/challenges/{challenge_id}/decline",
    response={200: ChallengeOut, **ANSWER_ERRORS},
    summary="Decline a challenge",
)
def decline_challenge(request: HttpRequest, challenge_id: int) -> dict[str, Any]:
    challenge = challenge_services.decline(challenge_id, player_of(request))
    return challenge_payloads.challenge_row(challenge, timezone.now())


@router.post(
    "/challenges/{challenge_id}/withdraw",
    response={200: ChallengeOut, **ANSWER_ERRORS},
    summary="Withdraw your challenge or seek",
)
def withdraw_challenge(request: HttpRequest, challenge_id: int) -> dict[str, Any]:
    challenge = challenge_services.withdraw(challenge_id, player_of(request))
    return challenge_payloads.challenge_row(challenge, timezone.now())


@router.get(
    "/seeks",
    response={200: SeeksOut, **errors(400, 401)},
    summary="Open seeks, by rule set and pace (slow or live)",
)
def list_seeks(request: HttpRequest, ruleset: str | None = None, pace: str | None = None) -> dict[str, Any]:
    if pace not in (None, "", "slow", "live"):
        raise BadRequest("pace must be slow or live.", field="pace")
    now = timezone.now()
    return {
        "seeks": [
            challenge_payloads.challenge_row(row, now)
            for row in challenge_selectors.open_seeks(ruleset, pace, viewer=caller_of(request).player)
        ]
    }


@router.post(
    "/seeks", response={201: ChallengeOut, **errors(400, 401, 403, 409)}, summary="Post a seek in the lobby"
)
def create_seek(request: HttpRequest, payload: SeekIn) -> Status[dict[str, Any]]:
    options = payload.dict(exclude={"min_rating", "max_rating"})
    challenge = challenge_services.post_seek(
        player_of(request), options, payload.min_rating, payload.max_rating
    )
    return Status(201, challenge_payloads.challenge_row(challenge, timezone.now()))
