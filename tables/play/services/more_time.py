"""More time, as Lichess's "+": a player adds one turn clock to the opponent's running turn.

The turn may then have at most Table.MAX_CLOCK_PERIODS turn clocks left (its player's time bank
aside, which stays behind them); a gift past that is refused. A clock stopped by vacation gets the
time on what it will resume with.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from tables.accounts.models import Player
from tables.core.announcements import ChangeKind
from tables.core.errors import Conflict
from tables.play.models import Deal
from tables.play.selectors import TableRef
from tables.play.services.common import (
    Outcome,
    announce,
    bump,
    check_version,
    keep_clock,
    lock_table,
    playing_match,
    seat_of,
    turn_clock,
)

_FIELDS = ["deadline", "paused_left", "more_time_given"]


def give_more_time(table_ref: TableRef, actor: Player | None, expected_version: int | None = None) -> Outcome:
    """Add one turn clock to the opponent's turn now being played."""
    with transaction.atomic():
        table = lock_table(table_ref)
        seat = seat_of(table, actor)
        check_version(table, expected_version)
        deal, _ = playing_match(table)
        if deal.status != Deal.Status.PLAYING:
            raise Conflict(gettext("No turn is being played: more time is given during a deal."))
        if deal.to_play == seat:
            raise Conflict(gettext("It is your turn: you can give more time only on your opponent's turn."))
        period = table.turn_seconds
        now = timezone.now()
        clock = turn_clock(table, deal).settled(now)
        if clock.turn_left(now) + period > table.MAX_CLOCK_PERIODS * period:
            raise Conflict(
                gettext("Your opponent already has as much time as can be given: at most %(n)d turns.")
                % {"n": table.MAX_CLOCK_PERIODS}
            )
        keep_clock(table, deal, clock.given(period, now))
        deal.more_time_given += 1
        deal.save(update_fields=_FIELDS)
        bump(table)
        announce(table, deal, ChangeKind.MORE_TIME)
        return Outcome(table, seat)
