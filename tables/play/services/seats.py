"""Opening a table and filling its seats before the match: players, guests and bots."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils.translation import gettext

import rules
from tables.accounts.models import Player
from tables.bank import engine as bank
from tables.core.announcements import ChangeKind
from tables.core.errors import BadRequest, Conflict, Forbidden
from tables.play import engine
from tables.play.models import Table
from tables.play.selectors import TableRef
from tables.play.services.common import (
    Outcome,
    announce,
    bump,
    check_version,
    lock_table,
    require_owner,
    seat_of,
)
from tables.ratings.services import may_sit_at, require_rated_seat
from tables.social.selectors import blocked_between

FORFEIT_AFTER_RANGE = range(1, 11)


def create_table(owner: Player, **options: Any) -> Table:
    """A new table with its owner in seat 0; the options (check_table_options) are fixed from now
    on. ``move_log`` and ``time_bank`` None: on for a slow clock (Table.SLOW_CLOCK_SECONDS and
    up), off for a live one."""
    rules_value = check_table_options(**options)
    for rules_option in ("custom", "target", "ruleset", "hollywood"):  # they are in the rule set
        options.pop(rules_option, None)
    if options.get("rated") and (owner.user_id is None or owner.is_bot):
        raise Forbidden("Rated tables are for accounts: sign up or log in to open one.")
    require_rated_seat(owner, bool(options.get("rated")))
    move_log = options.pop("move_log", None)
    if move_log is None:  # on for a slow clock, off for a live one
        move_log = options.get("turn_seconds", Table.DEFAULT_TURN_SECONDS) >= Table.SLOW_CLOCK_SECONDS
    turn_seconds = options.get("turn_seconds", Table.DEFAULT_TURN_SECONDS)
    terms = _bank_terms(turn_seconds, options.pop("time_bank", None))
    table: Table = Table.objects.create(
        owner=owner,
        bank_start=terms.start,
        bank_refill=terms.refill,
        bank_cap=terms.cap,
        seat0=owner,
        ruleset_name=rules_value.name,
        ruleset=rules_value.to_dict(),
        move_log=move_log,
        **options,
    )
    return table


def check_table_options(
    *,
    ruleset: str = "playgridia",
    target: int | None = None,
    custom: dict[str, Any] | None = None,
    hollywood: bool = False,
    turn_seconds: int = Table.DEFAULT_TURN_SECONDS,
    visibility: str = Table.Visibility.INVITE,
    spectator_chat: bool = True,
    forfeit_after: int = 3,
    move_log: bool | None = None,
    time_bank: bool | None = None,
    rated: bool = False,
    vacation_stops_clock: bool = True,
    rematches: bool = True,
) -> rules.Ruleset:
    """The table's rule set from its options; raises BadRequest on any option a table refuses.
    A challenge checks its options with it when it is made, long before the table exists."""
    rules_value = engine.build_ruleset(ruleset, target, custom, hollywood)
    if turn_seconds not in Table.TURN_CLOCKS:
        choices = ", ".join(str(seconds) for seconds in Table.TURN_CLOCKS)
        raise BadRequest(f"turn_seconds must be one of {choices}.", field="turn_seconds")
    if visibility not in Table.Visibility.values:
        raise BadRequest("visibility must be 'invite' or 'public'.", field="visibility")
    if forfeit_after not in FORFEIT_AFTER_RANGE:
        raise BadRequest("forfeit_after must be from 1 to 10 turns.", field="forfeit_after")
    if not isinstance(vacation_stops_clock, bool):
        raise BadRequest(gettext("vacation_stops_clock must be true or false."), field="vacation_stops_clock")
    if not isinstance(rematches, bool):
        raise BadRequest(gettext("rematches must be true or false."), field="rematches")
    if time_bank is not None and not isinstance(time_bank, bool):
        raise BadRequest(gettext("time_bank must be true, false or null."), field="time_bank")
    return rules_value


def _bank_terms(turn_seconds: int, time_bank: bool | None) -> bank.Terms:
    """The table's bank: on by default for a slow clock, off for a live one; none is all zeros."""
    slow = Table.pace_of(turn_seconds) == "slow"
    if not (slow if time_bank is None else time_bank):
        return bank.Terms(0, 0, 0)
    return bank.terms_for(turn_seconds, slow)


def join_table(table_ref: TableRef, player: Player, *, paired: bool = False) -> Outcome:
    """Take the free seat before the match starts; otherwise the caller watches (no change).
    ``paired``: a tournament seats its pairing, whatever block either made after both entered
    (the match is the event's; a block still hides its chat, as at any running match)."""
    with transaction.atomic():
        table = lock_table(table_ref)
        seat = table.seat_of(player)
        if seat is not None or table.current_deal_id is not None:
            return Outcome(table, seat)
        free = _free_seats(table)
        if not free:
            return Outcome(table, None)
        require_rated_seat(player, table.rated)
        if not may_sit_at(table, player):
            raise Forbidden("This table is rated: only players with an account sit here. Sign up or log in.")
        if not paired:
            _refuse_blocked(table, player)
        _sit(table, free[0], player)
        return Outcome(table, free[0])


def _refuse_blocked(table: Table, player: Player) -> None:
    """An account does not sit down with one it blocks or that blocks it (tables.social),
    whether it came by the lobby or by the invite link."""
    if player.user_id is None:
        return  # a guest blocks nobody and nobody can block a guest
    others = {table.seat0_id, table.seat1_id, table.owner_id} - {None, player.pk}
    if any(blocked_between(other, player.pk) for other in others if other is not None):
        raise Forbidden(gettext("You cannot sit at this table."))


def bot_player(level: str) -> Player:
    if level not in Player.BotLevel.values:
        raise BadRequest("level must be one of tito, carmen, luna.", field="level")
    bot, _ = Player.objects.get_or_create(
        is_bot=True, bot_level=level, defaults={"display_name": Player.BotLevel(level).label}
    )
    return bot


def add_bot(table_ref: TableRef, actor: Player, level: str, expected_version: int | None = None) -> Outcome:
    """The owner puts a bot (TITO, CARMEN or LUNA) in the free seat."""
    with transaction.atomic():
        bot = bot_player(level)  # inside: a refused request leaves no new bot row behind
        table = lock_table(table_ref)
        require_owner(table, actor, "Only the table's owner can add a bot.")
        if table.current_deal_id is not None:
            raise Conflict("The match has already started.")
        free = _free_seats(table)
        if not free:
            raise Conflict("Both seats are taken.")
        if not may_sit_at(table, bot):
            raise Forbidden("Robots are unrated: they cannot sit at a rated table.")
        check_version(table, expected_version)
        _sit(table, free[0], bot)
        return Outcome(table, table.seat_of(actor))


def leave_seat(table_ref: TableRef, actor: Player, expected_version: int | None = None) -> Outcome:
    """Before the match starts a guest may stand up, and the owner may remove a bot."""
    with transaction.atomic():
        table = lock_table(table_ref)
        if table.current_deal_id is not None:
            raise Conflict("The match has started: resign instead.")
        seat = seat_of(table, actor)
        if actor.pk == table.owner_id:
            seat = 1 - seat  # the owner never leaves their own table: they clear the other seat
            if table.seats[seat] is None:
                raise Conflict("The other seat is already free.")
        check_version(table, expected_version)
        _sit(table, seat, None)
        return Outcome(table, table.seat_of(actor))


def _free_seats(table: Table) -> list[int]:
    return [number for number, occupant in enumerate(table.seats) if occupant is None]


def _sit(table: Table, seat: int, player: Player | None) -> None:
    setattr(table, f"seat{seat}", player)
    bump(table, f"seat{seat}")
    announce(table, None, ChangeKind.SEAT)


def leave_for_good(table_ref: TableRef, player: Player) -> bool:
    """A deleted (or suspended) account leaves a table where no match has started: another's table frees its
    seat; its own table, never played, is removed (nobody is left to start it). Its running
    matches end by ``resign`` first, and ``rematch.withdraw_rematch`` clears standing offers.
    Whether the table is still there."""
    with transaction.atomic():
        table = lock_table(table_ref)
        if table.current_deal_id is not None or table.matches.exists():
            return True
        seat = table.seat_of(player)
        if table.owner_id == player.pk:
            table.delete()
            return False
        if seat is not None:
            _sit(table, seat, None)
        return True
