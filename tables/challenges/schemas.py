"""Challenges and seeks in the JSON API: what each endpoint takes and answers (/api/openapi.json)."""

from __future__ import annotations

from typing import Any

from ninja import Schema
from pydantic import Field

from tables.play.schemas import TableOptionsIn


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
    challenger_is_bot_account: bool = Field(description="a bot account (shown BOT): it plays unrated only")
    challenged: str | None
    challenged_id: int | None
    challenged_is_bot_account: bool
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
