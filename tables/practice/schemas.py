"""Practice positions in the JSON API (/api/openapi.json)."""

from __future__ import annotations

from typing import Any, Literal

from ninja import Schema
from pydantic import Field


class ReasonOut(Schema):
    melds: list[list[str]] = Field(description="the melds of the hand LUNA's move leaves")
    deadwood: int = Field(description="its deadwood points (after a take: after its best discard)")
    opponent_took: list[str] = Field(
        description="cards the opponent was seen to take from the pile and still holds"
    )


class PracticeOut(Schema):
    id: int
    match_id: int
    deal: int
    number: int = Field(description="the decision's move number in the deal")
    verdict: Literal["mistake", "blunder"]
    view: dict[str, Any] = Field(
        description="the player's own view just before the move (as the table's deal.view)"
    )
    answered: bool
    answer: str | None = Field(None, description="once answered: the move given")
    played: str | None = Field(None, description="once answered: the move played in the deal")
    luna: str | None = Field(None, description="once answered: LUNA's choice (for points of the deal)")
    reason: ReasonOut | None = Field(None, description="once answered: why, in facts the player could see")
    points_loss: float | None = Field(None, description="once answered: what the move played lost, in points")
    matches_luna: bool | None = None


class PracticeListOut(Schema):
    positions: list[PracticeOut] = Field(description="not yet answered first, then the latest")


class AnswerIn(Schema):
    action: str = Field(description="a legal move of the position, as in its view's legal_actions")
