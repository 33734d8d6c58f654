"""Tournaments in the JSON API: what each endpoint takes and answers (/api/openapi.json)."""

from __future__ import annotations

import datetime as dt

from ninja import Schema
from pydantic import Field

from tables.play.schemas import TableOptionsIn


class TournamentIn(TableOptionsIn):
    """The new-table form's match options (every match's table), and the event's own."""

    name: str = Field(max_length=80)
    format: str = Field("swiss", description="swiss, or groups (round-robin groups that advance)")
    visibility: str = Field("public", description="public (listed at /tournaments/) or invite (by link only)")
    max_players: int = Field(16, strict=True, description="2 to 256; the event starts when full")
    starts_at: dt.datetime | None = Field(None, description="the start date (ISO 8601); null: when full")
    swiss_rounds: int = Field(4, strict=True, description="a Swiss's rounds, 1 to 20")
    group_size: int = Field(4, strict=True, description="round-robin groups of 3 to 10 players")
    advance_per_group: int = Field(1, strict=True, description="the best N of each group go on")
    runners_up: int = Field(0, strict=True, description="and this many of the best placed just below them")
    home_and_away: bool = Field(
        False, description="each pair of a group plays twice, each dealing first once"
    )
    min_rating: int | None = Field(None, strict=True, description="entry rule: rating at the pace, at least")
    max_rating: int | None = Field(None, strict=True, description="entry rule: rating at the pace, at most")
    min_rated_matches: int | None = Field(None, strict=True, description="entry rule: finished rated matches")
    max_timeout_percent: int | None = Field(
        None,
        strict=True,
        description="entry rule: at most this share of the last 90 days' matches lost on time",
    )
    accounts_only: bool = True
    vacation_allowed: bool = True


class RobotIn(Schema):
    level: str = Field(description="tito, carmen or luna")


class EntryRuleOut(Schema):
    rule: str = Field(description="account, unrated_bot, rating, rated_matches or timeouts")
    met: bool
    reason: str = Field(description="why the caller does not meet it, in the caller's language")


class EntryOut(Schema):
    id: int
    player_id: int
    name: str
    robot: bool
    seed: int | None
    rating: int
    withdrawn: bool
    place: int | None


class PairingOut(Schema):
    id: int
    first: str = Field(description="deals first")
    second: str | None = Field(description="null: a bye")
    first_entry: int
    second_entry: int | None
    finished: bool
    winner_entry: int | None = Field(description="null when finished: a dead heat")
    first_points: int
    second_points: int
    forfeited: bool = Field(description="ended by a withdrawal")
    table: str | None = Field(description="the invite token of the match's table")


class StandingOut(Schema):
    entry: int
    name: str
    played: int
    match_points: float
    difference: int = Field(description="points scored minus points conceded in the event")
    head_to_head: float
    tiebreak: float = Field(description="Buchholz in a Swiss, Sonneborn-Berger in a group")
    withdrawn: bool


class GroupOut(Schema):
    group: int
    pairings: list[PairingOut]
    standings: list[StandingOut]


class RoundOut(Schema):
    number: int | None = Field(description="null: a Swiss's standings after the rounds played")
    groups: list[GroupOut]


class TournamentSummaryOut(Schema):
    id: int
    token: str
    name: str
    format: str
    status: str = Field(description="registering, running, finished or cancelled")
    ruleset: str
    turn_seconds: int
    pace: str
    rated: bool
    visibility: str
    players: int
    max_players: int
    starts_at: str | None
    round: int = Field(description="the round in play; 0 before round 1 is opened")
    first_round_pending: bool = Field(
        description="running, and round 1 is being paired and its tables opened (a moment after "
        "the start): round is 0 and rounds is empty until then"
    )
    winner: str | None
    version: int


class TournamentOut(TournamentSummaryOut):
    settings: dict[str, int | bool | None]
    creator: str
    entry_rules: list[EntryRuleOut]
    may_join: bool
    entered: bool
    entries: list[EntryOut]
    rounds: list[RoundOut]


class TournamentsOut(Schema):
    tournaments: list[TournamentSummaryOut]
