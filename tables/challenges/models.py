"""A challenge to one account, or a seek to the lobby: a match offered with its table's options."""

from __future__ import annotations

import datetime as dt

from django.db import models
from django.db.models import Q

from tables.accounts.models import Player
from tables.play.models import Table


class Challenge(models.Model):
    """An offer to play: to one named account (a challenge) or to anyone in the lobby (a seek).

    It holds the table's options until someone accepts; accepting opens the table with both
    players seated and the match started. An offer lapses at ``expires_at`` without any task:
    every read compares it with the clock."""

    class Status(models.TextChoices):
        OPEN = "open", "Open"
        ACCEPTED = "accepted", "Accepted"
        DECLINED = "declined", "Declined"
        WITHDRAWN = "withdrawn", "Withdrawn"

    LIFETIME = dt.timedelta(days=7)  # what the site states on the challenges page and in docs

    challenger = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="challenges_sent")
    # The account challenged; null for a seek, which anyone may take.
    challenged = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.CASCADE, related_name="challenges_received"
    )
    options = models.JSONField()  # the keyword arguments of services.create_table
    ruleset_name = models.CharField(max_length=40)  # copied from options: what the lobby filters on
    turn_seconds = models.PositiveIntegerField()
    # A seek may ask for takers rated within a range, at the pace of its clock (either end open).
    min_rating = models.PositiveIntegerField(null=True, blank=True)
    max_rating = models.PositiveIntegerField(null=True, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    table = models.ForeignKey(Table, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField(db_index=True)
    answered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["status", "challenged", "expires_at"])]
        constraints = [
            models.CheckConstraint(
                name="challenge_not_to_oneself", condition=~Q(challenger=models.F("challenged"))
            )
        ]

    def __str__(self) -> str:
        whom = self.challenged or "anyone"
        return f"{self.challenger} challenges {whom} ({self.ruleset_name})"

    @property
    def is_seek(self) -> bool:
        return self.challenged_id is None

    def is_open(self, now: dt.datetime) -> bool:
        return self.status == self.Status.OPEN and self.expires_at > now

    @property
    def pace(self) -> str:
        return Table.pace_of(self.turn_seconds)

    @property
    def has_rating_range(self) -> bool:
        return self.min_rating is not None or self.max_rating is not None

    def admits(self, rating: float) -> bool:
        """Whether a taker rated ``rating`` at the seek's pace is within its range."""
        low_ok = self.min_rating is None or rating >= self.min_rating
        return low_ok and (self.max_rating is None or rating <= self.max_rating)
