"""Web push with VAPID (pywebpush): one JSON notification to every browser a player subscribed.

The payload carries a ``tag`` per table, so the service worker replaces an older notification
of the same table with the newer one; the ``Topic`` header does the same for messages still
waiting at the push service. A subscription the push service calls gone (404, 410) is deleted.

An endpoint is accepted only on a known push service (``PUSH_SERVICE_HOSTS``) and only if its
host resolves to public addresses: the server posts to it, so it must never reach the
server's own network. A player keeps at most MAX_SUBSCRIPTIONS (the oldest goes), and an
endpoint stays with the player who subscribed it. Sending runs in a task of its own on the
``push`` queue (tables.play.tasks.send_push), never inside the work that follows a move or a clock.
"""

from __future__ import annotations

import ipaddress
import json
import logging
import socket
from typing import Any, cast
from urllib.parse import urlsplit

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone
from py_vapid import Vapid
from pywebpush import WebPushException, webpush

from tables.accounts.models import Player
from tables.alerts.models import PushSubscription
from tables.core.errors import BadRequest, Conflict

log = logging.getLogger(__name__)

TTL_SECONDS = 24 * 3600  # a notification older than a day is news no more
TIMEOUT_SECONDS = 3  # a push service answers in well under a second; a dead one costs this much
GONE = {404, 410}
MAX_SUBSCRIPTIONS = 5  # browsers per player; a new one beyond this replaces the oldest


class RefusedEndpoint(BadRequest):
    """An endpoint the server will not post to (unknown host, private address...)."""

    code = "invalid_input"


def configured() -> bool:
    return bool(settings.VAPID_PUBLIC_KEY and settings.VAPID_PRIVATE_KEY)


# -- which endpoints ------------------------------------------------------------------------


def resolve(host: str) -> list[str]:
    """The addresses ``host`` resolves to (the one DNS look-up of this module)."""
    return [str(info[4][0]) for info in socket.getaddrinfo(host, 443, proto=socket.IPPROTO_TCP)]


def known_service(host: str) -> bool:
    """Is ``host`` one of PUSH_SERVICE_HOSTS or a name under one of them."""
    host = host.lower().rstrip(".")
    suffixes = (suffix.lower().strip(".") for suffix in settings.PUSH_SERVICE_HOSTS)
    return any(suffix and (host == suffix or host.endswith("." + suffix)) for suffix in suffixes)


def public(address: str) -> bool:
    """A globally reachable address: not loopback, private, link-local, reserved, multicast."""
    ip = ipaddress.ip_address(address.split("%", 1)[0])  # an IPv6 scope (fe80::1%eth0) aside
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return ip.is_global and not (
        ip.is_private
        or ip.is_loopback
        or ip.is_link_local
        or ip.is_reserved
        or ip.is_multicast
        or ip.is_unspecified
    )


def check_endpoint(endpoint: str) -> None:
    """Raise RefusedEndpoint unless ``endpoint`` is https on a known push service whose host
    resolves, and only to public addresses."""
    try:
        parts = urlsplit(endpoint)
        port, host = parts.port, parts.hostname
    except ValueError:  # a malformed port or IPv6 host
        raise RefusedEndpoint(
            "endpoint: must be an https:// URL of a push service.", field="endpoint"
        ) from None
    if parts.scheme != "https" or not host or parts.username is not None or port not in (None, 443):
        raise RefusedEndpoint("endpoint: must be an https:// URL of a push service.", field="endpoint")
    if not known_service(host):
        raise RefusedEndpoint("endpoint: not a known browser push service.", field="endpoint")
    try:
        addresses = resolve(host)
    except (OSError, UnicodeError):
        addresses = []
    if not addresses:
        raise RefusedEndpoint("endpoint: its host does not resolve.", field="endpoint")
    if not all(_public_or_false(address) for address in addresses):
        raise RefusedEndpoint(
            "endpoint: its host resolves to a private, loopback or reserved address.", field="endpoint"
        )


def _public_or_false(address: str) -> bool:
    try:
        return public(address)
    except ValueError:
        return False


# -- subscriptions --------------------------------------------------------------------------


def subscribe(
    player: Player, endpoint: str, p256dh: str, auth: str, user_agent: str = ""
) -> PushSubscription:
    """Save a browser's subscription, or renew it (new keys) when it is the player's already.
    An endpoint another player subscribed is theirs: Conflict. Past MAX_SUBSCRIPTIONS the
    player's oldest subscriptions are dropped."""
    check_endpoint(endpoint)
    fields = {"p256dh": p256dh, "auth": auth, "user_agent": user_agent[:200]}
    with transaction.atomic():
        # one subscribe at a time per player (the row lock), so the cap holds under races
        list(Player.objects.select_for_update().filter(pk=player.pk).values_list("pk", flat=True))
        existing = PushSubscription.objects.select_for_update().filter(endpoint=endpoint).first()
        if existing is None:
            try:
                with transaction.atomic():
                    subscription = PushSubscription.objects.create(player=player, endpoint=endpoint, **fields)
            except IntegrityError:  # the same endpoint arrived a moment ago
                existing = PushSubscription.objects.select_for_update().get(endpoint=endpoint)
        if existing is not None:
            if existing.player_id != player.pk:
                raise Conflict("This push subscription belongs to another player.", field="endpoint")
            for name, value in fields.items():
                setattr(existing, name, value)
            existing.save(update_fields=list(fields))
            return existing
        newest = PushSubscription.objects.filter(player=player).order_by("-created_at", "-pk")
        keep = list(newest.values_list("pk", flat=True)[:MAX_SUBSCRIPTIONS])
        PushSubscription.objects.filter(player=player).exclude(pk__in=keep).delete()
    return subscription


def unsubscribe(player: Player, endpoint: str) -> bool:
    return PushSubscription.objects.filter(player=player, endpoint=endpoint).delete()[0] > 0


# -- sending --------------------------------------------------------------------------------


def send_to_player_id(player_id: int, payload: dict[str, Any], topic: str) -> int:
    """What the push task runs (tables.play.tasks.send_push)."""
    return send_to_player(Player(pk=player_id), payload, topic)


def send_to_player(player: Player, payload: dict[str, Any], topic: str) -> int:
    """Push ``payload`` to each of the player's subscriptions; returns how many accepted it.
    A subscription whose host is no longer on PUSH_SERVICE_HOSTS is not posted to."""
    if not configured():
        return 0
    delivered = 0
    for subscription in PushSubscription.objects.filter(player=player):
        host = urlsplit(subscription.endpoint).hostname or ""
        if not known_service(host):
            log.warning("push subscription %s is not on a known push service: skipped", subscription.pk)
            continue
        delivered += send(subscription, payload, topic)
    return delivered


def post(subscription: PushSubscription, payload: dict[str, Any], topic: str) -> None:
    """The HTTP request to the push service (raises WebPushException or a network error)."""
    webpush(
        subscription_info={
            "endpoint": subscription.endpoint,
            "keys": {"p256dh": subscription.p256dh, "auth": subscription.auth},
        },
        data=json.dumps(payload),
        vapid_private_key=Vapid.from_raw(cast(str, settings.VAPID_PRIVATE_KEY).encode()),  # configured()
        vapid_claims={"sub": settings.VAPID_SUBJECT},
        ttl=TTL_SECONDS,
        timeout=TIMEOUT_SECONDS,
        headers={"Topic": topic[:32], "Urgency": "high"},
    )


def send(subscription: PushSubscription, payload: dict[str, Any], topic: str) -> bool:
    try:
        post(subscription, payload, topic)
    except WebPushException as error:
        status = getattr(error.response, "status_code", None)
        if status in GONE:
            log.info("push subscription %s is gone (%s): removed", subscription.pk, status)
            subscription.delete()
        else:
            log.warning("push to subscription %s failed: %s", subscription.pk, error)
        return False
    except Exception:  # network trouble: the on-site alert and the email still stand
        log.exception("push to subscription %s failed", subscription.pk)
        return False
    PushSubscription.objects.filter(pk=subscription.pk).update(last_success_at=timezone.now())
    return True
