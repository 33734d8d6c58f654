"""LUNA's deal review in the JSON API (mounted under /api/tables by tables.api, whose auth it
reuses): ask for it, then read its status and result (tables.services.reviews)."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from ninja import Router
from ninja.responses import Status

from . import scheduling
from .api_caller import caller_of, is_staff
from .api_schemas import DealReviewOut, errors
from .services import reviews

router = Router(tags=["review"])

REVIEW_PATH = "/{token}/matches/{match_number}/deals/{deal_number}/review"


@router.get(
    REVIEW_PATH,
    response={200: DealReviewOut, **errors(400, 401, 403, 404, 409)},
    summary="LUNA's review of a finished deal: its status while computed, then the result",
)
def deal_review(request: HttpRequest, token: str, match_number: int, deal_number: int) -> dict[str, Any]:
    player = caller_of(request).player
    return reviews.review_status(token, match_number, deal_number, player, is_staff(request))


@router.post(
    REVIEW_PATH,
    response={202: DealReviewOut, **errors(400, 401, 403, 404, 409)},
    summary="Ask for LUNA's review of a finished deal (once per deal: asking again changes nothing)",
)
def request_deal_review(
    request: HttpRequest, token: str, match_number: int, deal_number: int
) -> Status[dict[str, Any]]:
    player, staff = caller_of(request).player, is_staff(request)
    _, to_run = reviews.request_review(token, match_number, deal_number, player, staff)
    for review_id in to_run:
        scheduling.schedule_review(review_id)  # the request's transaction has committed
    return Status(202, reviews.review_status(token, match_number, deal_number, player, staff))
