"""The time bank's arithmetic, on plain values: no database, so it can be checked exhaustively.

A turn's stored deadline is its own turn time followed by the bank of the player to play:
``deadline = turn end + bank``. The sweeper and the ETA task read that one deadline, so the
timeout comes only when both are spent. The bank is settled (what the turn took from it is
taken off) when the turn ends, when more time is given and when its clock stops for a vacation;
settling never moves the deadline.
"""

from __future__ import annotations

import datetime as dt
import math
from dataclasses import dataclass, replace

DAY = 24 * 3600
# The anchor: Board Game Arena's turn-based bank, 3 days per 10 moves, capped at 7 days.
SLOW_START = 3 * DAY
SLOW_REFILL = 3 * DAY // 10  # 7 h 12 min for each turn a player ends with a move
SLOW_CAP = 7 * DAY
REFERENCE_CLOCK = DAY  # live banks keep the slow proportions, one turn clock for a day


@dataclass(frozen=True)
class Terms:
    """A table's bank, in seconds: what each player starts a match with, gets back for each
    turn ended with a move, and may hold at most."""

    start: int
    refill: int
    cap: int

    def to_dict(self) -> dict[str, int]:
        return {"start": self.start, "refill": self.refill, "cap": self.cap}


def terms_for(turn_seconds: int, slow: bool) -> Terms:
    """The bank a table gets when it has one: days at a slow clock (the turn clock aside, as
    Board Game Arena's), the same proportions in turn clocks at a live one."""
    if slow:
        return Terms(SLOW_START, SLOW_REFILL, SLOW_CAP)
    scale = turn_seconds / REFERENCE_CLOCK
    return Terms(round(SLOW_START * scale), round(SLOW_REFILL * scale), round(SLOW_CAP * scale))


def slow_days() -> dict[str, int]:
    """The slow bank in whole days, for the pages that describe it (the help, the new-table form)."""
    return {"start": SLOW_START // DAY, "per_ten_moves": SLOW_REFILL * 10 // DAY, "cap": SLOW_CAP // DAY}


@dataclass(frozen=True)
class TurnClock:
    """The running turn's clock: ``deadline`` (turn end + bank), or stopped with ``paused_left``
    seconds (turn time + bank) to resume with; ``bank``: the part of either that is bank."""

    deadline: dt.datetime | None
    paused_left: int | None
    bank: int

    def spent(self, at: dt.datetime) -> int:
        """Bank seconds the turn has taken at ``at``: the time past its turn end, up to the bank."""
        if self.deadline is None:
            return 0
        turn_end = self.deadline - dt.timedelta(seconds=self.bank)
        return min(self.bank, max(0, math.ceil((at - turn_end).total_seconds())))

    def settled(self, at: dt.datetime) -> TurnClock:
        """The same deadline, with what the bank has spent by ``at`` taken off it."""
        return replace(self, bank=self.bank - self.spent(at))

    def turn_left(self, at: dt.datetime) -> float:
        """Turn time left at ``at``, the bank aside."""
        if self.paused_left is not None:
            return float(max(0, self.paused_left - self.bank))
        if self.deadline is None:
            return 0.0
        return max(0.0, (self.deadline - at).total_seconds() - self.bank)

    def stopped(self, at: dt.datetime, most_turn: int) -> TurnClock:
        """Stopped at ``at`` (a vacation): settled, with at most ``most_turn`` turn seconds kept."""
        settled = self.settled(at)
        if settled.deadline is None:
            return settled
        left = math.ceil(max(0.0, (settled.deadline - at).total_seconds()))
        return TurnClock(None, min(left, most_turn + settled.bank), settled.bank)

    def resumed(self, at: dt.datetime) -> TurnClock:
        """Running again from ``at`` with the turn time and bank it stopped with."""
        if self.paused_left is None:
            return self
        return TurnClock(at + dt.timedelta(seconds=self.paused_left), None, self.bank)

    def given(self, seconds: int, at: dt.datetime) -> TurnClock:
        """More time: ``seconds`` of turn time added on top of what is left at ``at``; the bank
        spent so far stays spent and the bank left stays behind the turn time."""
        if self.paused_left is not None:
            return replace(self, paused_left=self.paused_left + seconds)
        settled = self.settled(at)
        if settled.deadline is None:
            return settled
        turn_end = max(settled.deadline - dt.timedelta(seconds=settled.bank), at)
        return replace(settled, deadline=turn_end + dt.timedelta(seconds=seconds + settled.bank))


def after_turn(bank: int, spent: int, terms: Terms, timed_out: bool) -> int:
    """The bank after a turn that took ``spent`` of it: empty after a timeout (the deadline,
    bank included, had passed), else refilled for the move, never above the cap."""
    if timed_out:
        return 0
    return min(terms.cap, max(0, bank - spent) + terms.refill)
