"""The JSON API's bodies: what each endpoint takes and what it answers (/api/openapi.json).

The answers model tables.play.payloads' dicts field for field (django-ninja sends only what a
response schema names); the table state is tables.play.state_schema's. Errors are the API's one
error body; each endpoint lists the statuses it can answer with (``errors``).
"""

from __future__ import annotations

from typing import Any, Literal

from ninja import Schema
from pydantic import Field

from tables.play.state_schema import (
    EventOut,
    RulesetOut,
    ScoreRowOut,
    SeatOut,
    TableStateOut,
    TableStatus,
)

# -- input -----------------------------------------------------------------------------------


class NameIn(Schema):
    name: str | None = Field(None, max_length=40, description="A guest's name, when not logged in")


class TableOptionsIn(Schema):
    """The options a table is opened with (services.create_table), for a table, a challenge or a seek."""

    ruleset: str = Field("playgridia", description="playgridia, classic, reino or oklahoma")
    target: int | None = Field(
        None,
        strict=True,  # a whole number as such: not true, 12.5 or "150"
        description="points that end the match (1 to 10000, e.g. 50, 100, 150, 250); "
        "null: the rule set's own (playgridia one deal, classic and reino 100)",
    )
    hollywood: bool = Field(False, description="Hollywood scoring: three games to the target at once")
    custom: dict[str, Any] | None = Field(None, description="Other rules.Ruleset options to override")
    turn_seconds: int = Field(86400, description="30, 45, 60, 90, 600, 43200, 86400, 259200, 604800")
    visibility: str = Field("invite", description="invite (link only) or public (listed in the lobby)")
    spectator_chat: bool = True
    forfeit_after: int = Field(3, description="consecutive timed-out turns that forfeit the match")
    move_log: bool | None = Field(
        None,
        description="the move log on the table page; null: on for clocks of 12 h and more, off for live ones",
    )
    time_bank: bool | None = Field(
        None,
        strict=True,  # true or false as such: not "yes" or 1
        description="a time bank for each player, drawn on when a turn's own clock runs out; null: on "
        "for clocks of 12 h and more (3 days to start, 3 days back per 10 moves, at most 7 days), off "
        "for live ones (on: the same in turn clocks, a day being one turn clock)",
    )

    rated: bool = Field(
        False, description="Glicko-2 rated: accounts only (a guest is refused 403; robots are unrated)"
    )


class CreateTableIn(NameIn, TableOptionsIn):
    pass


class VersionIn(Schema):
    expected_version: int | None = Field(None, description="the table version the client acts on")


class BotIn(Schema):
    level: str = Field(..., description="tito, carmen or luna")


class MoveIn(Schema):
    action: str = Field(
        ...,
        max_length=24,
        description="take_upcard, pass, draw_stock, take_discard, "
        "discard, knock, big_gin; or the whole action, e.g. 'discard 7H'",
    )
    card: str | None = Field(None, max_length=3, description="the card of discard / knock, e.g. 7H")
    expected_version: int = Field(..., description="the table version the move was chosen at")
    client_move_id: str | None = Field(None, min_length=1, max_length=64, description="idempotency key")


class ChatIn(Schema):
    text: str = Field(..., description="plain text, at most 500 characters")


class MuteIn(Schema):
    seat: int
    muted: bool = True


# -- errors ----------------------------------------------------------------------------------


# -- answers ---------------------------------------------------------------------------------


class MoveSummaryOut(Schema):
    """A row of the move log; a stock draw's card only to its drawer."""

    seq: int
    seat: int
    action: str
    card: str | None
    table_version: int
    source: Literal["player", "bot", "timeout"]
    created_at: str


class MoveOut(Schema):
    applied: bool
    replayed: bool = Field(description="the client_move_id was seen before: nothing was applied")
    move: MoveSummaryOut
    events: list[EventOut]
    state: TableStateOut


class MoveLogOut(Schema):
    deal: int | None = Field(description="the current deal's number")
    moves: list[MoveSummaryOut]


class ChatMessageOut(Schema):
    id: int
    channel: Literal["players", "spectators"]
    author: str
    author_url: str | None = Field(description="the author's player page; null for guests and robots")
    text: str
    created_at: str


class ChatHistoryOut(Schema):
    messages: list[ChatMessageOut]


class MuteOut(Schema):
    seat: int
    muted: bool


class DealExportOut(Schema):
    """A deal as rules.replay (or rules.Deal.from_dict) reads it."""

    format: int
    ruleset: RulesetOut
    dealer: int
    deck: list[str]
    actions: list[str]
    number: int
    outcome: str | None


class MatchRecordOut(Schema):
    """rules.Match.to_dict(): the score sheet and how the match ended."""

    format: int
    ruleset: RulesetOut
    first_dealer: int
    deals: list[ScoreRowOut]
    ended_by: Literal["resign", "forfeit"] | None
    leaver: int | None


class MatchExportOut(Schema):
    match: MatchRecordOut
    number: int
    deals: list[DealExportOut]


class MyTableOut(Schema):
    table: str
    ruleset: str
    target: int | None = Field(description="the match's target score; None: a single deal")
    hollywood: bool = Field(description="Hollywood scoring: three games at once")
    status: TableStatus
    seat: int | None
    opponent: SeatOut | None
    your_move: bool
    deadline: str | None
    seconds_left: int | None
    totals: list[int] | None
    version: int


class MyTablesOut(Schema):
    tables: list[MyTableOut]


class LobbyRowOut(Schema):
    table: str
    ruleset: str
    target: int | None
    hollywood: bool = Field(description="Hollywood scoring: three games at once")
    owner: str
    owner_is_bot_account: bool = Field(description="the owner is a bot account (shown BOT)")
    owner_url: str | None = Field(description="the owner's player page; null for a guest")
    rated: bool
    turn_seconds: int
    created_at: str


class LobbyOut(Schema):
    tables: list[LobbyRowOut]


# -- challenges and seeks ----------------------------------------------------------------------


# -- the archive (tables.archive.api) ----------------------------------------------------------


# -- deal reviews (tables.reviews.services, bots/review.py) ------------------------------------
