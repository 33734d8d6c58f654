"""Web-push endpoints of the JSON API (mounted under /api/me/push by tables.api)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import HttpRequest
from ninja import Router, Schema
from ninja.responses import Status
from pydantic import Field

from tables.accounts.models import Player
from tables.alerts import push
from tables.core.errors import NotAuthenticated, NotFound
from tables.core.schemas import errors

router = Router(tags=["alerts"])


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
