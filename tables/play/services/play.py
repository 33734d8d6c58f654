"""A player's move: checked against the table, applied by the engine, logged, and announced.

A move sent twice (a client retrying) is recognised by its client move id and answered with
the move it already made, never applied again.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext

import rules
from tables.accounts.models import Player
from tables.core.announcements import ChangeKind
from tables.core.errors import Conflict, Forbidden, RatedMoveByToken, ServiceError, StaleVersion
from tables.core.writes import CompiledInsert, CompiledUpdate, WriteBatch
from tables.play import engine
from tables.play.models import Deal, Match, Move, Table
from tables.play.selectors import TableRef, mid_turn
from tables.play.services.common import (
    Outcome,
    announce,
    bump,
    check_version,
    deadline,
    end_turn_bank,
    lock_current_deal,
    lock_table,
    lock_table_and_deal,
    seat_of,
    start_clock,
)
from tables.play.services.matches import end_match

# What play changes on a deal row; its deck, rule set and number are written once, when dealt.
DEAL_PLAY_FIELDS = (
    "snapshot",
    "version",
    "phase",
    "to_play",
    "status",
    "outcome",
    "winner",
    "points",
    "deadline",
    "paused_left",
    "more_time_given",
    "decided_by_timeout",
    "ended_at",
    "knocker",
    "knocker_deadwood",
    "turns0",
    "turns1",
    "timeouts0",
    "timeouts1",
)

_SAVE_PLAY = CompiledUpdate(Deal, DEAL_PLAY_FIELDS)


def rated_move_by_token_refusal() -> str:
    """Why a move sent with an API token at a rated table is refused (HTTP and the socket)."""
    return gettext(
        "This table is rated: a person plays rated games on the site's pages, not through an API "
        "token. Programs play unrated tables, from a bot account."
    )


_INSERT_MOVE = CompiledInsert(Move)


def parse_action(action: str | rules.Action, card: str | None = None) -> rules.Action:
    if isinstance(action, rules.Action):
        return action
    text = f"{action} {card}" if card else action
    return rules.Action.parse(text)


def apply_move(
    table_ref: TableRef,
    actor: Player | None,
    action: str | rules.Action,
    expected_version: int | None,
    client_move_id: str | None = None,
    source: str = Move.Source.PLAYER,
    card: str | None = None,
    by_token: bool = False,
) -> Outcome:
    """Play one action for the actor's seat. Raises rules.IllegalMove (with the engine's reason)
    or a ServiceError; a repeated ``client_move_id`` returns the first move without replaying it.
    ``by_token``: sent with an API token (HTTP or socket), refused at a rated table."""
    try:
        return _apply_move(table_ref, actor, action, expected_version, client_move_id, source, card, by_token)
    except StaleVersion:
        raise  # the table had moved on: _apply_move looked the id up already
    except (IntegrityError, ServiceError, rules.IllegalMove):
        # An id used before at the version the client still holds (a client reusing its ids)
        # was not looked up: whatever stopped the move, the earlier move is the answer.
        if not client_move_id:
            raise
        with transaction.atomic():
            table = lock_table(table_ref)
            seat = seat_of(table, actor)
            replay = _replay(table, seat, lock_current_deal(table), client_move_id)
        if replay is None:
            raise
        return replay


def _apply_move(
    table_ref: TableRef,
    actor: Player | None,
    action: str | rules.Action,
    expected_version: int | None,
    client_move_id: str | None,
    source: str,
    card: str | None,
    by_token: bool,
) -> Outcome:
    with transaction.atomic():
        table, deal = lock_table_and_deal(table_ref)
        seat = seat_of(table, actor)
        if by_token and table.rated:
            raise RatedMoveByToken(rated_move_by_token_refusal())
        deal = deal or lock_current_deal(table)  # without a deal: "the match has not started"
        # A move already applied has moved the table past the version its client sent: only
        # then is its id looked up first (the move log lookup costs as much as the move).
        if client_move_id and expected_version != table.version:
            replay = _replay(table, seat, deal, client_move_id)
            if replay is not None:
                return replay
        check_version(table, expected_version)
        if deal.status != Deal.Status.PLAYING or deal.match.status != Match.Status.PLAYING:
            raise Conflict("The deal is over: no more moves.")
        if deal.to_play != seat:
            raise Forbidden("It is not your turn.")
        parsed = parse_action(action, card)
        state = engine.load_deal(deal)
        state, events = state.apply(parsed, seat=seat)
        writes = WriteBatch()  # the move row, the deal and the table: one statement
        move = append_move(writes, table, deal, seat, parsed, events, actor, source, client_move_id)
        _reset_timeouts(deal.match, seat)
        save_state(writes, table, deal, state)
        bump(table, batch=writes)
        writes.run()
        # A draw leaves the same player to discard under the same clock: decided here, once.
        announce(table, deal, ChangeKind.DRAW if mid_turn(deal) else ChangeKind.MOVE)
        return Outcome(table, seat, move, events=[event.for_seat(seat) for event in events])


def _replay(table: Table, seat: int, deal: Deal, client_move_id: str) -> Outcome | None:
    """The answer to a move sent again: the move its id already made, if any."""
    earlier = Move.objects.filter(deal=deal, client_move_id=client_move_id).first()
    if earlier is None:
        return None
    if earlier.seat != seat:
        raise Conflict("That client move id was used by the other seat.")
    return Outcome(table, seat, earlier, replayed=True)


def append_move(
    writes: WriteBatch,
    table: Table,
    deal: Deal,
    seat: int,
    action: rules.Action,
    events: Sequence[rules.Event],
    actor: Player | None,
    source: str,
    client_move_id: str | None = None,
) -> Move:
    """The move's row in the log, written with the rest of ``writes``."""
    drawn = events[0].card if events and events[0].card is not None else action.card
    move: Move = writes.insert(
        _INSERT_MOVE,
        deal=deal,
        seq=deal.version + 1,
        seat=seat,
        action=str(action),
        card="" if drawn is None else str(drawn),
        table_version=table.version + 1,
        actor=actor,
        source=source,
        client_move_id=client_move_id or None,
    )
    return move


def _reset_timeouts(match: Match, seat: int) -> None:
    if match.timeouts_in_row[seat]:
        match.timeouts_in_row[seat] = 0
        match.save(update_fields=["timeouts_in_row"])


def save_state(
    writes: WriteBatch,
    table: Table,
    deal: Deal,
    state: rules.Deal,
    turn_of: int | None = None,
    timed_out: bool = False,
) -> None:
    """Save the deal's new state (the turn's clock restarts when the turn passes); a deal
    that is over is recorded in its match. ``turn_of``: who was to play before, if not the row's;
    ``timed_out``: the server played that turn."""
    before = deal.to_play if turn_of is None else turn_of
    turn_changed = before != state.to_play
    if before is not None and (turn_changed or state.is_over):
        deal.count_turn(before, timed_out)
        end_turn_bank(table, deal, before, timed_out, writes)
    engine.store_deal(deal, state)
    if state.is_over:
        deal.ended_at = timezone.now()
        deal.paused_left, deal.more_time_given = None, 0
        _record_deal(table, deal, state)
    elif turn_changed:
        start_clock(table, deal)
    writes.update(_SAVE_PLAY, deal)


def _record_deal(table: Table, deal: Deal, state: rules.Deal) -> None:
    match = deal.match
    record = engine.load_match(match).record(state)
    match.record = record.to_dict()
    if record.is_over:
        end_match(table, match, deal, record, Match.Outcome.COMPLETED)
        deal.deadline = None
    else:
        match.save(update_fields=["record"])
        deal.deadline = deadline(table)  # for the next deal: a player deals, else the server
