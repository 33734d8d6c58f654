"""More time, as Lichess's "+": a player adds one turn clock to the opponent's running turn.

The turn may then have at most Table.MAX_CLOCK_PERIODS turn clocks left; a gift past that is
refused. A clock stopped by vacation gets the time on what it will resume with.
"""

from __future__ import annotations

import datetime as dt

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
    lock_table,
    playing_match,
    seat_of,
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
        most = table.MAX_CLOCK_PERIODS * period
        left = _seconds_left(deal)
        if left + period > most:
            raise Conflict(
                gettext("Your opponent already has as much time as can be given: at most %(n)d turns.")
                % {"n": table.MAX_CLOCK_PERIODS}
            )
        if deal.paused_left is not None:
            deal.paused_left += period
        elif deal.deadline is not None:
            deal.deadline += dt.timedelta(seconds=period)
        deal.more_time_given += 1
        deal.save(update_fields=_FIELDS)
        bump(table)
        announce(table, deal, ChangeKind.MORE_TIME)
        return Outcome(table, seat)


def _seconds_left(deal: Deal) -> float:
    if deal.paused_left is not None:
        return float(deal.paused_left)
    if deal.deadline is None:
        return 0.0
    return max(0.0, (deal.deadline - timezone.now()).total_seconds())
