"""A match's life at a table: starting it, dealing each deal, and ending it early."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

import rules
from tables.accounts.models import Player
from tables.alerts import services as inbox_lines
from tables.core.announcements import MatchEnd, announce_match_end_on_commit
from tables.core.errors import Conflict
from tables.fairplay.services import screen_later
from tables.play import engine
from tables.play.models import Deal, Match, Move, Table
from tables.play.selectors import TableRef
from tables.play.services.common import (
    Outcome,
    announce,
    bump,
    check_version,
    lock_table,
    playing_match,
    require_owner,
    seat_of,
    start_clock,
)
from tables.ratings.services import rate_match, require_rated_seat
from tables.records.services import record_match


def start_match(
    table_ref: TableRef,
    actor: Player,
    expected_version: int | None = None,
    first_dealer: int | None = None,
    board: str | None = None,
) -> Outcome:
    """The owner starts the first match once both seats are filled; ``first_dealer`` None: the
    engine draws who deals first (a tournament names it: home and away). ``board``: the match
    is one deal of a game of three or four (rules.Match's board kinds; tables.variants)."""
    with transaction.atomic():
        table = lock_table(table_ref)
        require_owner(table, actor, "Only the table's owner starts the match.")
        if table.current_deal_id is not None:
            raise Conflict("The match has already started.")
        if None in table.seats:
            raise Conflict("Both seats must be filled to start.")
        check_version(table, expected_version)
        deal = begin_match(table, number=1, first_dealer=first_dealer, board=board)
        bump(table, "current_deal", "rematch_offered_by", "rematch_declined_by")
        announce(table, deal)
        return Outcome(table, table.seat_of(actor))


def begin_match(table: Table, number: int, first_dealer: int | None = None, board: str | None = None) -> Deal:
    """Match ``number`` of the table and its first deal (the caller bumps and announces). At a
    rated table both seats are read afresh: one that became a bot account since it sat is refused."""
    if table.rated:
        for seated in Player.objects.filter(pk__in=(table.seat0_id, table.seat1_id)):
            require_rated_seat(seated, rated=True)
    record = engine.new_match(engine.ruleset_of(table.ruleset), first_dealer, board=board)
    match = Match.objects.create(
        table=table,
        number=number,
        ruleset=record.ruleset.to_dict(),
        first_dealer=record.first_dealer,
        record=record.to_dict(),
        timeouts_in_row=[0, 0],
        banks=[table.bank_start, table.bank_start] if table.bank_cap else [],
    )
    table.rematch_offered_by = table.rematch_declined_by = None
    return _deal(table, match, number=1, dealer=record.dealer)


def _deal(table: Table, match: Match, number: int, dealer: int) -> Deal:
    deal, _ = engine.new_deal_row(match, number, dealer)
    start_clock(table, deal)
    deal.save()
    table.current_deal = deal
    return deal


def next_deal(
    table_ref: TableRef,
    actor: Player | None,
    expected_version: int | None = None,
    source: str = Move.Source.PLAYER,
) -> Outcome:
    """Either seated person (the server when the wait between deals runs out) deals the next deal;
    a bot never does: its opponent reads the end of the deal first."""
    with transaction.atomic():
        table = lock_table(table_ref)
        seat = table.seat_of(actor) if source == Move.Source.TIMEOUT else seat_of(table, actor)
        deal, match = playing_match(table)
        if deal.status == Deal.Status.PLAYING:
            raise Conflict("The deal is still being played.")
        check_version(table, expected_version)
        dealer = engine.load_match(match).dealer
        new = _deal(table, match, number=deal.number + 1, dealer=dealer)
        Deal.objects.filter(pk=deal.pk).update(deadline=None)
        bump(table, "current_deal")
        announce(table, new)
        return Outcome(table, seat)


def resign(table_ref: TableRef, actor: Player, expected_version: int | None = None) -> Outcome:
    """The actor gives up the match: the opponent wins it."""
    with transaction.atomic():
        table = lock_table(table_ref)
        seat = seat_of(table, actor)
        deal, match = playing_match(table)
        check_version(table, expected_version)
        abandon(table, deal, match, Match.Outcome.RESIGNED, leaver=seat)
        bump(table)
        announce(table, deal)
        return Outcome(table, seat)


def abandon(table: Table, deal: Deal, match: Match, outcome: str, leaver: int) -> None:
    """End the match now; a deal in play stays unfinished, its hands never shown."""
    if deal.status == Deal.Status.PLAYING:
        deal.status = Deal.Status.ABANDONED
        deal.ended_at = timezone.now()
    deal.deadline, deal.paused_left = None, None
    deal.save()
    reason = "forfeit" if outcome == Match.Outcome.FORFEIT else "resign"
    end_match(table, match, deal, engine.load_match(match).resign(leaver, reason), outcome)


def end_match(table: Table, match: Match, last: Deal, record: rules.Match, outcome: str) -> None:
    """The one place a match ends (played to the end, resigned or forfeit): its ratings move, its
    players' records (tables.records) count it and their inbox lines are written here, in the same
    transaction, and a rated match that counted waits for its fair-play screening. ``last``: the
    match's last deal, as it stands in memory (the move that ended it may not have saved it yet)."""
    match.record = record.to_dict()
    match.status = Match.Status.OVER
    match.outcome = outcome
    match.winner = record.winner
    match.final_scores = engine.final_scores(record)
    match.decided_by_timeout = outcome == Match.Outcome.FORFEIT
    match.ended_at = timezone.now()
    match.save()
    if rate_match(match):
        screen_later(match)
    # A board (one deal of a game of three or four): its deals count, its end is its game's.
    record_match(table, match, last, board=record.board is not None)
    if record.board is None:
        inbox_lines.match_over(table, match, record)
    announce_match_end_on_commit(MatchEnd(table.pk, match.pk))
