"""Follows, blocks and the social settings of an account (tables/social, docs/social.md)."""

from __future__ import annotations

from django.db import models
from django.db.models import F, Q

from tables.accounts.models import Player


class Follow(models.Model):
    """``follower`` follows ``followed``: one way, with no consent asked (as on Lichess); it
    shows the follower nothing private, only what anyone sees, listed in one place."""

    follower = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    followed = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["follower", "followed"], name="one_follow_per_pair"),
            models.CheckConstraint(name="follow_not_oneself", condition=~Q(follower=F("followed"))),
        ]

    def __str__(self) -> str:
        return f"{self.follower_id} follows {self.followed_id}"


class Block(models.Model):
    """``blocker`` blocks ``blocked``: no challenge, seek, table or follow between them, their
    seeks and tables out of each other's lobby, and the blocked one's chat hidden from the blocker."""

    blocker = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    blocked = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["blocker", "blocked"], name="one_block_per_pair"),
            models.CheckConstraint(name="block_not_oneself", condition=~Q(blocker=F("blocked"))),
        ]
        indexes = [models.Index(fields=["blocked"], name="block_by_blocked")]

    def __str__(self) -> str:
        return f"{self.blocker_id} blocks {self.blocked_id}"


class SocialSettings(models.Model):
    """An account's choices about what others see of it; no row: the defaults."""

    player = models.OneToOneField(Player, on_delete=models.CASCADE, primary_key=True, related_name="+")
    # Hidden: no "online now" nor "last seen" of this account anywhere (nothing, not "offline").
    hide_presence = models.BooleanField(default=False)
