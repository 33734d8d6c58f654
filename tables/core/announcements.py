"""A committed change of a table, announced once to whoever subscribes.

The writers (tables/play/services/) announce every change after their transaction commits; live
publishing (tables/live/events.py) and background work (tables/background/scheduling.py) subscribe to it in
tables/apps.py. The writers never import what follows a change, so a new follow-up is a new
receiver, not an edit of every writer. Plain Django signals, sent only after commit.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.dispatch import Signal

log = logging.getLogger(__name__)

# Sent with ``change`` (a TableChange) once the transaction that made it has committed.
table_changed = Signal()


@dataclass(frozen=True)
class TableChange:
    table_id: int
    version: int
    kind: str  # "move", "timeout", "state", "seat", "rematch", "chat"
    # Alerts, the turn's deadline and the players' pending counts are due (a draw needs none:
    # the turn goes on with its clock; a chat message needs its alert only).
    follow_up: bool = True
    # Each seated player's own state at ``version``, by player id, built from the committed rows.
    states: dict[str, dict[str, Any]] | None = None
    bot_turn: int | None = None  # the deal at which a bot is now to play


def announce_on_commit(make: Callable[[], TableChange]) -> None:
    """Announce the change built by ``make`` once the current transaction commits (at once
    outside one). Built then, not now: a state is read from the rows as committed."""
    transaction.on_commit(lambda: announce(make()))


def announce(change: TableChange) -> None:
    """Tell every receiver; one receiver's failure never keeps the change from the others."""
    for receiver, result in table_changed.send_robust(sender=TableChange, change=change):
        if isinstance(result, Exception):
            log.error("%s failed on %s of table %s", receiver, change.kind, change.table_id, exc_info=result)


# Sent with ``change`` (a ChallengeChange) once a challenge's transaction has committed.
challenge_changed = Signal()


@dataclass(frozen=True)
class ChallengeChange:
    challenge_id: int
    event: str  # "received" (a new challenge), "accepted", "declined", "withdrawn"


def announce_challenge_on_commit(change: ChallengeChange) -> None:
    transaction.on_commit(lambda: _send_challenge(change))


def _send_challenge(change: ChallengeChange) -> None:
    for receiver, result in challenge_changed.send_robust(sender=ChallengeChange, change=change):
        if isinstance(result, Exception):
            log.error(
                "%s failed on challenge %s %s", receiver, change.challenge_id, change.event, exc_info=result
            )
