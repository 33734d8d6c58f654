"""Tables of three and four: winner stays (three players) and partnership gin (four).

Every deal of such a game is played at a board: an ordinary two-seat table (tables.play) opened
for it, with its two players seated and a board match started (rules.Match with ``board``: over
after its one deal, or its first scored deal). The game table keeps the seats, the variant's
record (rules.WinnerStays or rules.Partnership, as to_dict) and its boards; each board's result
reaches the record once its match ends. Only tables.variants.services writes these rows.
"""

from __future__ import annotations

from django.db import models

from tables.accounts.models import Player
from tables.play.models import Table, new_invite_token


class GameTable(models.Model):
    """A table of three or four players: options fixed at creation, one game."""

    class Variant(models.TextChoices):
        WINNER_STAYS = "winner_stays", "Three players, winner stays"
        PARTNERSHIP = "partnership", "Four players, partnership gin"

    class Partners(models.TextChoices):
        FIXED = "fixed", "Fixed: seats 1 and 3 against 2 and 4"
        DRAWN = "drawn", "Drawn at the start"

    class Status(models.TextChoices):
        WAITING = "waiting", "Waiting for players"
        PLAYING = "playing", "Playing"
        OVER = "over", "Over"

    SEATS = {Variant.WINNER_STAYS: 3, Variant.PARTNERSHIP: 4}

    @classmethod
    def variant_for(cls, players: int | str) -> Variant | None:
        """The variant a number of players plays (the form's and the API's "players"), if any."""
        return next((variant for variant, count in cls.SEATS.items() if str(count) == str(players)), None)

    owner = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="owned_game_tables")
    invite_token = models.CharField(max_length=32, unique=True, default=new_invite_token, editable=False)
    variant = models.CharField(max_length=16, choices=Variant.choices)
    partners = models.CharField(max_length=8, choices=Partners.choices, default=Partners.FIXED)
    # The keyword arguments of tables.play.services.seats.create_table for every board's table.
    table_options = models.JSONField()
    ruleset_name = models.CharField(max_length=40)
    target = models.PositiveIntegerField()  # the game's, for a player (three) or a team (four)
    turn_seconds = models.PositiveIntegerField()
    # Public: listed in the lobby while it waits for players; every board's table stays by invite.
    visibility = models.CharField(
        max_length=8, choices=Table.Visibility.choices, default=Table.Visibility.INVITE
    )
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.WAITING)
    record = models.JSONField(null=True, blank=True)  # rules.WinnerStays / rules.Partnership to_dict
    # The winning seat (three) or team (four), once over.
    winner = models.PositiveSmallIntegerField(null=True, blank=True)
    ended_by = models.CharField(max_length=10, blank=True)  # "resign" or "forfeit" when a player left
    # The game the same people play next (PLAY AGAIN), opened once by the first to ask.
    next_game = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="previous_game"
    )
    version = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    ended_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"Game table {self.pk} ({self.variant})"

    @property
    def seat_count(self) -> int:
        return self.SEATS[self.Variant(self.variant)]

    @property
    def pace(self) -> str:
        return Table.pace_of(self.turn_seconds)


class GameSeat(models.Model):
    """A player in seat ``number`` (0 to 3) of a game table."""

    game = models.ForeignKey(GameTable, on_delete=models.CASCADE, related_name="seats")
    number = models.PositiveSmallIntegerField()
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="game_seats")
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="one_player_per_game_seat"),
            models.UniqueConstraint(fields=["game", "player"], name="one_game_seat_per_player"),
        ]

    def __str__(self) -> str:
        return f"{self.player} in seat {self.number} of game table {self.game_id}"


class Board(models.Model):
    """One deal of the game (with the deals a dead deal called for, in winner stays), at its own
    table: ``players`` are the game's seats at the board's seats 0 and 1."""

    game = models.ForeignKey(GameTable, on_delete=models.CASCADE, related_name="boards")
    round = models.PositiveSmallIntegerField()  # the partnership round, or the deal, from 1
    number = models.PositiveSmallIntegerField(default=0)  # the round's board (0 or 1); 0 in winner stays
    players = models.JSONField()  # [game seat at board seat 0, game seat at board seat 1]
    dealer = models.PositiveSmallIntegerField()  # a game seat
    table = models.OneToOneField(Table, on_delete=models.PROTECT, related_name="game_board")
    recorded_at = models.DateTimeField(null=True, blank=True)  # its result is in the game's record

    class Meta:
        ordering = ["round", "number"]
        constraints = [
            models.UniqueConstraint(fields=["game", "round", "number"], name="one_board_per_round_number")
        ]
        indexes = [models.Index(fields=["recorded_at"], name="board_unrecorded")]

    def __str__(self) -> str:
        return f"Board {self.round}.{self.number} of game table {self.game_id}"
