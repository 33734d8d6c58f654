"""Web push with VAPID (pywebpush): one JSON notification to every browser a player subscribed.

The payload carries a ``tag`` per table, so the service worker replaces an older notification
of the same table with the newer one; the ``Topic`` header does the same for messages still
waiting at the push service. A subscription the push service calls gone (404, 410) is deleted.
"""

from __future__ import annotations

import json
import logging
from typing import Any, cast

from django.conf import settings
from django.utils import timezone
from py_vapid import Vapid
from pywebpush import WebPushException, webpush

from tables.models import Player

from .models import PushSubscription

log = logging.getLogger(__name__)

TTL_SECONDS = 24 * 3600  # a notification older than a day is news no more
TIMEOUT_SECONDS = 10
GONE = {404, 410}


def configured() -> bool:
    return bool(settings.VAPID_PUBLIC_KEY and settings.VAPID_PRIVATE_KEY)


def send_to_player(player: Player, payload: dict[str, Any], topic: str) -> int:
    """Push ``payload`` to each of the player's subscriptions; returns how many accepted it."""
    if not configured():
        return 0
    delivered = 0
    for subscription in PushSubscription.objects.filter(player=player):
        delivered += send(subscription, payload, topic)
    return delivered


def send(subscription: PushSubscription, payload: dict[str, Any], topic: str) -> bool:
    try:
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


def subscribe(
    player: Player, endpoint: str, p256dh: str, auth: str, user_agent: str = ""
) -> PushSubscription:
    """Save (or move to this player) a browser's subscription."""
    subscription, _ = PushSubscription.objects.update_or_create(
        endpoint=endpoint,
        defaults={"player": player, "p256dh": p256dh, "auth": auth, "user_agent": user_agent[:200]},
    )
    return subscription


def unsubscribe(player: Player, endpoint: str) -> bool:
    return PushSubscription.objects.filter(player=player, endpoint=endpoint).delete()[0] > 0
