"""Practice from your own mistakes in the JSON API (tables.practice.services): make the
positions of a reviewed deal of yours, list them, answer one."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from ninja import Router
from ninja.responses import Status

from tables.core.schemas import errors
from tables.play.api_caller import player_of
from tables.practice import services as practice
from tables.practice.schemas import AnswerIn, PracticeListOut, PracticeOut

router = Router(tags=["practice"])


@router.post(
    "/matches/{match_id}/deals/{number}/practice",
    response={201: PracticeListOut, **errors(400, 401, 403, 404, 409)},
    summary="Practice positions from the caller's mistakes and blunders in a reviewed deal of theirs",
)
def make_practice(request: HttpRequest, match_id: int, number: int) -> Status[dict[str, Any]]:
    positions = practice.practice_from_deal(match_id, number, player_of(request))
    return Status(201, {"positions": [practice.position_payload(one) for one in positions]})


@router.get(
    "/me/practice",
    response={200: PracticeListOut, **errors(400, 401)},
    summary="The caller's practice positions, those not yet answered first",
)
def my_practice(request: HttpRequest) -> dict[str, Any]:
    positions = practice.positions_of(player_of(request))
    return {"positions": [practice.position_payload(one) for one in positions]}


@router.post(
    "/me/practice/{position_id}/answer",
    response={200: PracticeOut, **errors(400, 401, 403, 404)},
    summary="Answer a practice position: LUNA's choice and its reason come back",
)
def answer_practice(request: HttpRequest, position_id: int, body: AnswerIn) -> dict[str, Any]:
    return practice.position_payload(practice.answer(position_id, player_of(request), body.action))
