"""The review's bodies in the JSON API (/api/openapi.json)."""

from __future__ import annotations

from typing import Literal

from ninja import Schema
from pydantic import Field

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
