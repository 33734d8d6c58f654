"""A practice position: one of a player's mistakes or blunders, as their own view showed it."""

from __future__ import annotations

from django.db import models

from tables.accounts.models import Player
from tables.reviews.models import DealReview


class PracticePosition(models.Model):
    """The position of one marked decision of ``player`` in a reviewed deal: the engine's view of
    their seat just before it (nothing they could not see), what they played, and LUNA's
    choice and reason, shown once they answer again. Kept per account until its review goes."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    review = models.ForeignKey(DealReview, on_delete=models.CASCADE, related_name="+")
    number = models.PositiveIntegerField()  # the decision's move number in the deal
    view = models.JSONField()  # rules.DealView.to_dict() of the player's seat before the move
    played = models.CharField(max_length=24)
    verdict = models.CharField(max_length=12)  # mistake or blunder
    points_loss = models.FloatField()
    luna = models.CharField(max_length=24)  # LUNA's choice for points of the deal
    reason = models.JSONField()  # bots.practice.Reason.to_dict() of LUNA's choice
    answer = models.CharField(max_length=24, blank=True, default="")
    answered_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["player", "review", "number"], name="one_practice_per_decision")
        ]
        indexes = [models.Index(fields=["player", "answered_at"], name="practice_player_answered")]

    def __str__(self) -> str:
        return f"Practice of move {self.number} for {self.player_id}"
