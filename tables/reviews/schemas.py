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
    points: float = Field(
        0.0,
        description="expected points of the deal after this move, the seat's won minus lost (0: old scale)",
    )
    hindsight_points: float | None = Field(None, description="the same on the real hidden cards")


class ReviewDecisionOut(Schema):
    number: int = Field(description="the move's sequence number in the deal (the move log's seq)")
    seat: int
    phase: Literal["offer", "draw", "discard"]
    played: str
    points_best: str | None = Field(None, description="LUNA's preferred move for points of the deal")
    played_points: float | None = None
    best_points: float | None = None
    points_loss: float | None = Field(
        None, description="best_points - played_points (never below 0): the verdict's measure"
    )
    verdict: Verdict = Field(description="by points_loss (thresholds); by loss on the old scale")
    best: str = Field(description="LUNA's preferred move for the match (match-winning chance)")
    played_chance: float
    best_chance: float
    loss: float = Field(description="best_chance - played_chance (never below 0)")
    match_verdict: Verdict | None = Field(None, description="by loss (match_thresholds)")
    match_differs: bool = Field(
        False, description="the match judgement disagrees with the points one (near the target): show both"
    )
    knock_deadwood: int | None = Field(description="the deadwood a played knock showed")
    hindsight_best: str | None = Field(description="set only where hindsight changes the verdict")
    hindsight_loss: float | None = Field(description="in points of the deal (old scale: match chance)")
    hindsight_verdict: Verdict | None
    choices: list[ReviewChoiceOut]


class ReviewResultOut(Schema):
    seats: list[int]
    decisions: list[ReviewDecisionOut]
    start_chances: list[float] = Field(description="each seat's match-winning chance at the deal's start")
    end_chances: list[float] = Field(description="...and at the score the deal ended with")
    thresholds: list[tuple[str, float]] = Field(
        description="verdict, least loss (in points; old scale: chance)"
    )
    match_thresholds: list[tuple[str, float]] = Field([], description="verdict, least loss of match chance")
    accuracy: float | None = Field(
        None,
        description="0-100: 100 * exp(-mean points_loss / 4) over the decisions (None: none or old scale)",
    )
    scale: Literal["points", "match_chance"] = Field(
        "match_chance", description="points: verdicts in points of the deal; match_chance: an old review"
    )


class SeatReviewOut(Schema):
    seat: int = Field(description="whose decisions")
    status: Literal["pending", "running", "done", "failed"]
    done: int = Field(description="decisions reviewed so far")
    total: int = Field(description="decisions to review (0 until a worker starts)")
    result: ReviewResultOut | None = Field(description="once done")


class ThresholdOut(Schema):
    verdict: Verdict
    loss: float = Field(description="the least loss marked so")


class DealReviewOut(Schema):
    match: int
    deal: int
    thresholds: list[ThresholdOut] = Field(
        description="the verdicts' thresholds in expected points of the deal"
    )
    match_thresholds: list[ThresholdOut] = Field(
        description="the match judgement's, in match-winning chance (0 to 1)"
    )
    reviews: list[SeatReviewOut] = Field(description="the seats the caller may see; empty until asked for")


class AccuracyOut(Schema):
    accuracy: float | None = Field(
        description="0-100: 100 * exp(-mean loss in points of the deal per decision / 4); None: nothing reviewed"
    )
    decisions: int = Field(description="the reviewed decisions it is over")
    deals: int = Field(description="the reviewed deals (one seat's review each)")
    matches: int


class MatchAccuracyOut(Schema):
    seats: list[AccuracyOut] = Field(
        description="by seat, over the match's reviewed deals (reviews in points only)"
    )


class RobotAccuracyOut(AccuracyOut):
    name: str


class PlayerAccuracyOut(Schema):
    player: AccuracyOut = Field(
        description="over the player's last 10 rated matches with a review of their decisions"
    )
    robots: list[RobotAccuracyOut] = Field(
        description="each robot over all its reviewed decisions, for comparison"
    )
