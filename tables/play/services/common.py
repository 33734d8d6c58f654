"""What every writer does: lock the table, check the actor and the expected version, bump the
version, and announce the change once the transaction has committed.

Each writer runs in one transaction that first locks the table row (select_for_update), then
the current deal row: the table lock serializes everything that happens at a table, so two
requests can never both apply a move for the same turn. Checks come before any write, so a
refused call changes nothing. The table's ``version`` goes up with every change of game state
and is what clients send back as ``expected_version``.
"""

from __future__ import annotations

import datetime as dt
import functools
import math
from dataclasses import dataclass, field

from django.db.models import QuerySet
from django.utils import timezone

import rules
from tables.accounts.models import Player
from tables.bank import engine as bank
from tables.core.announcements import ChangeKind, TableChange, announce_on_commit
from tables.core.errors import Conflict, Forbidden, NotFound, StaleVersion
from tables.core.reads import KEY_SAMPLE, CompiledRead
from tables.core.writes import CompiledUpdate, WriteBatch
from tables.play import payloads
from tables.play.models import Deal, Match, Move, Table
from tables.play.selectors import TableRef, table_by


@dataclass
class Outcome:
    """What a writer did: the locked table as committed, and the caller's seat there."""

    table: Table
    seat: int | None
    move: Move | None = None
    replayed: bool = False  # a repeated client move id: nothing was applied this time
    events: list[rules.Event] = field(default_factory=list)


def _locking_tables() -> QuerySet[Table]:
    return Table.objects.select_for_update(of=("self",)).select_related("seat0", "seat1")


# Every writer starts with these two locks: compiled once (tables/core/reads.py).
_LOCK_TABLE_BY_KEY = CompiledRead(lambda pk: _locking_tables().filter(pk=pk), sample=KEY_SAMPLE)
_LOCK_TABLE_BY_TOKEN = CompiledRead(lambda token: _locking_tables().filter(invite_token=token))
_LOCK_DEAL = CompiledRead(
    lambda pk: Deal.objects.select_for_update().select_related("match").filter(pk=pk), sample=KEY_SAMPLE
)


def _locking_tables_in_play() -> QuerySet[Table]:
    # A filter on a column of the deal makes its join inner: PostgreSQL locks no row on the
    # nullable side of an outer join. The deal's lock covers its match, as _LOCK_DEAL's does.
    locked = ("self", "current_deal", "current_deal__match")
    rows = Table.objects.select_for_update(of=locked).select_related("seat0", "seat1", "current_deal__match")
    return rows.filter(current_deal__version__gte=0)


_LOCK_TABLE_AND_DEAL_BY_KEY = CompiledRead(
    lambda pk: _locking_tables_in_play().filter(pk=pk), sample=KEY_SAMPLE
)
_LOCK_TABLE_AND_DEAL_BY_TOKEN = CompiledRead(
    lambda token: _locking_tables_in_play().filter(invite_token=token)
)


def lock_table(ref: TableRef) -> Table:
    return table_by(ref, _LOCK_TABLE_BY_KEY, _LOCK_TABLE_BY_TOKEN)


def lock_table_and_deal(ref: TableRef) -> tuple[Table, Deal | None]:
    """lock_table and lock_current_deal in one statement: a move's two locks in one round trip.
    A table without a deal is locked as lock_table does (the deal None)."""
    try:
        table = table_by(ref, _LOCK_TABLE_AND_DEAL_BY_KEY, _LOCK_TABLE_AND_DEAL_BY_TOKEN)
    except NotFound:
        return lock_table(ref), None
    return table, table.current_deal


def lock_current_deal(table: Table) -> Deal:
    """The table's deal, locked and attached to the table row: the answer is built from them."""
    if table.current_deal_id is None:
        raise Conflict("The match has not started yet.")
    deal: Deal = _LOCK_DEAL.get(table.current_deal_id)
    table.current_deal = deal
    return deal


def seat_of(table: Table, player: Player | None) -> int:
    seat = table.seat_of(player)
    if seat is None:
        raise Forbidden("You are not seated at this table: spectators watch, they do not play.")
    return seat


def require_owner(table: Table, actor: Player | None, message: str) -> None:
    if actor is None or actor.pk != table.owner_id:
        raise Forbidden(message)


def check_version(table: Table, expected_version: int | None) -> None:
    if expected_version is not None and expected_version != table.version:
        raise StaleVersion(
            f"The table has changed (version {table.version}, you sent {expected_version}).",
            extra={"version": table.version, "table": table.pk},
        )


def playing_match(table: Table) -> tuple[Deal, Match]:
    deal = lock_current_deal(table)
    if deal.match.status != Match.Status.PLAYING:
        raise Conflict("The match is over.")
    return deal, deal.match


def deadline(table: Table) -> dt.datetime:
    return timezone.now() + dt.timedelta(seconds=table.turn_seconds)


def clock_stopped_for(table: Table, seat: int | None, at: dt.datetime) -> bool:
    """Is the clock of ``seat`` stopped at ``at``: a slow table, its player on vacation."""
    player = table.seats[seat] if seat is not None else None
    return table.stops_for_vacation and player is not None and player.on_vacation(at)


def start_clock(table: Table, deal: Deal) -> None:
    """A new turn's clock: a full turn and its player's bank behind it, kept stopped while its
    player is on vacation."""
    deal.more_time_given = 0
    full = dt.timedelta(seconds=table.turn_seconds + bank_held(table, deal, deal.to_play))
    if clock_stopped_for(table, deal.to_play, timezone.now()):
        deal.deadline, deal.paused_left = None, math.ceil(full.total_seconds())
    else:
        deal.deadline, deal.paused_left = timezone.now() + full, None


def bank_held(table: Table, deal: Deal, seat: int | None) -> int:
    """The bank of ``seat``, inside its turn's deadline (0 at a table without a bank: its match
    row is not read)."""
    if not table.bank_cap or seat is None:
        return 0
    banks = deal.match.banks
    return int(banks[seat]) if banks else 0


def turn_clock(table: Table, deal: Deal) -> bank.TurnClock:
    return bank.TurnClock(deal.deadline, deal.paused_left, bank_held(table, deal, deal.to_play))


def keep_clock(table: Table, deal: Deal, clock: bank.TurnClock) -> None:
    """Put ``clock`` on the deal (the caller saves it); a bank it settled is saved on the match."""
    deal.deadline, deal.paused_left = clock.deadline, clock.paused_left
    if bank_held(table, deal, deal.to_play) != clock.bank and deal.to_play is not None:
        save_bank(deal.match, deal.to_play, clock.bank)


_SAVE_BANKS = CompiledUpdate(Match, ("banks",))


def save_bank(match: Match, seat: int, seconds: int, batch: WriteBatch | None = None) -> None:
    match.banks = [seconds if index == seat else held for index, held in enumerate(match.banks)]
    if batch is None:
        _SAVE_BANKS.save(match)
    else:
        batch.update(_SAVE_BANKS, match)


def end_turn_bank(table: Table, deal: Deal, seat: int, timed_out: bool, batch: WriteBatch) -> None:
    """``seat`` ended its turn (a move, or the server on timeout): what the turn took from its
    bank is spent and a move refills it, up to the cap."""
    terms = table.bank_terms
    if terms is None or not deal.match.banks:
        return
    held = bank_held(table, deal, seat)
    spent = bank.TurnClock(deal.deadline, deal.paused_left, held).spent(timezone.now())
    save_bank(deal.match, seat, bank.after_turn(held, spent, terms, timed_out), batch)


@functools.cache
def _table_update(fields: tuple[str, ...]) -> CompiledUpdate:
    return CompiledUpdate(Table, ("version", "updated_at", *fields))


def bump(table: Table, *fields: str, batch: WriteBatch | None = None) -> None:
    """The table's next version, saved with ``fields`` (in ``batch`` when given)."""
    table.version += 1
    if batch is None:
        _table_update(fields).save(table)
    else:
        batch.update(_table_update(fields), table)


def announce(table: Table, deal: Deal | None, kind: ChangeKind = ChangeKind.STATE) -> None:
    """Announce the table's change after commit, with what its kind's rules say follows it, and
    a bot's turn if it is now a bot's (``deal``: the current deal, None when the change leaves
    the game as it was)."""
    version = table.version
    with_states = deal is not None and kind.rules.carries_states  # its rows are loaded
    bot_turn = _bot_turn(table, deal)

    def change() -> TableChange:
        # If the row moved on before the commit (an outer transaction), sockets read the database.
        states = payloads.seated_states(table) if with_states and table.version == version else None
        table.published_states = states  # the mover's answer is built from them too
        return TableChange(table.pk, version, kind, states, bot_turn)

    announce_on_commit(change)


def _bot_turn(table: Table, deal: Deal | None) -> int | None:
    """The deal at which a bot is now to play. A bot never deals the next deal by itself: its
    opponent reads the end-of-deal box until pressing NEXT DEAL, or until the wait between deals
    runs out (the deal's deadline, as between two people: then the server deals)."""
    if deal is None or deal.match.status != Match.Status.PLAYING or deal.status != Deal.Status.PLAYING:
        return None
    player = table.seats[deal.to_play] if deal.to_play is not None else None
    return deal.pk if player is not None and player.is_bot else None
