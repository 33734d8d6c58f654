"""Another match at the same table: offered, accepted or declined, and withdrawn when it lapses."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from tables.accounts.models import Player
from tables.alerts import services as inbox_lines
from tables.core.announcements import ChangeKind
from tables.core.errors import Conflict, NotFound
from tables.play.models import Deal, Match, Table
from tables.play.selectors import TableRef, lapsed_rematch_offers, rematch_lapsed
from tables.play.services.common import Outcome, announce, bump, lock_table, seat_of
from tables.play.services.matches import begin_match
from tables.ratings.services import require_rated_seat

REMATCH_FIELDS = ("rematch_offered_by", "rematch_declined_by", "rematch_offered_at")


def offer_rematch(table_ref: TableRef, actor: Player) -> Outcome:
    """After a match, offer another at the same table; a bot accepts at once. The offer stands
    until answered or until ``Table.rematch_expires_at``, when the sweeper withdraws it."""
    with transaction.atomic():
        table = lock_table(table_ref)
        seat = seat_of(table, actor)
        match = _require_match_over(table)
        if not table.rematches:
            raise Conflict(gettext("This table played a tournament's match: it offers no rematch."))
        require_rated_seat(actor, table.rated)
        if table.rematch_offered_by == 1 - seat:
            return _accept(table, seat)
        if table.rematch_offered_by == seat:
            return Outcome(table, seat)  # asking twice changes nothing, not even the expiry
        table.rematch_offered_by, table.rematch_declined_by = seat, None
        table.rematch_offered_at = timezone.now()
        opponent = table.seats[1 - seat]
        if opponent is not None and opponent.is_bot:
            return _accept(table, 1 - seat, caller_seat=seat)
        _change_offer(table)
        inbox_lines.rematch_offer(table, match, offered_by=seat)
        return Outcome(table, seat)


def accept_rematch(table_ref: TableRef, actor: Player) -> Outcome:
    return _answer_rematch(table_ref, actor, accept=True)


def decline_rematch(table_ref: TableRef, actor: Player) -> Outcome:
    return _answer_rematch(table_ref, actor, accept=False)


def _answer_rematch(table_ref: TableRef, actor: Player, *, accept: bool) -> Outcome:
    with transaction.atomic():
        table = lock_table(table_ref)
        seat = seat_of(table, actor)
        _require_match_over(table)
        if table.rematch_offered_by != 1 - seat:
            raise Conflict("Your opponent has not offered a rematch.")
        if accept:
            return _accept(table, seat)
        table.rematch_offered_by, table.rematch_declined_by = None, seat
        table.rematch_offered_at = None
        _change_offer(table)
        return Outcome(table, seat)


def _require_match_over(table: Table) -> Match:
    if table.current_deal_id is None:
        raise Conflict("No match has been played at this table yet.")
    match: Match = Deal.objects.select_related("match").get(pk=table.current_deal_id).match
    if match.status != Match.Status.OVER:
        raise Conflict("The match is still being played.")
    return match


def _accept(table: Table, seat: int, caller_seat: int | None = None) -> Outcome:
    number = table.matches.count() + 1
    deal = begin_match(table, number)
    table.rematch_offered_at = None
    bump(table, "current_deal", *REMATCH_FIELDS)
    announce(table, deal)
    return Outcome(table, seat if caller_seat is None else caller_seat)


def _change_offer(table: Table) -> None:
    bump(table, *REMATCH_FIELDS)
    announce(table, None, ChangeKind.REMATCH)


def expire_rematch_offer(table_id: int, expected_version: int) -> Outcome | None:
    """Withdraw the rematch offer standing at table version ``expected_version`` once its time
    is up. Stale (answered, renewed, any change since), early or repeated: does nothing."""
    with transaction.atomic():
        try:
            table = lock_table(table_id)
        except NotFound:
            return None
        if table.version != expected_version or not rematch_lapsed(table, timezone.now()):
            return None
        table.rematch_offered_by = table.rematch_offered_at = None
        _change_offer(table)
        return Outcome(table, None)


def withdraw_rematch(table_ref: TableRef) -> None:
    """Withdraw any rematch offer, or refusal, standing at a table (its account was deleted)."""
    with transaction.atomic():
        table = lock_table(table_ref)
        if table.rematch_offered_by is None and table.rematch_declined_by is None:
            return
        table.rematch_offered_by = table.rematch_declined_by = table.rematch_offered_at = None
        _change_offer(table)


def sweep_rematch_offers() -> int:
    """Withdraw every lapsed rematch offer once; returns how many were withdrawn."""
    outcomes = (expire_rematch_offer(table_id, version) for table_id, version in lapsed_rematch_offers())
    return sum(outcome is not None for outcome in outcomes)
