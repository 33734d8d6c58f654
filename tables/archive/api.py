"""The archive in the JSON API: a finished match, a deal's replay and the caller's finished
matches. The rules of who may see what are tables.archive.selectors's (a refusal is a 404, as on the
pages); the answers are tables.archive.replays' dicts, declared in tables.play.schemas."""

from __future__ import annotations

from typing import Any

from django.core.paginator import Paginator
from django.http import HttpRequest
from ninja import Query, Router, Schema
from pydantic import Field

from tables.archive import replays
from tables.archive import selectors as archive
from tables.archive.schemas import ArchiveListOut, DealReplayOut, MatchArchiveOut
from tables.core.schemas import errors
from tables.play.api_caller import caller_of, is_staff, player_of

router = Router(tags=["archive"])

PAGE_SIZE = 20


class PageIn(Schema):
    page: int = Field(1, ge=1, description="1 for the latest matches")


@router.get(
    "/matches/{match_id}",
    response={200: MatchArchiveOut, **errors(400, 401, 404)},
    summary="A finished match and its deals (its players; anyone at a public table; staff)",
)
def match_archive(request: HttpRequest, match_id: int) -> dict[str, Any]:
    staff = is_staff(request)
    match = archive.viewable_match(match_id, caller_of(request).player, staff)
    deals = archive.deals_of(match)
    return replays.match_archive(match, deals, [archive.is_replayable(deal, staff) for deal in deals])


@router.get(
    "/matches/{match_id}/deals/{number}/replay",
    response={200: DealReplayOut, **errors(400, 401, 404)},
    summary="A played-out deal of a finished match, step by step",
)
def deal_replay(request: HttpRequest, match_id: int, number: int) -> dict[str, Any]:
    staff = is_staff(request)
    match = archive.viewable_match(match_id, caller_of(request).player, staff)
    deal = archive.replayable_deal(match, number, staff)
    return replays.deal_replay(match, deal, archive.actions_of(deal))


@router.get(
    "/me/archive",
    response={200: ArchiveListOut, **errors(400, 401)},
    summary="The caller's finished matches, the latest first, 20 a page",
)
def my_archive(request: HttpRequest, query: Query[PageIn]) -> dict[str, Any]:
    paginator = Paginator(archive.finished_matches_of(player_of(request)), PAGE_SIZE)
    page = paginator.get_page(query.page)
    return {
        "matches": [replays.match_head(match) for match in page.object_list],
        "page": page.number,
        "pages": paginator.num_pages,
    }
