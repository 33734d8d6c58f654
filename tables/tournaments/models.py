"""A tournament, its entries, its rounds and the pairings of each round.

A pairing's match is played at an ordinary table (tables.play) opened for it, with both players
seated and the match started; the pairing keeps the result once the match ends. Only
tables.tournaments.services writes these rows.
"""

from __future__ import annotations

from typing import Any

from django.db import models
from django.db.models import Q

from tables.accounts.models import Player
from tables.play.models import Table, new_invite_token


class Tournament(models.Model):
    class Format(models.TextChoices):
        SWISS = "swiss", "Swiss"
        GROUPS = "groups", "Round-robin groups"

    class Status(models.TextChoices):
        REGISTERING = "registering", "Registration open"
        RUNNING = "running", "Running"
        FINISHED = "finished", "Finished"
        CANCELLED = "cancelled", "Cancelled"

    class Visibility(models.TextChoices):
        PUBLIC = "public", "Listed"
        INVITE = "invite", "Invite link only"

    name = models.CharField(max_length=80)
    creator = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="tournaments_created")
    format = models.CharField(max_length=8, choices=Format.choices)
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.REGISTERING)
    visibility = models.CharField(max_length=8, choices=Visibility.choices, default=Visibility.PUBLIC)
    invite_token = models.CharField(max_length=32, unique=True, default=new_invite_token, editable=False)
    # The keyword arguments of tables.play.services.seats.create_table for every match's table.
    table_options = models.JSONField()
    ruleset_name = models.CharField(max_length=40)  # copied from the options: what the list filters on
    turn_seconds = models.PositiveIntegerField()
    rated = models.BooleanField(default=False)
    vacation_allowed = models.BooleanField(default=True)
    max_players = models.PositiveSmallIntegerField()
    starts_at = models.DateTimeField(null=True, blank=True)  # null: it starts when full
    group_size = models.PositiveSmallIntegerField(default=4)
    advance_per_group = models.PositiveSmallIntegerField(default=1)
    runners_up = models.PositiveSmallIntegerField(default=0)
    home_and_away = models.BooleanField(default=False)
    swiss_rounds = models.PositiveSmallIntegerField(default=0)
    # Entry rules; null: no such rule.
    min_rating = models.PositiveIntegerField(null=True, blank=True)
    max_rating = models.PositiveIntegerField(null=True, blank=True)
    min_rated_matches = models.PositiveIntegerField(null=True, blank=True)
    max_timeout_percent = models.PositiveSmallIntegerField(null=True, blank=True)
    accounts_only = models.BooleanField(default=True)

    round_number = models.PositiveSmallIntegerField(default=0)  # the round in play (0: not started)
    winner = models.ForeignKey(Player, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    version = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    ended_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [
            models.Index(fields=["status", "visibility", "-created_at"], name="tournament_list"),
            models.Index(fields=["status", "starts_at"], name="tournament_start_due"),
        ]

    def __str__(self) -> str:
        return f"Tournament {self.pk} ({self.name})"

    @property
    def pace(self) -> str:
        return Table.pace_of(self.turn_seconds)

    @property
    def is_swiss(self) -> bool:
        return self.format == self.Format.SWISS

    def options(self) -> dict[str, Any]:
        return dict(self.table_options)


class Entry(models.Model):
    """A player in a tournament: the seed is fixed at the start (rating at the pace, then the
    earlier entry); ``place`` is the final one."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="tournament_entries")
    joined_at = models.DateTimeField(auto_now_add=True)
    rating = models.FloatField(default=1500.0)  # at the pace, when the event started
    seed = models.PositiveSmallIntegerField(null=True, blank=True)
    withdrawn_at = models.DateTimeField(null=True, blank=True)
    eliminated_in = models.PositiveSmallIntegerField(null=True, blank=True)  # a group round, if out
    place = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        verbose_name_plural = "entries"
        constraints = [models.UniqueConstraint(fields=["tournament", "player"], name="one_entry_per_player")]

    def __str__(self) -> str:
        return f"{self.player} in tournament {self.tournament_id}"

    @property
    def active(self) -> bool:
        return self.withdrawn_at is None


class Round(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField()
    created_at = models.DateTimeField(auto_now_add=True)
    ended_at = models.DateTimeField(null=True, blank=True)
    # when its players were told of their matches (tables.tournaments.alerts): the sweep's mark
    alerted_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["tournament", "number"], name="one_round_per_number")]

    def __str__(self) -> str:
        return f"Round {self.number} of tournament {self.tournament_id}"


class Pairing(models.Model):
    """One match of a round (``second`` null: a bye), its table, and its result once over."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="pairings")
    group = models.PositiveSmallIntegerField(default=0)  # the group of a round-robin round; 0 in a Swiss
    first = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="+")  # deals first
    second = models.ForeignKey(Entry, null=True, blank=True, on_delete=models.CASCADE, related_name="+")
    table = models.OneToOneField(
        Table, null=True, blank=True, on_delete=models.SET_NULL, related_name="tournament_pairing"
    )
    finished_at = models.DateTimeField(null=True, blank=True)
    winner = models.ForeignKey(Entry, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    first_points = models.PositiveIntegerField(default=0)
    second_points = models.PositiveIntegerField(default=0)
    forfeited = models.BooleanField(default=False)  # ended by a withdrawal, not played out

    class Meta:
        indexes = [models.Index(fields=["round", "finished_at"], name="pairing_open_in_round")]
        constraints = [
            models.CheckConstraint(name="pairing_not_with_oneself", condition=~Q(first=models.F("second")))
        ]

    def __str__(self) -> str:
        return f"Pairing {self.pk} of round {self.round_id}"

    @property
    def is_bye(self) -> bool:
        return self.second_id is None
