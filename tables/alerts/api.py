"""Web-push endpoints of the JSON API (mounted under /api/me/push by tables.api) and the inbox
(``inbox_router``, mounted under /api/me/inbox)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.conf import settings
from django.http import HttpRequest
from django.utils.translation import gettext
from ninja import Router, Schema
from ninja.responses import Status
from pydantic import Field

from tables.accounts.models import Player
from tables.alerts import inbox, push
from tables.core.errors import BadRequest, NotAuthenticated, NotFound
from tables.core.schemas import READ_ERRORS, errors
from tables.play.api_caller import player_of

router = Router(tags=["alerts"])
inbox_router = Router(tags=["inbox"])


class KeysIn(Schema):
    p256dh: str = Field(..., max_length=200)
    auth: str = Field(..., max_length=100)


class SubscriptionIn(Schema):
    endpoint: str = Field(..., max_length=1000, pattern=r"^https://")
    keys: KeysIn


class EndpointIn(Schema):
    endpoint: str = Field(..., max_length=1000)


class PublicKeyOut(Schema):
    public_key: str | None = Field(description="null: push is off on this server")


class SubscribedOut(Schema):
    endpoint: str


class UnsubscribedOut(Schema):
    endpoint: str
    removed: bool


def _player(request: HttpRequest) -> Player:
    player: Player | None = getattr(getattr(request, "auth", None), "player", None)
    if player is None:
        raise NotAuthenticated("Type a name (join or open a table) or log in first.")
    return player


@router.get(
    "/key",
    response={200: PublicKeyOut, **errors(400, 401)},
    summary="The VAPID public key for PushManager.subscribe (null: push is off)",
)
def public_key(request: HttpRequest) -> dict[str, Any]:
    return {"public_key": settings.VAPID_PUBLIC_KEY or None}


@router.post(
    "/subscriptions",
    response={201: SubscribedOut, **errors(400, 401, 403, 409)},
    summary="Save this browser's push subscription",
    description=(
        "Only an https endpoint of a known push service (PUSH_SERVICE_HOSTS) that resolves to public"
        " addresses (else 400, field endpoint). Posting it again renews it; an endpoint another"
        " player subscribed answers 409. A player keeps five subscriptions at most: the oldest goes."
    ),
)
def subscribe(request: HttpRequest, payload: SubscriptionIn) -> Status[dict[str, Any]]:
    agent = request.headers.get("User-Agent", "")
    push.subscribe(_player(request), payload.endpoint, payload.keys.p256dh, payload.keys.auth, agent)
    return Status(201, {"endpoint": payload.endpoint})


@router.post(
    "/subscriptions/delete",
    response={200: UnsubscribedOut, **errors(400, 401, 403, 404)},
    summary="Forget this browser's push subscription",
)
def unsubscribe(request: HttpRequest, payload: EndpointIn) -> dict[str, Any]:
    if not push.unsubscribe(_player(request), payload.endpoint):
        raise NotFound("There is no such subscription.")
    return {"endpoint": payload.endpoint, "removed": True}


class InboxLineOut(Schema):
    id: int
    kind: str = Field(
        description="challenge, challenge_accepted, challenge_declined, seek_taken, rematch_offer,"
        " match_over or reminder (your turn, most of a slow turn's time gone)"
    )
    title: str = Field(description="in the player's language when it was written")
    body: str
    url: str = Field(description="the page it is about on this site: a table or the challenges")
    created_at: dt.datetime
    read: bool


class InboxOut(Schema):
    lines: list[InboxLineOut] = Field(description=f"newest first, {inbox.PAGE} at most")
    unread: int
    before: int | None = Field(description="pass as ?before= for the next page; null: no more")
    kept_days: int


class ReadIn(Schema):
    ids: list[int] | None = Field(None, max_length=200, description="the lines to mark read")
    all: bool = Field(False, description="true: mark every line read")


class ReadOut(Schema):
    marked: int
    unread: int


@inbox_router.get(
    "",
    response={200: InboxOut, **READ_ERRORS},
    summary="The caller's inbox: challenges, rematch offers, results, slow turns",
    description=f"Lines are kept {inbox.INBOX_DAYS} days; each occasion leaves one line.",
)
def inbox_lines(request: HttpRequest, before: int | None = None) -> dict[str, Any]:
    player = player_of(request)
    rows = inbox.lines(player, before)
    return {
        "lines": [
            {
                "id": row.pk,
                "kind": row.kind,
                "title": row.title,
                "body": row.body,
                "url": row.path,
                "created_at": row.created_at,
                "read": row.read_at is not None,
            }
            for row in rows
        ],
        "unread": inbox.unread(player),
        "before": rows[-1].pk if len(rows) == inbox.PAGE else None,
        "kept_days": inbox.INBOX_DAYS,
    }


@inbox_router.post(
    "/read",
    response={200: ReadOut, **errors(400, 401, 403)},
    summary="Mark lines of the caller's inbox read: some (ids) or all",
)
def inbox_read(request: HttpRequest, payload: ReadIn) -> dict[str, Any]:
    player = player_of(request)
    if not payload.all and not payload.ids:
        raise BadRequest(gettext("Name the lines to mark read, or ask for all of them."))
    marked = inbox.mark_read(player, None if payload.all else payload.ids)
    return {"marked": marked, "unread": inbox.unread(player)}
