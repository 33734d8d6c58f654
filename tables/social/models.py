"""Follows, blocks, the social settings of an account, and reports for staff (tables/social,
docs/social.md)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from tables.accounts.models import Player
from tables.play.models import ChatMessage, Match, Table


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
    # Staff muted its chat at every table until then (services.mute_chat, from a report).
    chat_muted_until = models.DateTimeField(null=True, blank=True)


class Report(models.Model):
    """A player's report of another account (from its page, of one chat message at a table, or
    of one match it played), for staff: the admin's queue of open reports, each closed with who
    did it, when and why, every action on the account logged (ModerationAction)."""

    class Reason(models.TextChoices):
        ABUSE = "abuse", _("Insults or harassment")
        CHEATING = "cheating", _("Cheating")
        STALLING = "stalling", _("Stalling: letting the clock run to make the opponent give up")
        SPAM = "spam", _("Spam or advertising")
        NAME = "name", _("An offensive name")
        OTHER = "other", _("Something else")

    class Status(models.TextChoices):
        OPEN = "open", pgettext_lazy("report status", "Open")
        DISMISSED = "dismissed", pgettext_lazy("report status", "Dismissed")
        HANDLED = "handled", pgettext_lazy("report status", "Handled")

    MAX_TEXT = 1000

    reporter = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    reported = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    reason = models.CharField(max_length=10, choices=Reason.choices)
    text = models.TextField(blank=True, max_length=MAX_TEXT)
    chat_message = models.ForeignKey(
        ChatMessage, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    match = models.ForeignKey(Match, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    table = models.ForeignKey(Table, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    created_at = models.DateTimeField(auto_now_add=True)
    handled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    handled_at = models.DateTimeField(null=True, blank=True)
    staff_note = models.TextField(blank=True, help_text=_("What was done and why (kept with the report)."))
    muted_until = models.DateTimeField(null=True, blank=True)  # the chat mute staff gave, if any

    class Meta:
        indexes = [
            models.Index(fields=["status", "created_at"], name="report_queue"),
            models.Index(fields=["reported", "created_at"], name="report_by_reported"),
        ]
        constraints = [
            models.CheckConstraint(name="report_not_oneself", condition=~Q(reporter=F("reported"))),
        ]

    def __str__(self) -> str:
        return f"{self.reporter} reports {self.reported} ({self.reason})"


class ModerationAction(models.Model):
    """One thing staff did about an account, kept one by one (tables.social.services.moderation):
    who did it, what, why, when and, for a mute, until when. A report closed is an action too."""

    class Kind(models.TextChoices):
        DISMISS = "dismiss", "Report dismissed"
        HANDLE = "handle", "Report handled"
        WARN = "warn", "Warned (told in the inbox)"
        MUTE = "mute", "Chat muted"
        SUSPEND = "suspend", "Suspended"
        UNSUSPEND = "unsuspend", "Suspension lifted"

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")  # the account acted on
    report = models.ForeignKey(
        Report, null=True, blank=True, on_delete=models.SET_NULL, related_name="actions"
    )
    staff = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    kind = models.CharField(max_length=10, choices=Kind.choices)
    reason = models.TextField()
    created_at = models.DateTimeField(auto_now_add=True)
    until = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["player", "created_at"], name="moderation_by_player")]

    def __str__(self) -> str:
        return f"{self.get_kind_display()}: {self.player}"


class MatchNote(models.Model):
    """A player's private notes on one match, typed at its table (what the opponent picked and
    threw, a plan): shown to its author only, at the table and on the match's archive pages;
    never in anything another identity receives (tables.social.services.save_note)."""

    author = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="+")
    text = models.TextField(blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["author", "match"], name="one_note_per_author_and_match")
        ]
