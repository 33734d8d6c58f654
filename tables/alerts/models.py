"""Push subscriptions, the record of alerts sent (what keeps alerts from repeating) and presence.

Preferences live on the player (``Player.alert_prefs``, ``Player.time_zone``); see prefs.py.
"""

from __future__ import annotations

from django.db import models

from tables.accounts.models import Player
from tables.challenges.models import Challenge
from tables.play.models import Table


class PushSubscription(models.Model):
    """One browser's web-push endpoint; removed when the push service answers 404 or 410."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="push_subscriptions")
    endpoint = models.URLField(max_length=1000, unique=True)
    p256dh = models.CharField(max_length=200)  # the browser's public key (base64url)
    auth = models.CharField(max_length=100)  # the browser's auth secret (base64url)
    user_agent = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    last_success_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"push for {self.player_id}: {self.endpoint[:40]}"


class SentAlert(models.Model):
    """An alert that went out on one channel for one occasion (a turn, a chat message, a match).

    The unique key is the guarantee against repeats: a task that runs twice, or two workers
    that race, insert the same row and only the first sends."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=16)
    occasion = models.CharField(max_length=64)
    channel = models.CharField(max_length=8)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["player", "table", "kind", "occasion", "channel"], name="one_alert_per_occasion"
            )
        ]


class TablePresence(models.Model):
    """Is a player on a table's page (an open socket), is the page visible, when last seen."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="+")
    last_seen = models.DateTimeField()
    looked_at = models.DateTimeField(null=True, blank=True)  # last moment the page was visible
    online_until = models.DateTimeField(null=True, blank=True)  # a socket's lease, renewed by heartbeats
    visible_until = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["player", "table"], name="one_presence_per_table")]


class Activity(models.Model):
    """When a player was last anywhere on the site (any socket), and the last digest day."""

    player = models.OneToOneField(Player, on_delete=models.CASCADE, related_name="activity")
    last_seen = models.DateTimeField()
    digest_sent_on = models.DateField(null=True, blank=True)


class SentChallengeAlert(models.Model):
    """A challenge's alert that went out on one channel: as SentAlert, for the one event of a
    challenge that has no table yet (``event``: "received", "accepted", "declined"). For a
    challenge received, a row with ``channel`` "counted" or "silenced" records whether it fell
    within its player's hourly allowance of challenge alerts (tables.challenges.alerts)."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    challenge = models.ForeignKey(Challenge, on_delete=models.CASCADE, related_name="+")
    event = models.CharField(max_length=10)
    channel = models.CharField(max_length=8)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["player", "challenge", "event", "channel"], name="one_alert_per_challenge_event"
            )
        ]


class InboxItem(models.Model):
    """What an alert leaves behind: one line of a player's inbox (tables.alerts.inbox), written
    where the alert is decided, off the writer's path. ``(player, kind, occasion)`` is unique, so
    a task that runs again or an event alerted twice keeps one line. Kept INBOX_DAYS days."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=24)
    occasion = models.CharField(max_length=80)
    title = models.CharField(max_length=200)
    body = models.CharField(max_length=500, blank=True)
    path = models.CharField(max_length=300)  # the page it is about, on this site
    created_at = models.DateTimeField(auto_now_add=True)
    read_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["player", "kind", "occasion"], name="one_inbox_item_per_occasion")
        ]
        indexes = [
            models.Index(fields=["player", "-created_at"], name="inbox_newest"),
            models.Index(fields=["player", "read_at"], name="inbox_unread"),
        ]
