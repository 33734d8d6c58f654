"""Players (accounts, guests and robots), their vacations, API tokens and data exports."""

from __future__ import annotations

import datetime as dt

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext


class Player(models.Model):
    """One human (an account or a guest bound to a browser) or one bot seat."""

    class DeckDesign(models.TextChoices):
        CLASSIC = "classic", "Classic"
        FOUR_COLOUR = "four_colour", "Four colours"
        LARGE_INDEX = "large_index", "Large index"
        DARK = "dark", "Dark"

    class Language(models.TextChoices):
        SPANISH = "es", "Español"
        ENGLISH = "en", "English"

    class BotLevel(models.TextChoices):
        TITO = "tito", "TITO"
        CARMEN = "carmen", "CARMEN"
        LUNA = "luna", "LUNA"

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="player"
    )
    # A guest's secret, kept in the browser as a signed cookie; cleared when the guest signs up.
    guest_key = models.CharField(max_length=64, unique=True, null=True, blank=True, editable=False)
    display_name = models.CharField(max_length=40)
    deck_design = models.CharField(max_length=16, choices=DeckDesign.choices, default=DeckDesign.CLASSIC)
    language = models.CharField(max_length=2, choices=Language.choices, default=Language.SPANISH)
    time_zone = models.CharField(max_length=64, default="UTC")
    alert_prefs = models.JSONField(default=dict, blank=True)
    is_bot = models.BooleanField(default=False)
    bot_level = models.CharField(max_length=8, choices=BotLevel.choices, blank=True)
    # The vacation under way (tables.accounts.services.vacation), both set or both null: slow clocks stop.
    vacation_started_at = models.DateTimeField(null=True, blank=True)
    vacation_until = models.DateTimeField(null=True, blank=True, db_index=True)
    # Automatic vacation (opted in): a slow turn that would time out starts a day of vacation
    # instead while days are left (tables.accounts.services.vacation, start_automatic_vacation).
    auto_vacation = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)
    # When its account was deleted (tables.accounts.services.deletion): the row stays, emptied,
    # so its finished matches keep their seat for the opponents' archives and ratings.
    deleted_at = models.DateTimeField(null=True, blank=True)
    # When the account declared itself a bot account (tables.accounts.services.bot_account), for
    # good: a program that plays through the API, marked "BOT" wherever its name is shown, and only
    # at unrated tables. Not ``is_bot``: that is the site's own robots, played by the server.
    bot_account_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.CheckConstraint(
                name="bot_has_level",
                condition=Q(is_bot=False, bot_level="") | Q(is_bot=True) & ~Q(bot_level=""),
            )
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def name(self) -> str:
        """The name shown wherever the player appears: "deleted player" (translated) once its
        account is deleted."""
        return gettext("deleted player") if self.deleted_at is not None else self.display_name

    @property
    def is_deleted(self) -> bool:
        return self.deleted_at is not None

    @property
    def is_bot_account(self) -> bool:
        return self.bot_account_at is not None

    @property
    def is_guest(self) -> bool:
        return not self.is_bot and self.user_id is None and self.deleted_at is None

    def on_vacation(self, at: dt.datetime) -> bool:
        return (
            self.vacation_started_at is not None
            and self.vacation_until is not None
            and self.vacation_started_at <= at < self.vacation_until
        )


class Vacation(models.Model):
    """One vacation of an account: the local calendar days it counts against the yearly
    allowance (tables/accounts/vacation_days.py) and when it runs. Ending early moves ``last_day`` and
    ``ends_at`` back, which gives the unused days back."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="vacations")
    first_day = models.DateField()  # in the player's time zone when declared
    last_day = models.DateField()
    starts_at = models.DateTimeField()
    ends_at = models.DateTimeField()
    created_at = models.DateTimeField(auto_now_add=True)
    # An automatic vacation: the table whose turn would have timed out (None: declared).
    started_at_table = models.ForeignKey(
        "tables.Table", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        indexes = [models.Index(fields=["player", "last_day"])]

    def __str__(self) -> str:
        return f"{self.player}: {self.first_day} to {self.last_day}"


class ApiToken(models.Model):
    """A bearer token a program uses to act as an account; only its SHA-256 is stored. Its scope
    says what it may do: ``read`` only reads (GET, and watching on the sockets), ``play`` also
    plays, chats and changes things; past ``expires_at`` (if set) it is refused as unknown."""

    class Scope(models.TextChoices):
        READ = "read", "Read only"
        PLAY = "play", "Play"

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens")
    name = models.CharField(max_length=60, blank=True)
    # A row written without a scope may only read; tokens made before scopes became "play"
    # (migration 0010), and the API and the profile make the scope the caller chooses.
    scope = models.CharField(max_length=8, choices=Scope.choices, default=Scope.READ)
    expires_at = models.DateTimeField(null=True, blank=True)
    prefix = models.CharField(max_length=12)
    token_hash = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"{self.prefix}… ({self.name or 'token'})"

    def expired(self, at: dt.datetime) -> bool:
        return self.expires_at is not None and self.expires_at <= at


class DataExport(models.Model):
    """One "download my data" archive (tables.accounts.services.data_export): built in the
    background, then offered by a signed link until ``expires_at`` (7 days)."""

    class Status(models.TextChoices):
        PENDING = "pending", "Being built"
        READY = "ready", "Ready"
        FAILED = "failed", "Failed"

    LIFETIME = dt.timedelta(days=7)

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="data_exports")
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.PENDING)
    content = models.TextField(blank=True)  # the archive's JSON, once ready
    created_at = models.DateTimeField(auto_now_add=True)
    ready_at = models.DateTimeField(null=True, blank=True)
    expires_at = models.DateTimeField(null=True, blank=True, db_index=True)

    def __str__(self) -> str:
        return f"data export {self.pk} of {self.player_id} ({self.status})"
