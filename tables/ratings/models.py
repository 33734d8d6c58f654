"""Ratings per pace and their history: one RatingChange per player and rated match."""

from __future__ import annotations

import datetime as dt

from django.db import models
from django.utils import timezone

from tables.accounts.models import Player
from tables.play.models import Match, Pace
from tables.ratings import glicko2


class Rating(models.Model):
    """An account's Glicko-2 rating at one pace (tables/ratings/glicko2.py)."""

    # Lichess's rule: a rating is provisional while its deviation is above 110.
    PROVISIONAL_DEVIATION = 110

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="ratings")
    pace = models.CharField(max_length=4, choices=Pace.choices)
    rating = models.FloatField(default=1500.0)
    deviation = models.FloatField(default=350.0)
    volatility = models.FloatField(default=0.06)
    games = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)  # the last rated match: idle periods count from here
    # When the deviation, growing while the player is away, passes 110 (null: provisional already).
    # Kept so the leaderboard can select established ratings in the database.
    established_until = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["player", "pace"], name="one_rating_per_pace")]
        indexes = [models.Index(fields=["pace", "-rating"], name="rating_leaderboard")]

    def __str__(self) -> str:
        return f"{self.player} {self.pace} {self.rating:.0f}"

    def as_of(self, now: dt.datetime) -> glicko2.Rating:
        """The rating with its deviation grown for the days since the last rated match
        (Glicko-2's step 6 per idle period, computed on read: no background job)."""
        stored = glicko2.Rating(self.rating, self.deviation, self.volatility)
        return glicko2.idle(stored, (now - self.updated_at).total_seconds() / glicko2.PERIOD_SECONDS)

    @property
    def current_deviation(self) -> float:
        return self.as_of(timezone.now()).deviation

    @property
    def provisional(self) -> bool:
        return self.current_deviation > self.PROVISIONAL_DEVIATION

    def settle(self, after: glicko2.Rating, now: dt.datetime) -> None:
        """Take a period's result, and note until when it stays established."""
        self.rating, self.deviation, self.volatility = after.rating, after.deviation, after.volatility
        self.established_until = self.established_until_for(after, now)

    @classmethod
    def established_until_for(cls, rating: glicko2.Rating, since: dt.datetime) -> dt.datetime | None:
        if rating.deviation > cls.PROVISIONAL_DEVIATION:
            return None
        # At most a century away: a volatility near zero would put it beyond any date.
        periods = min(glicko2.periods_until(rating, cls.PROVISIONAL_DEVIATION), 36_500.0)
        return since + dt.timedelta(seconds=periods * glicko2.PERIOD_SECONDS)


class RatingChange(models.Model):
    """What one rated match did to one player's rating: written once (the unique pair)."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="rating_changes")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="rating_changes")
    pace = models.CharField(max_length=4, choices=Pace.choices)
    score = models.FloatField()  # 1 won, 0 lost
    rating_before = models.FloatField()
    rating_after = models.FloatField()
    deviation_before = models.FloatField()
    deviation_after = models.FloatField()
    volatility_before = models.FloatField()
    volatility_after = models.FloatField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["match", "player"], name="one_rating_change_per_match")
        ]
        indexes = [models.Index(fields=["player", "pace", "created_at"], name="rating_history")]

    def __str__(self) -> str:
        return f"{self.player}: {self.rating_before:.0f} → {self.rating_after:.0f}"

    @property
    def difference(self) -> float:
        return self.rating_after - self.rating_before
