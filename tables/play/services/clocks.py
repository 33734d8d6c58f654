"""When a turn's clock runs out: the server plays for the absent player, or deals the next deal.

Deadlines live on the deal rows. A player on vacation at a slow table never times out: the
clock stops instead (tables/accounts/services/vacation.py). A timeout arrives twice at most (its ETA task and the
sweeper); each carries the table version it was set at, and a stale one does nothing.
"""

from __future__ import annotations

import datetime as dt

from django.db import transaction
from django.utils import timezone

import rules
from tables.accounts.models import Player
from tables.accounts.services.vacation import AutoStart, hold_overdue_clock, start_automatic_vacation
from tables.core.announcements import ChangeKind
from tables.core.writes import WriteBatch
from tables.play import engine
from tables.play.models import Deal, Match, Move, Table
from tables.play.selectors import overdue_deals
from tables.play.services.common import (
    Outcome,
    announce,
    bump,
    clock_stopped_for,
    lock_current_deal,
    lock_table,
)
from tables.play.services.matches import abandon, next_deal
from tables.play.services.play import append_move, save_state


def apply_timeout(
    deal_id: int,
    expected_version: int,
    expected_deadline: str | None = None,
    *,
    may_start_vacation: bool = True,
) -> Outcome | None:
    """The clock of deal ``deal_id`` ran out at table version ``expected_version``: play for the
    absent player (pass, or draw then discard), or deal the next deal. Stale: does nothing.
    ``expected_deadline`` (ISO): the turn's deadline when the clock was set; a clock set as the
    turn began still holds after that player's own draw, which leaves the deadline as it was.
    A player who opted in to automatic vacation, at a slow table, starts a day of vacation
    instead while days are left (its writer locks the player's row first, so it runs after this
    transaction, which only looked; a turn moved on meanwhile is left alone)."""
    with transaction.atomic():
        table_id = Table.objects.filter(current_deal_id=deal_id).values_list("pk", flat=True).first()
        if table_id is None:
            return None
        table = lock_table(table_id)
        if table.current_deal_id != deal_id:
            return None
        deal = lock_current_deal(table)
        same_turn = expected_deadline is not None and _deadline_text(deal) == expected_deadline
        if table.version != expected_version and not same_turn:
            return None
        if deal.match.status != Match.Status.PLAYING or not _overdue(deal):
            return None
        if deal.status != Deal.Status.PLAYING:
            return next_deal(table, None, table.version, source=Move.Source.TIMEOUT)
        if clock_stopped_for(table, deal.to_play, timezone.now()):
            held = hold_overdue_clock(table, deal)  # on vacation: the clock stops, nobody times out
            if held is not None:
                return held
        absent = table.seats[deal.to_play] if deal.to_play is not None else None
        if absent is None or not may_start_vacation or not _wants_automatic_vacation(table, absent):
            return _time_out_turn(table, deal)
        turn_deadline = _deadline_text(deal)
    started = start_automatic_vacation(absent.pk, table.pk, turn_deadline or "")
    if isinstance(started, Outcome):
        return started
    if started is AutoStart.STALE:
        return None
    return apply_timeout(deal_id, expected_version, expected_deadline, may_start_vacation=False)


def _wants_automatic_vacation(table: Table, player: Player) -> bool:
    """Read from the rows already loaded: no query for an account that did not opt in."""
    return table.stops_for_vacation and player.auto_vacation and not player.on_vacation(timezone.now())


def _deadline_text(deal: Deal) -> str | None:
    return deal.deadline.isoformat() if deal.deadline else None


def _overdue(deal: Deal) -> bool:
    return deal.deadline is not None and deal.deadline <= timezone.now()


def _time_out_turn(table: Table, deal: Deal) -> Outcome:
    seat = deal.to_play
    assert seat is not None  # a deal in play always has someone to play
    state = engine.load_deal(deal)
    last_move = None
    writes = WriteBatch()
    while not state.is_over and state.to_play == seat:
        action = rules.timeout_action(state)
        state, events = state.apply(action, seat=seat)
        last_move = append_move(writes, table, deal, seat, action, events, None, Move.Source.TIMEOUT)
        deal.version = state.version  # the next log row's seq
    deal.decided_by_timeout = deal.decided_by_timeout or state.is_over
    match = deal.match
    match.timeouts_in_row[seat] += 1
    match.save(update_fields=["timeouts_in_row"])
    save_state(writes, table, deal, state, turn_of=seat, timed_out=True)
    bump(table, batch=writes)
    writes.run()  # before abandon, which saves the deal again
    if match.timeouts_in_row[seat] >= table.forfeit_after and match.status == Match.Status.PLAYING:
        abandon(table, deal, match, Match.Outcome.FORFEIT, leaver=seat)
    announce(table, deal, ChangeKind.TIMEOUT)
    return Outcome(table, None, last_move)


def sweep_overdue(now: dt.datetime | None = None) -> int:
    """Play every expired clock once; returns how many did something."""
    return sum(apply_timeout(deal_id, version) is not None for deal_id, version in overdue_deals(now))
