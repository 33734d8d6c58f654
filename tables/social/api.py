"""Follow, block, presence, head-to-head, reports and private match notes in the JSON API (mounted under /api by tables.api).
Every endpoint calls tables.social.services to write; none writes a model itself."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.utils import timezone
from django.utils.translation import gettext
from ninja import Router
from ninja.responses import Status

from tables.accounts.models import Player
from tables.core.errors import Forbidden, NotFound
from tables.core.schemas import READ_ERRORS, errors
from tables.play import selectors as play_selectors
from tables.play.api_caller import player_of
from tables.play.models import Table
from tables.social import payloads, selectors, services
from tables.social.schemas import (
    BlockedOut,
    BlocksOut,
    FollowedOut,
    FollowingOut,
    NoteIn,
    NoteOut,
    PlayerSocialOut,
    PresenceSettingIn,
    PresenceSettingOut,
    RelationOut,
    ReportIn,
    ReportOut,
)

router = Router(tags=["social"])

CHANGE_ERRORS = errors(400, 401, 403, 404, 409)


def _account(player_id: int) -> Player:
    found = selectors.account(player_id)
    if found is None:
        raise NotFound(gettext("There is no such player."))
    return found


@router.get(
    "/me/following", response={200: FollowingOut, **READ_ERRORS}, summary="The accounts the caller follows"
)
def following(request: HttpRequest) -> dict[str, Any]:
    rows = selectors.following_of(player_of(request))
    now = timezone.now()
    seen = selectors.presence_of((row.followed_id for row in rows), now)
    return {
        "following": [payloads.following_row(row, seen.get(row.followed_id), now) for row in rows],
        "limit": services.MAX_FOLLOWED,
    }


@router.post(
    "/players/{player_id}/follow",
    response={201: FollowedOut, **CHANGE_ERRORS},
    summary="Follow an account (one way: it is not asked)",
)
def follow(request: HttpRequest, player_id: int) -> Status[dict[str, Any]]:
    row = services.follow(player_of(request), _account(player_id))
    now = timezone.now()
    seen = selectors.presence_of([row.followed_id], now)
    return Status(201, payloads.following_row(row, seen.get(row.followed_id), now))


@router.delete(
    "/players/{player_id}/follow",
    response={200: RelationOut, **CHANGE_ERRORS},
    summary="Stop following an account",
)
def unfollow(request: HttpRequest, player_id: int) -> dict[str, Any]:
    caller, other = player_of(request), _account(player_id)
    services.unfollow(caller, other)
    return _relation(caller, other)


def _relation(caller: Player, other: Player) -> dict[str, Any]:
    return {
        "id": other.pk,
        "name": other.display_name,
        "following": selectors.follows(caller, other),
        "blocked": selectors.blocks(caller, other),
    }


@router.get("/me/blocks", response={200: BlocksOut, **READ_ERRORS}, summary="The accounts the caller blocks")
def blocked(request: HttpRequest) -> dict[str, Any]:
    return {"blocked": [payloads.block_row(row) for row in selectors.blocks_of(player_of(request))]}


@router.post(
    "/players/{player_id}/block",
    response={201: BlockedOut, **CHANGE_ERRORS},
    summary="Block an account: no challenge, seek, table or follow between you, its chat hidden from you",
)
def block(request: HttpRequest, player_id: int) -> Status[dict[str, Any]]:
    return Status(201, payloads.block_row(services.block(player_of(request), _account(player_id))))


@router.delete(
    "/players/{player_id}/block", response={200: RelationOut, **CHANGE_ERRORS}, summary="Unblock an account"
)
def unblock(request: HttpRequest, player_id: int) -> dict[str, Any]:
    caller, other = player_of(request), _account(player_id)
    services.unblock(caller, other)
    return _relation(caller, other)


@router.get(
    "/players/{player_id}/social",
    response={200: PlayerSocialOut, **errors(400, 401, 404)},
    summary="An account's presence, and whether the caller follows or blocks it, and their record",
)
def player_social(request: HttpRequest, player_id: int) -> dict[str, Any]:
    viewer, shown = player_of(request), _account(player_id)
    now = timezone.now()
    row = payloads.player_row(shown, selectors.presence_of([shown.pk], now).get(shown.pk), now)
    record = None
    if viewer.pk != shown.pk:
        record = payloads.head_to_head(selectors.head_to_head(viewer, shown), shown)
    return row | {
        "following": selectors.follows(viewer, shown),
        "blocked": selectors.blocks(viewer, shown),
        "head_to_head": record,
    }


@router.put(
    "/me/presence",
    response={200: PresenceSettingOut, **errors(400, 401, 403)},
    summary='Hide (or show) the caller\'s "online now" and "last seen"',
)
def presence_setting(request: HttpRequest, payload: PresenceSettingIn) -> dict[str, Any]:
    player = player_of(request)
    services.hide_presence(player, payload.hide_presence)
    return {"hide_presence": selectors.hides_presence(player)}


@router.post(
    "/players/{player_id}/report",
    response={201: ReportOut, **errors(400, 401, 403, 404, 409, 413, 429)},
    summary="Report an account (or one of its chat messages, or one of its matches) to staff",
)
def report(request: HttpRequest, player_id: int, payload: ReportIn) -> Status[dict[str, Any]]:
    row = services.report(
        player_of(request),
        _account(player_id),
        payload.reason,
        payload.text,
        payload.chat_message_id,
        payload.match_id,
    )
    return Status(
        201,
        {"id": row.pk, "reason": row.reason, "status": row.status, "created_at": row.created_at.isoformat()},
    )


def _note_out(caller: Player, table: Table) -> dict[str, Any]:
    match_id = table.current_deal.match_id if table.current_deal else None
    note = selectors.note_of(caller, match_id)
    return {
        "match_id": match_id,
        "text": note.text if note else "",
        "updated_at": note.updated_at.isoformat() if note else None,
        "max_chars": services.NOTE_MAX_CHARS,
    }


@router.get(
    "/tables/{token}/note",
    response={200: NoteOut, **errors(400, 401, 403, 404)},
    summary="The caller's private notes on the table's current match",
    description="Only a player seated at the table; nobody else ever reads them (403).",
)
def table_note(request: HttpRequest, token: str) -> dict[str, Any]:
    caller, table = player_of(request), play_selectors.get_table(token)
    if table.seat_of(caller) is None:
        raise Forbidden(gettext("Only the players of this table keep notes here."))
    return _note_out(caller, table)


@router.put(
    "/tables/{token}/note",
    response={200: NoteOut, **errors(400, 401, 403, 404, 409, 413)},
    summary="Save the caller's private notes on the table's current match (the whole text)",
    description="409 before a match has begun; 413 over 4000 characters.",
)
def save_table_note(request: HttpRequest, token: str, payload: NoteIn) -> dict[str, Any]:
    caller, table = player_of(request), play_selectors.get_table(token)
    services.save_note(caller, table, payload.text)
    return _note_out(caller, table)
