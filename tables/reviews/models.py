"""A deal review: LUNA's verdicts on one seat's decisions of a finished deal."""

from __future__ import annotations

from django.db import models

from tables.accounts.models import Player
from tables.play.models import Deal


class DealReview(models.Model):
    """LUNA's review of one seat's decisions in one finished deal (bots/review.py): requested
    once, computed in the background, stored. The unique (deal, seat) makes it once per deal.
    The pending rows are the reviews' queue (tables.reviews.services): the players' own first."""

    class Status(models.TextChoices):
        PENDING = "pending", "Waiting for a worker"
        RUNNING = "running", "Being computed"
        DONE = "done", "Done"
        FAILED = "failed", "Failed"

    deal = models.ForeignKey(Deal, on_delete=models.CASCADE, related_name="reviews")
    seat = models.PositiveSmallIntegerField()  # whose decisions
    requested_by = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # asked by a player of the match (at their own table): computed before strangers' requests
    for_players = models.BooleanField(default=False)
    requested_from = models.CharField(max_length=64, blank=True, default="")  # the asker's address
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.PENDING)
    done = models.PositiveIntegerField(default=0)  # decisions reviewed so far
    total = models.PositiveIntegerField(default=0)  # decisions to review (known once running)
    result = models.JSONField(null=True, blank=True)  # bots.review.DealReview.to_dict()
    # the sum of its decisions' losses in points of the deal (``total`` of them), for the accuracy
    # over a match or a player's matches (tables.reviews.selectors); null: not done, or the old scale
    points_loss = models.FloatField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["deal", "seat"], name="one_review_per_deal_seat")]
        indexes = [  # the backlog and the limits count recent rows
            models.Index(fields=["status", "created_at"], name="review_status_created"),
            models.Index(fields=["requested_from", "created_at"], name="review_address_created"),
        ]

    def __str__(self) -> str:
        return f"Review of seat {self.seat} in {self.deal}"
