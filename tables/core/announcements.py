"""A committed change of a table, announced once to whoever subscribes.

The writers (tables/play/services/, the chat's among them, and asking for a deal's review) announce
every change after their transaction commits; live publishing (tables/live/events.py) and
background work (tables/background/scheduling.py) subscribe to it in tables/apps.py. The writers
never import what follows a change, so a new follow-up is a new receiver, not an edit of every
writer. Plain Django signals, sent only after commit.

Each change is of one ChangeKind, and what follows it is that kind's Rules, declared here and
nowhere else: the subscribers and the follow-up task read the rules, never the kind's name.
"""

from __future__ import annotations

import enum
import logging
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from django.db import transaction
from django.dispatch import Signal

log = logging.getLogger(__name__)

# Sent with ``change`` (a TableChange) once the transaction that made it has committed.
table_changed = Signal()


class ChangeKind(enum.StrEnum):
    """What a committed change was. Its value names it in Celery messages (ChangeKind(value)
    reads it back) and, but for a draw, on the sockets."""

    MOVE = "move"  # a player's or a bot's move that passed the turn, or ended the deal
    DRAW = "draw"  # a draw: the same player still to discard, under the same clock
    TIMEOUT = "timeout"  # a turn's clock ran out and the server played the turn
    STATE = "state"  # any other change of the game: a match begins, a deal is dealt, a resignation...
    VACATION = "vacation"  # a seated player's vacation began or ended: a clock stopped or runs again
    MORE_TIME = "more_time"  # the waiting player gave the one to play more time
    SEAT = "seat"  # who sits at the table, or the name they show, changed
    REMATCH = "rematch"  # a rematch offered, declined or withdrawn
    CHAT = "chat"  # a message in the table's chat: the table's version stays as it was
    REVIEW = "review"  # reviews of a finished deal asked for: nothing at the table changed

    @property
    def rules(self) -> Rules:
        return RULES[self]

    @property
    def told_as(self) -> str:
        """The kind as the table's sockets are told it."""
        return self.rules.told_as or self.value


class Alerts(enum.Enum):
    """Which alerts a change may send (tables/alerts/notify.py, alerts_for)."""

    TURN = "turn"  # "your move" to whoever is to play now, or "match over" to both players
    REMATCH = "rematch"  # the offer, to the player offered a rematch while it stands; else as TURN
    CHAT = "chat"  # the newest players' message, to the players who did not write it


@dataclass(frozen=True, kw_only=True)
class Rules:
    """What follows a committed change. No defaults but ``told_as``: every kind states every rule."""

    published: bool  # the table's sockets are told (a table event)
    carries_states: bool  # with each seated player's own state at the new version
    seats_changed: bool  # who is at the table is published again (presence)
    new_version: bool  # a new version of the table: of a table's, only the newest is followed up
    plans_deadline: bool  # the turn's clock may have changed: the deadline's fast path is planned
    alerts: Alerts | None  # which alerts it may send; None: it is news to nobody
    recounts_pending: bool  # the players' counts of tables awaiting them ("your move") may change
    told_as: str | None = None  # the kind the sockets are told, when not the kind's own value

    @property
    def follows_up(self) -> bool:
        """Whether the follow-up task (tables/play/tasks.py, table_changed) runs at all."""
        return self.plans_deadline or self.alerts is not None or self.recounts_pending


# A change of the game: the sockets get each player's state, then the turn's deadline, the alerts
# and the counts follow. The other kinds are told by how they differ from it.
_GAME = Rules(
    published=True,
    carries_states=True,
    seats_changed=False,
    new_version=True,
    plans_deadline=True,
    alerts=Alerts.TURN,
    recounts_pending=True,
)

RULES: dict[ChangeKind, Rules] = {
    ChangeKind.MOVE: _GAME,
    # To the sockets a move like any other; nothing follows: the drawer was told when the turn
    # began, and the clock and the counts are as they were.
    ChangeKind.DRAW: replace(
        _GAME, plans_deadline=False, alerts=None, recounts_pending=False, told_as=ChangeKind.MOVE.value
    ),
    ChangeKind.TIMEOUT: _GAME,
    ChangeKind.STATE: _GAME,
    # A stopped clock has no deadline: nobody is alerted until it runs again (notify).
    ChangeKind.VACATION: _GAME,
    # The same turn, only longer: its new deadline is planned; the table page shows the rest, and
    # nobody's count changed.
    ChangeKind.MORE_TIME: replace(_GAME, alerts=None, recounts_pending=False),
    # The sockets read the table from the database (the writer has no deal's rows loaded).
    ChangeKind.SEAT: replace(_GAME, carries_states=False, seats_changed=True),
    ChangeKind.REMATCH: replace(_GAME, carries_states=False, alerts=Alerts.REMATCH),
    # A message shares its version with the change before it, whose follow-up still goes; it
    # changes neither the turn's clock nor anyone's count.
    ChangeKind.CHAT: Rules(
        published=True,
        carries_states=False,
        seats_changed=False,
        new_version=False,
        plans_deadline=False,
        alerts=Alerts.CHAT,
        recounts_pending=False,
    ),
    # Only the reviews to compute follow (TableChange.reviews): nothing to tell, plan or alert.
    ChangeKind.REVIEW: Rules(
        published=False,
        carries_states=False,
        seats_changed=False,
        new_version=False,
        plans_deadline=False,
        alerts=None,
        recounts_pending=False,
    ),
}


@dataclass(frozen=True)
class TableChange:
    table_id: int
    version: int
    kind: ChangeKind
    # Each seated player's own state at ``version``, by player id, built from the committed rows.
    states: dict[str, dict[str, Any]] | None = None
    bot_turn: int | None = None  # the deal at which a bot is now to play
    reviews: tuple[int, ...] = ()  # the deal reviews to hand to a worker
    # Other tables whose sockets are told too: those that show the same chat (a game's boards).
    also_tell: tuple[int, ...] = ()


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


# Sent with ``change`` (a MatchEnd) once the transaction that ended a match has committed: a
# room that follows matches (tables.tournaments) subscribes; the move path never sends it.
match_ended = Signal()


@dataclass(frozen=True)
class MatchEnd:
    table_id: int
    match_id: int


def announce_match_end_on_commit(change: MatchEnd) -> None:
    transaction.on_commit(lambda: _send_match_end(change))


def _send_match_end(change: MatchEnd) -> None:
    for receiver, result in match_ended.send_robust(sender=MatchEnd, change=change):
        if isinstance(result, Exception):
            log.error("%s failed on the end of match %s", receiver, change.match_id, exc_info=result)
