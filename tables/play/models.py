"""Tables, seats, matches, deals, the move log and chat.

The game itself lives in the engine (`rules`): a deal row stores what the engine needs to
rebuild it (rule set, dealer, deck, the move log) plus the engine's own snapshot, and a
match row stores the engine's match record. Only tables.play.services writes these rows.
"""

from __future__ import annotations

import datetime as dt
import secrets
from typing import Any

from django.db import models
from django.db.models import Q

import rules
from tables.accounts.models import Player
from tables.bank import engine as bank


def new_invite_token() -> str:
    return secrets.token_urlsafe(18)


class Pace(models.TextChoices):
    """Each pace has its own rating: what `Table.pace_of` says of a table's turn clock."""

    SLOW = "slow", "Slow"
    LIVE = "live", "Live"


class Table(models.Model):
    """A persistent table: two seats, options fixed at creation, one match after another."""

    class Visibility(models.TextChoices):
        INVITE = "invite", "Invite link only"
        PUBLIC = "public", "Listed in the lobby"

    TURN_CLOCKS = (30, 45, 60, 90, 600, 12 * 3600, 24 * 3600, 3 * 24 * 3600, 7 * 24 * 3600)
    # More time given (and a clock stopped by vacation) never leaves a turn more than this many
    # turn clocks of time.
    MAX_CLOCK_PERIODS = 3
    DEFAULT_TURN_SECONDS = 24 * 3600
    # The pace of play: a turn clock this long or longer is a slow (correspondence) table: its
    # move log is on unless chosen otherwise, vacation stops its clock, and its ratings are the
    # slow ones (the others' the live ones).
    SLOW_CLOCK_SECONDS = 12 * 3600
    # A rematch offer stands at least this long, and as long as a turn where turns are longer:
    # at a slow table the opponent may be offline for days and must still find the offer.
    REMATCH_OFFER_MIN_SECONDS = 600

    owner = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="owned_tables")
    invite_token = models.CharField(max_length=32, unique=True, default=new_invite_token, editable=False)
    ruleset_name = models.CharField(max_length=40, db_index=True)
    ruleset = models.JSONField()  # the full rules.Ruleset as a dict
    turn_seconds = models.PositiveIntegerField(default=DEFAULT_TURN_SECONDS)
    visibility = models.CharField(max_length=8, choices=Visibility.choices, default=Visibility.INVITE)
    spectator_chat = models.BooleanField(default=True)
    forfeit_after = models.PositiveSmallIntegerField(default=3)
    # The move log on the table page. Off: Playgridia's "no looking back at the discards" (the
    # log is not sent at all). Chosen at creation: on for slow clocks, off for live ones.
    move_log = models.BooleanField(default=True)
    # Whether a player's vacation stops this table's slow clock (and automatic vacation may start
    # here): off at the tables of a "no vacation" tournament (tables.tournaments).
    vacation_stops_clock = models.BooleanField(default=True)
    # Whether a finished match may be followed by a rematch here: off at a tournament's tables,
    # whose match is the event's pairing, played once (tables.tournaments).
    rematches = models.BooleanField(default=True)
    # The time bank (tables/bank/engine.py), in seconds; all 0: none. Chosen at creation: on for
    # slow clocks, off for live ones.
    bank_start = models.PositiveIntegerField(default=0)
    bank_refill = models.PositiveIntegerField(default=0)
    bank_cap = models.PositiveIntegerField(default=0)

    # Rated: only two accounts sit here (no guest, no robot) and each match moves their ratings.
    rated = models.BooleanField(default=False)
    seat0 = models.ForeignKey(Player, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    seat1 = models.ForeignKey(Player, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    # The deal shown at the table: the one in play, or the last one played.
    current_deal = models.ForeignKey(
        "Deal", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # Bumped by every change of game state (not by chat): the optimistic-concurrency version.
    version = models.PositiveIntegerField(default=0)
    rematch_offered_by = models.PositiveSmallIntegerField(null=True, blank=True)
    rematch_declined_by = models.PositiveSmallIntegerField(null=True, blank=True)
    rematch_offered_at = models.DateTimeField(null=True, blank=True, db_index=True)  # the standing offer
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    # Not a column: set on the instance by tables.play.services.common when a change commits, each
    # seated player's state at the new version by player id (None: the sockets read them afresh).
    published_states: dict[str, dict[str, Any]] | None

    class Meta:
        indexes = [models.Index(fields=["visibility", "-created_at"])]

    def __str__(self) -> str:
        return f"Table {self.pk} ({self.ruleset_name})"

    @classmethod
    def pace_of(cls, turn_seconds: int) -> str:
        return "slow" if turn_seconds >= cls.SLOW_CLOCK_SECONDS else "live"

    @property
    def seats(self) -> tuple[Player | None, Player | None]:
        return (self.seat0, self.seat1)

    def seat_of(self, player: Player | None) -> int | None:
        if player is None:
            return None
        if self.seat0_id == player.pk:
            return 0
        if self.seat1_id == player.pk:
            return 1
        return None

    @property
    def has_slow_clock(self) -> bool:
        return self.pace_of(self.turn_seconds) == "slow"

    @property
    def stops_for_vacation(self) -> bool:
        """A slow clock that a vacation stops: every slow table but a no-vacation event's."""
        return self.has_slow_clock and self.vacation_stops_clock

    @property
    def bank_terms(self) -> bank.Terms | None:
        if not self.bank_cap:
            return None
        return bank.Terms(self.bank_start, self.bank_refill, self.bank_cap)

    def seat_player_id(self, seat: int) -> int | None:
        return self.seat0_id if seat == 0 else self.seat1_id

    @property
    def rematch_expires_at(self) -> dt.datetime | None:
        """When the standing rematch offer lapses; None without one."""
        if self.rematch_offered_by is None or self.rematch_offered_at is None:
            return None
        lifetime = max(self.REMATCH_OFFER_MIN_SECONDS, self.turn_seconds)
        return self.rematch_offered_at + dt.timedelta(seconds=lifetime)


class Match(models.Model):
    class Status(models.TextChoices):
        PLAYING = "playing", "Playing"
        OVER = "over", "Over"

    class Outcome(models.TextChoices):
        NONE = "", "—"
        COMPLETED = "completed", "Played to the end"
        RESIGNED = "resigned", "Resigned"
        FORFEIT = "forfeit", "Forfeit on time"

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="matches")
    number = models.PositiveIntegerField()
    ruleset = models.JSONField()
    first_dealer = models.PositiveSmallIntegerField()
    record = models.JSONField()  # rules.Match.to_dict()
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.PLAYING)
    outcome = models.CharField(max_length=10, choices=Outcome.choices, blank=True, default="")
    winner = models.PositiveSmallIntegerField(null=True, blank=True)
    final_scores = models.JSONField(null=True, blank=True)
    timeouts_in_row = models.JSONField(default=list)  # consecutive timed-out turns, by seat
    # Each seat's time bank in seconds, at a table with one (else empty): the bank of the seat to
    # play is inside the deal's deadline, spent once its turn time is (tables/bank/engine.py).
    banks = models.JSONField(default=list)
    decided_by_timeout = models.BooleanField(default=False)
    started_at = models.DateTimeField(auto_now_add=True)
    ended_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name_plural = "matches"
        constraints = [models.UniqueConstraint(fields=["table", "number"], name="match_number_per_table")]

    def __str__(self) -> str:
        return f"Match {self.number} at table {self.table_id}"


class Deal(models.Model):
    class Status(models.TextChoices):
        PLAYING = "playing", "Playing"
        OVER = "over", "Over"
        ABANDONED = "abandoned", "Abandoned"  # its match was resigned or forfeited mid-deal

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="deals")
    number = models.PositiveIntegerField()
    ruleset = models.JSONField()
    dealer = models.PositiveSmallIntegerField()
    deck = models.CharField(max_length=160)  # 52 cards, top first: server-side only, never sent
    snapshot = models.JSONField()  # the engine's Deal.to_json(): holds the stock, never sent
    version = models.PositiveIntegerField(default=0)  # the engine's: actions applied
    phase = models.CharField(max_length=8)
    to_play = models.PositiveSmallIntegerField(null=True, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PLAYING)
    outcome = models.CharField(max_length=16, blank=True)  # the engine's result outcome, e.g. "gin"
    winner = models.PositiveSmallIntegerField(null=True, blank=True)
    points = models.PositiveIntegerField(default=0)
    # When the current turn (or, after the deal, the wait for the next deal) runs out.
    deadline = models.DateTimeField(null=True, blank=True, db_index=True)
    # The turn's clock stopped while its player is on vacation: the seconds it resumes with
    # (the deadline is null meanwhile).
    paused_left = models.PositiveIntegerField(null=True, blank=True)
    more_time_given = models.PositiveSmallIntegerField(default=0)  # times in the current turn
    decided_by_timeout = models.BooleanField(default=False)
    # For the players' statistics, written as the deal is played (the engine says who knocked
    # with what deadwood, and when the turn passes): summed by SQL, never replayed.
    knocker = models.PositiveSmallIntegerField(null=True, blank=True)
    knocker_deadwood = models.PositiveSmallIntegerField(null=True, blank=True)
    turns0 = models.PositiveIntegerField(default=0)  # turns seat 0 ended, by a move or its clock
    turns1 = models.PositiveIntegerField(default=0)
    timeouts0 = models.PositiveIntegerField(default=0)  # of those, turns the server played
    timeouts1 = models.PositiveIntegerField(default=0)
    started_at = models.DateTimeField(auto_now_add=True)
    ended_at = models.DateTimeField(null=True, blank=True)

    # Not a column: the snapshot and the engine's deal parsed from it (tables.play.engine.load_deal).
    _parsed: tuple[Any, rules.Deal]

    class Meta:
        constraints = [models.UniqueConstraint(fields=["match", "number"], name="deal_number_per_match")]

    def __str__(self) -> str:
        return f"Deal {self.number} of match {self.match_id}"

    def count_turn(self, seat: int, timed_out: bool) -> None:
        """``seat`` ended a turn (the caller saves the row)."""
        setattr(self, f"turns{seat}", getattr(self, f"turns{seat}") + 1)
        if timed_out:
            setattr(self, f"timeouts{seat}", getattr(self, f"timeouts{seat}") + 1)


class Move(models.Model):
    """One action of the append-only move log."""

    class Source(models.TextChoices):
        PLAYER = "player", "Player"
        BOT = "bot", "Bot"
        TIMEOUT = "timeout", "Server on timeout"

    deal = models.ForeignKey(Deal, on_delete=models.CASCADE, related_name="moves")
    seq = models.PositiveIntegerField()  # 1-based; equals the engine version after this action
    seat = models.PositiveSmallIntegerField()
    action = models.CharField(max_length=24)  # str(rules.Action), e.g. "discard 7H"
    card = models.CharField(max_length=2, blank=True)  # the card the action names or drew
    table_version = models.PositiveIntegerField()  # the table's version after this action
    actor = models.ForeignKey(Player, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    source = models.CharField(max_length=8, choices=Source.choices, default=Source.PLAYER)
    client_move_id = models.CharField(max_length=64, null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["deal", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["deal", "seq"], name="move_seq_per_deal"),
            models.UniqueConstraint(
                fields=["deal", "client_move_id"],
                condition=Q(client_move_id__isnull=False),
                name="client_move_id_per_deal",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.seq}. seat {self.seat}: {self.action}"


class ChatMessage(models.Model):
    class Channel(models.TextChoices):
        PLAYERS = "players", "Players"
        SPECTATORS = "spectators", "Spectators"

    MAX_LENGTH = 500

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="chat")
    author = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    channel = models.CharField(max_length=10, choices=Channel.choices, default=Channel.PLAYERS)
    text = models.CharField(max_length=MAX_LENGTH)
    hidden = models.BooleanField(default=False, help_text="Hidden by staff: nobody sees it any more.")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]

    def __str__(self) -> str:
        return f"{self.author}: {self.text[:40]}"


class ChatMute(models.Model):
    """A player who does not want to see another's chat at one table."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="+")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    muted = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["table", "player", "muted"], name="one_mute_per_pair")]
