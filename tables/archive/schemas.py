"""The archive's bodies in the JSON API: finished matches, deals and replays (/api/openapi.json)."""

from __future__ import annotations

from typing import Literal

from ninja import Schema
from pydantic import Field

from tables.play.state_schema import (
    Cards,
    DealResult,
    GroupingOut,
    ScoreRowOut,
    SeatOut,
    SeatScoreOut,
)


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
