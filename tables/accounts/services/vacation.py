"""Vacation: an account away for days keeps its slow tables.

While an account is on vacation, the clock of each of its turns at a slow table
(Table.SLOW_CLOCK_SECONDS and longer) stands still: the deal keeps the seconds that were left
(``Deal.paused_left``) and has no deadline. When the vacation ends (the player ends it, or its
last day is over and the sweep notices) each stopped clock starts again with that time, as
Chess.com's daily games do (Lichess has no vacation). Live clocks run on. The allowance is
counted in tables/accounts/vacation_days.py.

The player's row is locked first, then each table as every writer locks it; every table the
player sits at with a match under way gets a new version, so the opponent sees the vacation.
"""

from __future__ import annotations

import datetime as dt
import enum

from django.db import transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext

from tables.accounts import selectors as account_selectors
from tables.accounts import vacation_days
from tables.accounts.models import Player, Vacation
from tables.alerts import services as inbox_lines
from tables.core.announcements import ChangeKind
from tables.core.errors import BadRequest, Conflict, Forbidden
from tables.play.models import Deal, Match, Table
from tables.play.services.common import (
    Outcome,
    announce,
    bump,
    clock_stopped_for,
    keep_clock,
    lock_current_deal,
    lock_table,
    turn_clock,
)

_CLOCK_FIELDS = ["deadline", "paused_left"]


def declare_vacation(player: Player, last_day: dt.date) -> Player:
    """Be on vacation from now (or go on being) until the end of ``last_day``, a day in the
    player's time zone. Refused for guests and bots, for a day already past, and when the
    days it needs are more than the year's allowance has left."""
    if player.is_guest or player.is_bot:
        raise Forbidden(gettext("Only accounts take vacation: sign up to keep your tables while away."))
    with transaction.atomic():
        player = _lock_player(player.pk)
        now = timezone.now()
        if player.vacation_until is not None and player.vacation_until <= now:
            _finish(player, player.vacation_until)  # its last day ended before the sweep came
        today = vacation_days.local_day(now, player.time_zone)
        if last_day < today:
            raise BadRequest(gettext("The vacation must end today or later."), field="until")
        if last_day > today + dt.timedelta(days=vacation_days.LONGEST_DAYS):
            raise BadRequest(gettext("That end date is too far away."), field="until")
        current = _current(player, now)
        first_day = current.first_day if current is not None else today
        others = account_selectors.vacation_days_of(player, exclude=current)
        short = vacation_days.shortfall(others, first_day, last_day)
        if short is not None:
            raise BadRequest(
                gettext(
                    "That vacation needs %(needed)d days of %(year)d and you have %(left)d left"
                    " (%(allowance)d a year)."
                )
                % {
                    "needed": short.needed,
                    "year": short.year,
                    "left": short.left,
                    "allowance": vacation_days.ALLOWANCE_DAYS,
                },
                field="until",
            )
        ends_at = vacation_days.end_of_day(last_day, player.time_zone)
        if current is None:
            current = Vacation(player=player, first_day=first_day, starts_at=now)
        current.last_day, current.ends_at = last_day, ends_at
        current.save()
        player.vacation_started_at, player.vacation_until = current.starts_at, ends_at
        player.save(update_fields=["vacation_started_at", "vacation_until"])
        for table_id in account_selectors.playing_table_ids(player):
            _stop_clock_at(table_id, now)
        return player


class AutoStart(enum.Enum):
    """Why start_automatic_vacation started none (it answers the Outcome when it did)."""

    STALE = "stale"  # that turn is no longer running out (played, held, or started already)
    NO_DAYS = "no_days"  # the year has no day left for it: the turn times out


def set_automatic_vacation(player: Player, on: bool) -> Player:
    """Opt in to automatic vacation, or out (accounts only)."""
    if player.is_guest or player.is_bot:
        raise Forbidden(gettext("Only accounts take vacation: sign up to keep your tables while away."))
    with transaction.atomic():
        player = _lock_player(player.pk)
        player.auto_vacation = on
        player.save(update_fields=["auto_vacation"])
        return player


def start_automatic_vacation(player_id: int, table_id: int, expected_deadline: str) -> Outcome | AutoStart:
    """The turn of an opted-in player at table ``table_id``, due at ``expected_deadline`` (ISO),
    ran out at a slow clock: a vacation starts now until the end of today (the player's time
    zone), counted as one the player declares, and its clock stops with nothing left (it times
    out when the vacation ends, unless another day starts then). The player's row is locked
    first, then every table where the player plays in order, as declare_vacation does; a race
    between the sweeper and the ETA task starts it once (the second finds the clock stopped)."""
    with transaction.atomic():
        player = _lock_player(player_id)
        now = timezone.now()
        if player.vacation_until is not None and player.vacation_until <= now:
            _finish(player, player.vacation_until)  # its last day ended before the sweep came
        table_ids = account_selectors.playing_table_ids(player)
        found = {pk: _playing_deal(pk) for pk in table_ids}.get(table_id)  # locked in order
        if found is None or not _runs_out(*found, player, expected_deadline, now):
            return AutoStart.STALE
        table, deal = found
        today = vacation_days.local_day(now, player.time_zone)
        if vacation_days.shortfall(account_selectors.vacation_days_of(player), today, today) is not None:
            return AutoStart.NO_DAYS
        ends_at = vacation_days.end_of_day(today, player.time_zone)
        one_day = Vacation(player=player, first_day=today, last_day=today, started_at_table=table)
        one_day.starts_at, one_day.ends_at = now, ends_at
        one_day.save()
        player.vacation_started_at, player.vacation_until = now, ends_at
        player.save(update_fields=["vacation_started_at", "vacation_until"])
        _stop(table, deal, now)  # past its deadline: turn time and bank are both spent
        for pk in table_ids:
            _stop_clock_at(pk, now)
        _tell_auto_vacation(player, table, one_day)
        return Outcome(lock_table(table_id), None)


def _tell_auto_vacation(player: Player, table: Table, one_day: Vacation) -> None:
    """The player's inbox line of the day that started instead of a timeout, with that day."""
    seat = table.seat_of(player)
    opponent = inbox_lines.opponent_name(table, seat) if seat is not None else "?"
    path = reverse("table", args=[table.invite_token])
    inbox_lines.tell(player, "auto_vacation", f"vacation:{one_day.pk}", path, opponent=opponent)


def _runs_out(table: Table, deal: Deal, player: Player, expected_deadline: str, now: dt.datetime) -> bool:
    """Is the turn of ``player`` due at ``expected_deadline`` overdue now, at a slow clock, with
    the player opted in and not on vacation?"""
    return (
        deal.status == Deal.Status.PLAYING
        and deal.to_play is not None
        and deal.to_play == table.seat_of(player)
        and deal.deadline is not None
        and deal.deadline.isoformat() == expected_deadline
        and deal.deadline <= now
        and table.stops_for_vacation
        and player.auto_vacation
        and not player.on_vacation(now)
    )


def end_vacation(player: Player) -> Player:
    """Back early: the clocks start again now, and the days not begun are given back."""
    with transaction.atomic():
        player = _lock_player(player.pk)
        if player.vacation_until is None:
            raise Conflict(gettext("You are not on vacation."))
        _finish(player, min(timezone.now(), player.vacation_until))
        return player


def expire_vacation(player_id: int, expected_until: str) -> bool:
    """The sweep: the vacation that was to end at ``expected_until`` (ISO) is over. Stale (the
    player ended or moved it meanwhile), or not over yet: does nothing."""
    with transaction.atomic():
        player = _lock_player(player_id)
        until = player.vacation_until
        if until is None or until.isoformat() != expected_until or until > timezone.now():
            return False
        _finish(player, until)
        return True


def sweep_vacations() -> int:
    """End every vacation whose last day is over; returns how many ended."""
    return sum(expire_vacation(pk, until.isoformat()) for pk, until in account_selectors.ended_vacations())


def hold_overdue_clock(table: Table, deal: Deal) -> Outcome | None:
    """The clock of a player on vacation ran out (a turn that began while the vacation was
    being declared, or an ETA task): it stops with what it had left when the vacation began.
    None when it ran out before that: the turn times out as always."""
    player = table.seats[deal.to_play] if deal.to_play is not None else None
    started = player.vacation_started_at if player is not None else None
    if started is None or deal.deadline is None or deal.deadline <= started:
        return None
    _stop(table, deal, started)
    bump(table)
    announce(table, deal, ChangeKind.VACATION)
    return Outcome(table, None)


def _lock_player(pk: int) -> Player:
    player: Player = Player.objects.select_for_update().get(pk=pk)
    return player


def _current(player: Player, now: dt.datetime) -> Vacation | None:
    return _row_of(player) if player.on_vacation(now) else None


def _row_of(player: Player) -> Vacation | None:
    """The row of the vacation the player's fields describe."""
    if player.vacation_until is None:
        return None
    return player.vacations.filter(ends_at=player.vacation_until).order_by("-starts_at").first()


def _finish(player: Player, at: dt.datetime) -> None:
    """The vacation ends at ``at``: its last day becomes the day of ``at`` (a day begun counts),
    and each clock it stopped runs again from ``at`` with the time it had left."""
    current = _row_of(player)
    if current is not None and at < current.ends_at:
        current.ends_at = at
        current.last_day = max(current.first_day, vacation_days.local_day(at, player.time_zone))
        current.save(update_fields=["ends_at", "last_day"])
    player.vacation_started_at = player.vacation_until = None
    player.save(update_fields=["vacation_started_at", "vacation_until"])
    for table_id in account_selectors.playing_table_ids(player):
        _restart_clock_at(table_id, player, at)


def _playing_deal(table_id: int) -> tuple[Table, Deal] | None:
    table = lock_table(table_id)
    if table.current_deal_id is None:
        return None
    deal = lock_current_deal(table)
    return (table, deal) if deal.match.status == Match.Status.PLAYING else None


def _stop_clock_at(table_id: int, now: dt.datetime) -> None:
    """The vacation began: the clock of a turn now running stops; the opponent is told."""
    found = _playing_deal(table_id)
    if found is None:
        return
    table, deal = found
    running = deal.status == Deal.Status.PLAYING and deal.deadline is not None and deal.deadline > now
    if running and deal.deadline is not None and clock_stopped_for(table, deal.to_play, now):
        _stop(table, deal, now)
    bump(table)
    announce(table, deal, ChangeKind.VACATION)


def _restart_clock_at(table_id: int, player: Player, at: dt.datetime) -> None:
    found = _playing_deal(table_id)
    if found is None:
        return
    table, deal = found
    if deal.paused_left is not None and deal.to_play == table.seat_of(player):
        deal.deadline = at + dt.timedelta(seconds=deal.paused_left)
        deal.paused_left = None
        deal.save(update_fields=_CLOCK_FIELDS)
    bump(table)
    announce(table, deal, ChangeKind.VACATION)


def _stop(table: Table, deal: Deal, at: dt.datetime) -> None:
    """The clock stops with what it had left at ``at``: turn time (at most MAX_CLOCK_PERIODS
    turns) and the bank not yet spent."""
    most = table.MAX_CLOCK_PERIODS * table.turn_seconds
    keep_clock(table, deal, turn_clock(table, deal).stopped(at, most))
    deal.save(update_fields=_CLOCK_FIELDS)
