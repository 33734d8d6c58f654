"""What a caller sees of a challenge or seek, as a JSON-able dict."""

from __future__ import annotations

import datetime as dt
from typing import Any

from tables.challenges.models import Challenge
from tables.play.models import Table


def challenge_row(challenge: Challenge, now: dt.datetime) -> dict[str, Any]:
    """A challenge or seek as the API and the pages show it; a lapsed open one says so."""
    status = (
        "lapsed"
        if challenge.status == Challenge.Status.OPEN and not challenge.is_open(now)
        else challenge.status
    )
    challenged = challenge.challenged
    return {
        "id": challenge.pk,
        "kind": "seek" if challenge.is_seek else "challenge",
        "status": str(status),
        "challenger": challenge.challenger.name,
        "challenger_id": challenge.challenger_id,
        "challenger_is_bot_account": challenge.challenger.is_bot_account,
        "challenged": None if challenged is None else challenged.name,
        "challenged_id": challenge.challenged_id,
        "challenged_is_bot_account": challenged is not None and challenged.is_bot_account,
        "ruleset": challenge.ruleset_name,
        "turn_seconds": challenge.turn_seconds,
        "pace": Table.pace_of(challenge.turn_seconds),
        "min_rating": challenge.min_rating,
        "max_rating": challenge.max_rating,
        "options": challenge.options,
        "created_at": challenge.created_at.isoformat(),
        "expires_at": challenge.expires_at.isoformat(),
        "table": None if challenge.table is None else challenge.table.invite_token,
    }
