"""Alerts of challenges: the challenged player hears of a challenge, the challenger of its answer,
and a seeker that their seek was taken, on the channels chosen for the kind ``challenge``.

As the table alerts (notify.py): each (player, challenge, event, channel) is claimed in the
database before it is sent, so it goes out at most once; push and email wait for the end of
quiet hours. A challenge has no table yet, so there is no "looking at the table" to wait for.

So that challenges cannot flood anyone (docs/reliability.md): a player hears of at most
ALERTS_PER_HOUR challenges received in an hour (more still show on the challenges page, with
no alert), and gets at most one email a day of challenges from the same challenger, unless
they asked for every one (prefs ``every_challenge_email``).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from tables.accounts.models import Player
from tables.alerts import emails, prefs, push
from tables.alerts.models import SentChallengeAlert
from tables.background import registry, scheduling
from tables.challenges import services as challenge_services
from tables.challenges import texts as challenge_texts
from tables.challenges.models import Challenge
from tables.core.announcements import ChallengeChange
from tables.live import events

SWEEP_AFTER_SECONDS = 60  # a challenge still unannounced this long lost its task: the sweep sends it
EMAIL_GAP = dt.timedelta(days=1)  # one challenge email per challenger in this long, by default


def on_challenge_change(sender: Any, change: ChallengeChange, **kwargs: Any) -> None:
    """Receiver of tables.core.announcements.challenge_changed: the alert is sent off the request's path."""
    if change.event in challenge_texts.EVENTS:
        scheduling.run_task(registry.ALERT_CHALLENGE, change.challenge_id, change.event)


def deliver(
    challenge_id: int, event: str, now: dt.datetime | None = None, *, swept: bool = False
) -> set[str]:
    """Send the alert of ``event`` on the channels its player chose; returns those it used.
    In quiet hours push and email are put off to their end (the sweep only looks again)."""
    now = now or timezone.now()
    challenge = (
        Challenge.objects.select_related("challenger", "challenged", "table").filter(pk=challenge_id).first()
    )
    if challenge is None or event not in challenge_texts.EVENTS:
        return set()
    if event == "received" and not challenge.is_open(now):
        return set()  # answered, withdrawn or lapsed: no longer news
    text_kind, player, other = challenge_texts.addressed(challenge, event)
    if player is None or other is None:
        return set()
    if event == "received" and not _admitted(player, challenge, now):
        return set()  # past the hourly allowance: the challenges page shows it, quietly
    message = _message(challenge, text_kind, player, other)
    chosen = prefs.of(player)
    sent: set[str] = set()
    if chosen.wants("challenge", "site") and _claim(player, challenge, event, "site"):
        events.publish_to_player(player.pk, message)
        sent.add("site")
    outside = [channel for channel in ("push", "email") if chosen.wants("challenge", channel)]
    if "push" in outside and not push.configured():
        outside.remove("push")
    if "email" in outside and (
        emails.address_of(player) is None
        or (
            event == "received"
            and not chosen.every_challenge_email
            and _emailed_lately(player, challenge, now)
        )
    ):
        outside.remove("email")
    if not outside:
        return sent
    quiet_end = chosen.quiet_until(now)
    if quiet_end is not None:
        if not swept:
            scheduling.run_task(registry.ALERT_CHALLENGE, challenge.pk, event, eta=quiet_end)
        return sent
    if "push" in outside and _claim(player, challenge, event, "push"):
        scheduling.send_push(player.pk, message, message["tag"])
        sent.add("push")
    if "email" in outside and _claim(player, challenge, event, "email"):
        emails.send_alert_email(player, "challenge", message["title"], message["body"], message["url"])
        sent.add("email")
    return sent


def _message(challenge: Challenge, text_kind: str, player: Player, other: Player) -> dict[str, Any]:
    title, body = challenge_texts.title_and_body(challenge, text_kind, player, other)
    return {
        "type": "alert",
        "kind": "challenge",
        "title": title,
        "body": body,
        "url": settings.SITE_URL + challenge_texts.path_of(challenge),
        "tag": f"challenge-{challenge.pk}",
    }


def _admitted(player: Player, challenge: Challenge, now: dt.datetime) -> bool:
    """The verdict its writer recorded (challenge_services.admit_challenge), or decided now
    under the player's row lock for a challenge that has none."""
    with transaction.atomic():
        Player.objects.select_for_update().filter(pk=player.pk).first()
        return challenge_services.admit_challenge(player, challenge, now)


def _emailed_lately(player: Player, challenge: Challenge, now: dt.datetime) -> bool:
    """Was the player emailed of a challenge from the same challenger within EMAIL_GAP?"""
    return SentChallengeAlert.objects.filter(
        player=player,
        event="received",
        channel="email",
        challenge__challenger_id=challenge.challenger_id,
        created_at__gt=now - EMAIL_GAP,
    ).exists()


def _claim(player: Player, challenge: Challenge, event: str, channel: str) -> bool:
    try:
        with transaction.atomic():
            SentChallengeAlert.objects.create(
                player=player, challenge=challenge, event=event, channel=channel
            )
    except IntegrityError:
        return False
    return True


def sweep_unannounced(now: dt.datetime | None = None) -> int:
    """The guarantee behind the task: open challenges no alert went out for yet."""
    now = now or timezone.now()
    rows = Challenge.objects.filter(
        challenged__isnull=False,
        status=Challenge.Status.OPEN,
        expires_at__gt=now,
        created_at__lte=now - dt.timedelta(seconds=SWEEP_AFTER_SECONDS),
    ).exclude(  # alerted already, or silent past the allowance (counted alone: not yet sent)
        pk__in=SentChallengeAlert.objects.filter(event="received")
        .exclude(channel=challenge_services.COUNTED)
        .values("challenge")
    )
    return sum(1 for pk in rows.values_list("pk", flat=True) if deliver(pk, "received", now, swept=True))
