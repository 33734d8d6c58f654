"""Fair play's rows: the screening of each rated match, the decisions it read from LUNA's
reviews, and each account's signal (bots/fairplay.py). Staff read them; players never do."""

from __future__ import annotations

from django.db import models

from tables.accounts.models import Player
from tables.play.models import Deal, Match


class Screening(models.Model):
    """One rated match read into its players' signals (tables.fairplay.services). Made when the
    match ends; the unique match makes it once per match however often its end is told."""

    class Status(models.TextChoices):
        PENDING = "pending", "Waiting for a worker"
        RUNNING = "running", "Being read"
        DONE = "done", "Done"
        FAILED = "failed", "Failed"

    match = models.OneToOneField(Match, on_delete=models.CASCADE, related_name="screening")
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.PENDING)
    attempts = models.PositiveSmallIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["status", "created_at"], name="screening_status_created")]

    def __str__(self) -> str:
        return f"Screening of {self.match}"


class ScreenedDecision(models.Model):
    """One reviewed decision of an account in a rated match, as its signal reads it."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    deal = models.ForeignKey(Deal, on_delete=models.CASCADE, related_name="+")
    number = models.PositiveSmallIntegerField()  # the move's number in the deal
    ended_at = models.DateTimeField()  # the match's end: the account's decisions in order
    loss = models.FloatField()  # match-winning chance lost against LUNA's best
    best = models.BooleanField()  # LUNA's best move was played

    class Meta:
        constraints = [models.UniqueConstraint(fields=["deal", "number"], name="one_screened_decision")]
        indexes = [models.Index(fields=["player", "ended_at"], name="screened_player_ended")]


class FairPlaySignal(models.Model):
    """An account's signal over its last decisions (bots.fairplay.WINDOW), recomputed after each
    screening; ``recent`` keeps its last screened matches for staff's links (match id, deal ids)."""

    player = models.OneToOneField(Player, on_delete=models.CASCADE, related_name="+")
    decisions = models.PositiveIntegerField()
    enough = models.BooleanField()  # decisions enough to mean anything (bots.fairplay.ENOUGH)
    best_share = models.FloatField()
    good_share = models.FloatField()
    mean_loss = models.FloatField()
    recent = models.JSONField(default=list)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        indexes = [models.Index(fields=["enough", "mean_loss"], name="fairplay_ranking")]

    def __str__(self) -> str:
        return f"Fair-play signal of {self.player}"
