"""Summaries of finished matches, written at match end (tables.records.services.record_match)
in the transaction that ends the match, and rebuilt from the matches by the data migration."""

from __future__ import annotations

from django.db import models
from django.db.models import F, Q

from tables.accounts.models import Player
from tables.play.models import Match


class PlayerRecord(models.Model):
    """A player's totals over its finished matches: what its page's statistics show."""

    player = models.OneToOneField(Player, on_delete=models.CASCADE, primary_key=True, related_name="record")
    matches = models.PositiveIntegerField(default=0)
    public_matches = models.PositiveIntegerField(default=0)  # at public tables: what anyone sees listed
    wins = models.PositiveIntegerField(default=0)
    deals = models.PositiveIntegerField(default=0)  # deals played to their end
    gins = models.PositiveIntegerField(default=0)  # gin or big gin, theirs
    knocks = models.PositiveIntegerField(default=0)  # their knocks with deadwood (knock or undercut)
    undercuts = models.PositiveIntegerField(default=0)  # of those knocks, the undercut ones
    knock_deadwood = models.PositiveIntegerField(default=0)
    turns = models.PositiveIntegerField(default=0)
    timeouts = models.PositiveIntegerField(default=0)

    def __str__(self) -> str:
        return f"{self.player_id}: {self.matches} matches"


class PairRecord(models.Model):
    """Two players' finished matches against each other, the lower player id first."""

    low = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    high = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    matches = models.PositiveIntegerField(default=0)
    low_wins = models.PositiveIntegerField(default=0)
    high_wins = models.PositiveIntegerField(default=0)
    invite_matches = models.PositiveIntegerField(default=0)  # at invite-only tables: for these two only
    last_on = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["low", "high"], name="one_record_per_pair"),
            models.CheckConstraint(name="pair_record_in_order", condition=Q(low__lt=F("high"))),
        ]

    def __str__(self) -> str:
        return f"{self.low_id} against {self.high_id}: {self.matches}"


class PlayerMatch(models.Model):
    """One of a player's finished matches, newest first by its index: a page of a player's list
    is a range of that index, not a sort of every match on the site (the match's seats are on
    its table, so no index on the matches themselves leads to a player's in date order)."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="+")
    ended_at = models.DateTimeField()
    public = models.BooleanField()  # at a public table: listed to anyone
    opponent = models.ForeignKey(Player, on_delete=models.CASCADE, null=True, related_name="+")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["player", "match"], name="one_line_per_player_match")]
        indexes = [
            # PostgreSQL reads a page from the index alone (the visibility test's columns included).
            models.Index(
                fields=["player", "-ended_at", "-match"],
                include=["public", "opponent"],
                name="player_match_newest",
            )
        ]

    def __str__(self) -> str:
        return f"{self.player_id} played match {self.match_id}"


class RecordedMatch(models.Model):
    """A finished match already counted in the records: the guard that counts it once."""

    match = models.OneToOneField(Match, on_delete=models.CASCADE, primary_key=True, related_name="+")

    def __str__(self) -> str:
        return f"match {self.match_id} recorded"
