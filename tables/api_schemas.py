"""The JSON API's bodies: what each endpoint takes and what it answers (/api/openapi.json).

The answers model tables.payloads' dicts field for field (django-ninja sends only what a
response schema names); the table state is tables.state_schema's. Errors are the API's one
error body; each endpoint lists the statuses it can answer with (``errors``).
"""

from __future__ import annotations

import datetime as dt
from typing import Any, Literal

from ninja import Schema
from pydantic import Field

from .state_schema import (
    Cards,
    DealResult,
    EventOut,
    GroupingOut,
    RulesetOut,
    ScoreRowOut,
    SeatOut,
    SeatScoreOut,
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


class TokenIn(Schema):
    name: str = Field("", max_length=60)


class ProfileIn(Schema):
    display_name: str | None = Field(None, max_length=40)
    deck_design: str | None = None
    language: str | None = None
    time_zone: str | None = Field(None, max_length=64)
    alert_prefs: dict[str, Any] | None = None


# -- errors ----------------------------------------------------------------------------------


class ErrorOut(Schema):
    """Every refusal (docs/api.md, "Errors"); a refused request changes nothing."""

    error: str = Field(description="the error's code, e.g. not_found or stale_version")
    detail: str = Field(description="a sentence saying why")
    field: str | None = Field(None, description="the input field at fault, when one is")


class ConflictOut(ErrorOut):
    state: TableStateOut | None = Field(None, description="stale_version: the caller's state now")


class RateLimitedOut(ErrorOut):
    retry_after: int = Field(description="seconds to wait")


ERROR_BODIES: dict[int, type[ErrorOut]] = {409: ConflictOut, 429: RateLimitedOut}


def errors(*statuses: int) -> dict[int, type[ErrorOut]]:
    """The error answers of an endpoint, by status."""
    return {status: ERROR_BODIES.get(status, ErrorOut) for status in statuses}


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


class VacationOut(Schema):
    until: str | None = Field(description="while on vacation: when it ends")
    last_day: str | None = Field(description="while on vacation: its last day, in the account's time zone")
    allowance_days: int = Field(description="vacation days per calendar year")
    year: int = Field(description="the current year, in the account's time zone")
    days_left: int = Field(description="days of this year's allowance not yet used")


class ProfileOut(Schema):
    display_name: str
    is_guest: bool
    deck_design: str
    language: str
    time_zone: str
    alert_prefs: dict[str, Any]
    vacation: VacationOut


class VacationIn(Schema):
    until: dt.date = Field(description="the vacation's last day, in the account's time zone")


class LobbyRowOut(Schema):
    table: str
    ruleset: str
    target: int | None
    hollywood: bool = Field(description="Hollywood scoring: three games at once")
    owner: str
    owner_url: str | None = Field(description="the owner's player page; null for a guest")
    rated: bool
    turn_seconds: int
    created_at: str


class LobbyOut(Schema):
    tables: list[LobbyRowOut]


class TokenOut(Schema):
    id: int
    name: str
    prefix: str
    created_at: str
    last_used_at: str | None


class NewTokenOut(TokenOut):
    token: str = Field(description="the token itself: shown this once, never again")


class TokensOut(Schema):
    tokens: list[TokenOut]


class RevokedOut(Schema):
    revoked: int


# -- challenges and seeks ----------------------------------------------------------------------


class ChallengeIn(TableOptionsIn):
    opponent_id: int | None = Field(None, description="the challenged account's player id")
    opponent_name: str | None = Field(
        None, max_length=40, description="or its display name, when exactly one account has it"
    )


class SeekIn(TableOptionsIn):
    min_rating: int | None = Field(
        None, strict=True, description="the lowest rating a taker may have at the pace of the clock"
    )
    max_rating: int | None = Field(
        None, strict=True, description="the highest (a player with no rating yet counts as 1500)"
    )


class ChallengeOut(Schema):
    id: int
    kind: str = Field(description="challenge (to one account) or seek (to anyone)")
    status: str = Field(description="open, accepted, declined, withdrawn or lapsed")
    challenger: str
    challenger_id: int
    challenged: str | None
    challenged_id: int | None
    ruleset: str
    turn_seconds: int
    pace: str = Field(description="slow (a turn clock of 12 h or more) or live")
    min_rating: int | None = Field(description="a seek's rating range at its pace (null: open)")
    max_rating: int | None
    options: dict[str, Any]
    created_at: str
    expires_at: str
    table: str | None = Field(description="the invite token of the table, once accepted")


class ChallengesOut(Schema):
    received: list[ChallengeOut]
    sent: list[ChallengeOut]


class SeeksOut(Schema):
    seeks: list[ChallengeOut]


# -- the archive (tables.archive_api) ----------------------------------------------------------


class ArchiveMatchOut(Schema):
    """A match as the archive shows it: who played, the rules, the score and how it ended."""

    id: int
    number: int
    table_public: bool
    ruleset: str
    target: int | None
    players: list[SeatOut | None]
    status: Literal["playing", "over"]
    outcome: Literal["completed", "resigned", "forfeit"] | None
    winner: int | None
    score: list[int] = Field(description="each seat's final total (deal points while in play)")
    final_scores: list[SeatScoreOut] | None
    started_at: str
    ended_at: str | None


class ArchiveDealOut(Schema):
    number: int
    status: Literal["playing", "over", "abandoned"]
    outcome: str | None = Field(description="knock, gin, big_gin, undercut or dead; null if not played out")
    winner: int | None
    points: int
    totals: list[int] | None = Field(description="the running totals after this deal")
    replayable: bool = Field(description="the caller may fetch its replay")


class MatchArchiveOut(ArchiveMatchOut):
    deals: list[ArchiveDealOut]


class ReplayHandOut(Schema):
    """A hand at one step, grouped into the engine's best melds."""

    cards: Cards
    melds: list[Cards]
    deadwood_cards: Cards
    deadwood: int


class ReplayMoveOut(Schema):
    seat: int
    kind: str = Field(description="the action's kind: take_upcard, pass, draw_stock, ...")
    card: str | None = Field(description="the card moved (a stock draw's too: the deal is over)")


class ReplayStepOut(Schema):
    version: int = Field(description="the number of actions applied: 0 is the deal as dealt")
    move: ReplayMoveOut | None
    hands: list[ReplayHandOut]
    stock_count: int
    discard_pile: Cards = Field(description="top last")
    phase: str
    to_play: int | None


class ReplayShowdownOut(Schema):
    result: DealResult
    knocker: int | None
    knock_face_down: bool = Field(description="the rule set's knock lays its discard face down (classic)")
    dead_hands: list[GroupingOut] | None
    score_sheet: list[ScoreRowOut] = Field(description="the match's score sheet up to this deal")


class ReplayDealOut(ArchiveDealOut):
    dealer: int


class DealReplayOut(Schema):
    """A deal step by step, rebuilt by the engine from its deck and move log."""

    match: ArchiveMatchOut
    deal: ReplayDealOut
    steps: list[ReplayStepOut]
    showdown: ReplayShowdownOut | None


class ArchiveListOut(Schema):
    matches: list[ArchiveMatchOut]
    page: int
    pages: int


# -- deal reviews (tables.services.reviews, bots/review.py) ------------------------------------

Verdict = Literal["good", "inaccuracy", "mistake", "blunder"]


class ReviewChoiceOut(Schema):
    action: str
    chance: float = Field(description="LUNA's estimate of the match-winning chance after this move, 0 to 1")
    hindsight: float | None = Field(description="the same on the real hidden cards (one play-out)")


class ReviewDecisionOut(Schema):
    number: int = Field(description="the move's sequence number in the deal (the move log's seq)")
    seat: int
    phase: Literal["offer", "draw", "discard"]
    played: str
    best: str = Field(description="LUNA's preferred move")
    played_chance: float
    best_chance: float
    loss: float = Field(description="best_chance - played_chance (never below 0)")
    verdict: Verdict
    knock_deadwood: int | None = Field(description="the deadwood a played knock showed")
    hindsight_best: str | None = Field(description="set only where hindsight changes the verdict")
    hindsight_loss: float | None
    hindsight_verdict: Verdict | None
    choices: list[ReviewChoiceOut]


class ReviewResultOut(Schema):
    seats: list[int]
    decisions: list[ReviewDecisionOut]
    start_chances: list[float] = Field(description="each seat's match-winning chance at the deal's start")
    end_chances: list[float] = Field(description="...and at the score the deal ended with")
    thresholds: list[tuple[str, float]]


class SeatReviewOut(Schema):
    seat: int = Field(description="whose decisions")
    status: Literal["pending", "running", "done", "failed"]
    done: int = Field(description="decisions reviewed so far")
    total: int = Field(description="decisions to review (0 until a worker starts)")
    result: ReviewResultOut | None = Field(description="once done")


class ThresholdOut(Schema):
    verdict: Verdict
    loss: float = Field(description="the least loss in match-winning chance (0 to 1) marked so")


class DealReviewOut(Schema):
    match: int
    deal: int
    thresholds: list[ThresholdOut]
    reviews: list[SeatReviewOut] = Field(description="the seats the caller may see; empty until asked for")
