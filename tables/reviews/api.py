"""LUNA's deal review in the JSON API (tables.reviews.services), reusing tables.api's auth:
ask for it, then read its status and result. Two addresses for the same reviews: the table's
(/api/tables/{token}/matches/{n}/deals/{m}/review) and the archive's
(/api/matches/{match_id}/deals/{number}/review, with the archive's 404 for a match the caller
may not see). Reading an existing review needs no identity where the deal may be seen (a
public table's finished match); asking for one takes an account, or a seat at the table (401
anonymous, 403 a guest elsewhere), and is metered: 429 with Retry-After past a limit or when
the reviews' backlog is full (tables.reviews.services). The accuracy figures
(tables.reviews.selectors): a match's per seat (/api/matches/{match_id}/accuracy, the archive's rules) and
an account's with the robots' (/api/players/{player_id}/accuracy, as public as its page)."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from allauth.core.internal.ratelimit import get_ip
from django.http import HttpRequest
from ninja import Router
from ninja.responses import Status

from tables.archive import selectors as archive
from tables.core.errors import NotFound
from tables.core.schemas import errors
from tables.play.api_caller import caller_of, is_staff, player_of
from tables.ratings import selectors as player_stats
from tables.reviews import selectors as accuracy
from tables.reviews import services as reviews
from tables.reviews.schemas import DealReviewOut, MatchAccuracyOut, PlayerAccuracyOut

router = Router(tags=["review"])  # mounted under /tables
archive_router = Router(tags=["review"])  # mounted at the API's root, beside the archive

REVIEW_PATH = "/{token}/matches/{match_number}/deals/{deal_number}/review"
ARCHIVE_REVIEW_PATH = "/matches/{match_id}/deals/{number}/review"


def _ask(request: HttpRequest, where: dict[str, Any]) -> Status[dict[str, Any]]:
    player, staff = player_of(request), is_staff(request)
    reviews.ask_for_review(where, player, staff, address=get_ip(request))
    return Status(202, reviews.review_status(where, player, staff))


def _archived(request: HttpRequest, match_id: int, number: int) -> dict[str, Any]:
    """The deal, named for the services, once the archive lets the caller see its match."""
    match = archive.viewable_match(match_id, caller_of(request).player, is_staff(request))
    return reviews.deal_by_match(match.pk, number)


@router.get(
    REVIEW_PATH,
    response={200: DealReviewOut, **errors(400, 401, 403, 404, 409)},
    summary="LUNA's review of a finished deal: its status while computed, then the result",
)
def deal_review(request: HttpRequest, token: str, match_number: int, deal_number: int) -> dict[str, Any]:
    where = reviews.deal_by_token(token, match_number, deal_number)
    return reviews.review_status(where, caller_of(request).player, is_staff(request))


@router.post(
    REVIEW_PATH,
    response={202: DealReviewOut, **errors(400, 401, 403, 404, 409, 429)},
    summary="Ask for LUNA's review of a finished deal (once per deal: asking again changes nothing)",
)
def request_deal_review(
    request: HttpRequest, token: str, match_number: int, deal_number: int
) -> Status[dict[str, Any]]:
    return _ask(request, reviews.deal_by_token(token, match_number, deal_number))


@archive_router.get(
    ARCHIVE_REVIEW_PATH,
    response={200: DealReviewOut, **errors(400, 401, 403, 404, 409)},
    summary="LUNA's review of a deal of an archived match (anyone at a public table, no identity needed)",
)
def archived_deal_review(request: HttpRequest, match_id: int, number: int) -> dict[str, Any]:
    where = _archived(request, match_id, number)
    return reviews.review_status(where, caller_of(request).player, is_staff(request))


@archive_router.post(
    ARCHIVE_REVIEW_PATH,
    response={202: DealReviewOut, **errors(400, 401, 403, 404, 409, 429)},
    summary="Ask for LUNA's review of a deal of an archived match (an identity needed)",
)
def request_archived_deal_review(request: HttpRequest, match_id: int, number: int) -> Status[dict[str, Any]]:
    player_of(request)  # 401 before anything is looked up
    return _ask(request, _archived(request, match_id, number))


@archive_router.get(
    "/matches/{match_id}/accuracy",
    response={200: MatchAccuracyOut, **errors(400, 401, 404)},
    summary="Each seat's accuracy over a finished match's reviewed deals (the archive's rules)",
)
def match_accuracy(request: HttpRequest, match_id: int) -> dict[str, Any]:
    match = archive.viewable_match(match_id, caller_of(request).player, is_staff(request))
    return {"seats": [asdict(figure) for figure in accuracy.match_accuracy(match)]}


@archive_router.get(
    "/players/{player_id}/accuracy",
    response={200: PlayerAccuracyOut, **errors(400, 401, 404)},
    summary="An account's accuracy over its last rated reviewed matches, and the robots' for comparison",
)
def player_accuracy(request: HttpRequest, player_id: int) -> dict[str, Any]:
    shown = player_stats.account_player(player_id)
    if shown is None:
        raise NotFound("There is no such player.")
    robots = [{"name": name, **asdict(figure)} for name, figure in accuracy.robots_accuracy()]
    return {"player": asdict(accuracy.player_accuracy(shown)), "robots": robots}
