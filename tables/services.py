"""The only way a change reaches a table: every HTTP view, socket, bot and timeout calls these.

Each service runs in one transaction that first locks the table row (select_for_update), then
the current deal row: the table lock serializes everything that happens at a table, so two
requests can never both apply a move for the same turn. Checks come before any write, so a
refused call changes nothing. The table's ``version`` goes up with every change of game state
and is what clients send back as ``expected_version``. Publishing the change and scheduling what
follows (a bot's turn) happen only after commit.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import functools
import logging
import zoneinfo
from dataclasses import dataclass, field
from functools import partial

from django.core.cache import cache
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone
from redis.exceptions import RedisError

import rules

from . import engine, identity, payloads, scheduling
from .errors import (
    BadRequest,
    Conflict,
    Forbidden,
    NotFound,
    RateLimited,
    ServiceError,
    StaleVersion,
    TooLarge,
)
from .events import publish_table_event
from .models import ChatMessage, ChatMute, Deal, Match, Move, Player, Table
from .reads import KEY_SAMPLE, CompiledRead
from .writes import CompiledInsert, CompiledUpdate, WriteBatch

log = logging.getLogger(__name__)

CHAT_RATE_COUNT = 5
CHAT_RATE_SECONDS = 10
FORFEIT_AFTER_RANGE = range(1, 11)

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
    "decided_by_timeout",
    "ended_at",
)

TableRef = int | str | Table  # a primary key, an invite token, or a row to re-lock


@dataclass
class Outcome:
    """What a service did: the locked table as committed, and the caller's seat there."""

    table: Table
    seat: int | None
    move: Move | None = None
    replayed: bool = False  # a repeated client move id: nothing was applied this time
    events: list[rules.Event] = field(default_factory=list)


# -- locking and checks --------------------------------------------------------------------


def _locking_tables():
    return Table.objects.select_for_update(of=("self",)).select_related("seat0", "seat1")


# Every service starts with these two locks: compiled once (tables/reads.py).
_LOCK_TABLE_BY_KEY = CompiledRead(lambda pk: _locking_tables().filter(pk=pk), sample=KEY_SAMPLE)
_LOCK_TABLE_BY_TOKEN = CompiledRead(lambda token: _locking_tables().filter(invite_token=token))
_LOCK_DEAL = CompiledRead(
    lambda pk: Deal.objects.select_for_update().select_related("match").filter(pk=pk), sample=KEY_SAMPLE
)


def _lock_table(ref: TableRef) -> Table:
    if isinstance(ref, Table):
        ref = ref.pk
    read = _LOCK_TABLE_BY_KEY if isinstance(ref, int) else _LOCK_TABLE_BY_TOKEN
    try:
        return read.get(ref)
    except (Table.DoesNotExist, ValueError):
        raise NotFound("There is no such table.") from None


def _lock_current_deal(table: Table) -> Deal:
    """The table's deal, locked and attached to the table row: the answer is built from them."""
    if table.current_deal_id is None:
        raise Conflict("The match has not started yet.")
    deal = _LOCK_DEAL.get(table.current_deal_id)
    table.current_deal = deal
    return deal


def _seat_of(table: Table, player: Player | None) -> int:
    seat = table.seat_of(player)
    if seat is None:
        raise Forbidden("You are not seated at this table: spectators watch, they do not play.")
    return seat


def _check_version(table: Table, expected_version: int | None) -> None:
    if expected_version is not None and expected_version != table.version:
        raise StaleVersion(
            f"The table has changed (version {table.version}, you sent {expected_version}).",
            extra={"version": table.version, "table": table.pk},
        )


def _playing_match(table: Table) -> tuple[Deal, Match]:
    deal = _lock_current_deal(table)
    if deal.match.status != Match.Status.PLAYING:
        raise Conflict("The match is over.")
    return deal, deal.match


# -- committing ----------------------------------------------------------------------------


_SAVE_PLAY = CompiledUpdate(Deal, DEAL_PLAY_FIELDS)
_INSERT_MOVE = CompiledInsert(Move)


@functools.cache
def _table_update(fields: tuple[str, ...]) -> CompiledUpdate:
    return CompiledUpdate(Table, ("version", "updated_at", *fields))


def _bump(table: Table, *fields: str, batch: WriteBatch | None = None) -> None:
    table.version += 1
    if batch is None:
        _table_update(fields).save(table)
    else:
        batch.update(_table_update(fields), table)


def _after_commit(table: Table, deal: Deal | None, kind: str = "state") -> None:
    """Publish the new version and hand a bot its turn, once the transaction has committed.
    A draw needs no follow-up task: the turn's clock, alerts and counts stand as they were."""
    follow_up = not (kind == "move" and mid_turn(deal))
    if deal is not None and kind in ("move", "timeout", "state"):  # a deal's rows are all loaded
        transaction.on_commit(partial(_publish_with_states, table, table.version, kind, follow_up))
    else:
        transaction.on_commit(partial(publish_table_event, table.pk, table.version, kind, follow_up))
    if deal is None or deal.match.status != Match.Status.PLAYING:
        return
    if deal.status == Deal.Status.PLAYING:
        player = table.seats[deal.to_play]
        if player is not None and player.is_bot:
            transaction.on_commit(partial(scheduling.schedule_bot_turn, deal.pk, table.version))
    elif any(player is not None and player.is_bot for player in table.seats):
        transaction.on_commit(partial(_bot_deals_next, table.pk, table.version))


def _publish_with_states(table: Table, version: int, kind: str, follow_up: bool) -> None:
    """A move's, a timeout's or a new deal's rows are all loaded and locked: build each seated
    player's state from them once, for that player's sockets (in any process) and the mover's
    answer, instead of a database read per socket (when a wave of deals ends, 1,000 sockets
    reading at once stalled the server). If the row moved on before the commit (an outer
    transaction), the sockets read the database as for any other change."""
    states = payloads.seated_states(table) if table.version == version else None
    table.published_states = states
    publish_table_event(table.pk, version, kind, follow_up, states=states)


def _bot_deals_next(table_id: int, version: int) -> None:
    """A bot never keeps its opponent waiting for the next deal."""
    table = get_table(table_id)
    bot = next((player for player in table.seats if player is not None and player.is_bot), None)
    if bot is None:
        return
    with contextlib.suppress(Conflict):  # someone dealt first, or the table changed since
        next_deal(table_id, bot, expected_version=version, source=Move.Source.BOT)


def _deadline(table: Table) -> dt.datetime:
    return timezone.now() + dt.timedelta(seconds=table.turn_seconds)


# -- tables and seats ----------------------------------------------------------------------


def create_table(
    owner: Player,
    *,
    ruleset: str = "playgridia",
    target: int | None = None,
    custom: dict | None = None,
    turn_seconds: int = Table.DEFAULT_TURN_SECONDS,
    visibility: str = Table.Visibility.INVITE,
    spectator_chat: bool = True,
    forfeit_after: int = 3,
) -> Table:
    """A new table with its owner in seat 0; the options are fixed from now on."""
    rules_value = engine.build_ruleset(ruleset, target, custom)
    if turn_seconds not in Table.TURN_CLOCKS:
        choices = ", ".join(str(seconds) for seconds in Table.TURN_CLOCKS)
        raise BadRequest(f"turn_seconds must be one of {choices}.", field="turn_seconds")
    if visibility not in Table.Visibility.values:
        raise BadRequest("visibility must be 'invite' or 'public'.", field="visibility")
    if forfeit_after not in FORFEIT_AFTER_RANGE:
        raise BadRequest("forfeit_after must be from 1 to 10 turns.", field="forfeit_after")
    return Table.objects.create(
        owner=owner,
        seat0=owner,
        ruleset_name=rules_value.name,
        ruleset=rules_value.to_dict(),
        turn_seconds=turn_seconds,
        visibility=visibility,
        spectator_chat=spectator_chat,
        forfeit_after=forfeit_after,
    )


def join_table(table_ref: TableRef, player: Player) -> Outcome:
    """Take the free seat before the match starts; otherwise the caller watches (no change)."""
    with transaction.atomic():
        table = _lock_table(table_ref)
        seat = table.seat_of(player)
        if seat is not None or table.current_deal_id is not None:
            return Outcome(table, seat)
        free = [number for number, occupant in enumerate(table.seats) if occupant is None]
        if not free:
            return Outcome(table, None)
        _seat(table, free[0], player)
        _bump(table, f"seat{free[0]}")
        _after_commit(table, None, "seat")
        return Outcome(table, free[0])


def _seat(table: Table, seat: int, player: Player | None) -> None:
    setattr(table, f"seat{seat}", player)


def bot_player(level: str) -> Player:
    if level not in Player.BotLevel.values:
        raise BadRequest("level must be one of tito, carmen, luna.", field="level")
    bot, _ = Player.objects.get_or_create(
        is_bot=True, bot_level=level, defaults={"display_name": Player.BotLevel(level).label}
    )
    return bot


def add_bot(table_ref: TableRef, actor: Player, level: str) -> Outcome:
    """The owner puts a bot (TITO, CARMEN or LUNA) in the free seat."""
    with transaction.atomic():
        bot = bot_player(level)  # inside: a refused request leaves no new bot row behind
        table = _lock_table(table_ref)
        _require_owner(table, actor, "Only the table's owner can add a bot.")
        if table.current_deal_id is not None:
            raise Conflict("The match has already started.")
        free = [number for number, occupant in enumerate(table.seats) if occupant is None]
        if not free:
            raise Conflict("Both seats are taken.")
        _seat(table, free[0], bot)
        _bump(table, f"seat{free[0]}")
        _after_commit(table, None, "seat")
        return Outcome(table, table.seat_of(actor))


def leave_seat(table_ref: TableRef, actor: Player) -> Outcome:
    """Before the match starts a guest may stand up, and the owner may remove a bot."""
    with transaction.atomic():
        table = _lock_table(table_ref)
        if table.current_deal_id is not None:
            raise Conflict("The match has started: resign instead.")
        seat = _seat_of(table, actor)
        if actor.pk == table.owner_id:
            seat = 1 - seat  # the owner never leaves their own table: they clear the other seat
            if table.seats[seat] is None:
                raise Conflict("The other seat is already free.")
        _seat(table, seat, None)
        _bump(table, f"seat{seat}")
        _after_commit(table, None, "seat")
        return Outcome(table, table.seat_of(actor))


def _require_owner(table: Table, actor: Player | None, message: str) -> None:
    if actor is None or actor.pk != table.owner_id:
        raise Forbidden(message)


# -- matches and deals ---------------------------------------------------------------------


def start_match(table_ref: TableRef, actor: Player, expected_version: int | None = None) -> Outcome:
    """The owner starts the first match once both seats are filled."""
    with transaction.atomic():
        table = _lock_table(table_ref)
        _require_owner(table, actor, "Only the table's owner starts the match.")
        if table.current_deal_id is not None:
            raise Conflict("The match has already started.")
        if None in table.seats:
            raise Conflict("Both seats must be filled to start.")
        _check_version(table, expected_version)
        deal = _begin_match(table, number=1)
        _bump(table, "current_deal", "rematch_offered_by", "rematch_declined_by")
        _after_commit(table, deal)
        return Outcome(table, table.seat_of(actor))


def _begin_match(table: Table, number: int) -> Deal:
    record = engine.new_match(engine.ruleset_of(table.ruleset))
    match = Match.objects.create(
        table=table,
        number=number,
        ruleset=record.ruleset.to_dict(),
        first_dealer=record.first_dealer,
        record=record.to_dict(),
        timeouts_in_row=[0, 0],
    )
    table.rematch_offered_by = table.rematch_declined_by = None
    return _deal(table, match, number=1, dealer=record.dealer)


def _deal(table: Table, match: Match, number: int, dealer: int) -> Deal:
    deal, _ = engine.new_deal_row(match, number, dealer)
    deal.deadline = _deadline(table)
    deal.save()
    table.current_deal = deal
    return deal


def next_deal(
    table_ref: TableRef,
    actor: Player | None,
    expected_version: int | None = None,
    source: str = Move.Source.PLAYER,
) -> Outcome:
    """Either player (a bot at once, the server when the clock runs out) deals the next deal."""
    with transaction.atomic():
        table = _lock_table(table_ref)
        seat = table.seat_of(actor) if source == Move.Source.TIMEOUT else _seat_of(table, actor)
        deal, match = _playing_match(table)
        if deal.status == Deal.Status.PLAYING:
            raise Conflict("The deal is still being played.")
        _check_version(table, expected_version)
        dealer = engine.load_match(match).dealer
        new = _deal(table, match, number=deal.number + 1, dealer=dealer)
        Deal.objects.filter(pk=deal.pk).update(deadline=None)
        _bump(table, "current_deal")
        _after_commit(table, new)
        return Outcome(table, seat)


# -- moves ---------------------------------------------------------------------------------


def parse_action(action: str | rules.Action, card: str | None = None) -> rules.Action:
    if isinstance(action, rules.Action):
        return action
    text = f"{action} {card}" if card else action
    return rules.Action.parse(text)


def apply_move(
    table_ref: TableRef,
    actor: Player | None,
    action: str | rules.Action,
    expected_version: int,
    client_move_id: str | None = None,
    source: str = Move.Source.PLAYER,
    card: str | None = None,
) -> Outcome:
    """Play one action for the actor's seat. Raises rules.IllegalMove (with the engine's reason)
    or a ServiceError; a repeated ``client_move_id`` returns the first move without replaying it."""
    try:
        return _apply_move(table_ref, actor, action, expected_version, client_move_id, source, card)
    except StaleVersion:
        raise  # the table had moved on: _apply_move looked the id up already
    except (IntegrityError, ServiceError, rules.IllegalMove):
        # An id used before at the version the client still holds (a client reusing its ids)
        # was not looked up: whatever stopped the move, the earlier move is the answer.
        if not client_move_id:
            raise
        with transaction.atomic():
            table = _lock_table(table_ref)
            seat = _seat_of(table, actor)
            replay = _replay(table, seat, _lock_current_deal(table), client_move_id)
        if replay is None:
            raise
        return replay


def _apply_move(table_ref, actor, action, expected_version, client_move_id, source, card) -> Outcome:
    with transaction.atomic():
        table = _lock_table(table_ref)
        seat = _seat_of(table, actor)
        deal = _lock_current_deal(table)
        # A move already applied has moved the table past the version its client sent: only
        # then is its id looked up first (the move log lookup costs as much as the move).
        if client_move_id and expected_version != table.version:
            replay = _replay(table, seat, deal, client_move_id)
            if replay is not None:
                return replay
        _check_version(table, expected_version)
        if deal.status != Deal.Status.PLAYING or deal.match.status != Match.Status.PLAYING:
            raise Conflict("The deal is over: no more moves.")
        if deal.to_play != seat:
            raise Forbidden("It is not your turn.")
        parsed = parse_action(action, card)
        state = engine.load_deal(deal)
        state, events = state.apply(parsed, seat=seat)
        writes = WriteBatch()  # the move row, the deal and the table: one statement
        move = _append_move(writes, table, deal, seat, parsed, events, actor, source, client_move_id)
        _reset_timeouts(deal.match, seat)
        _save_state(writes, table, deal, state)
        _bump(table, batch=writes)
        writes.run()
        _after_commit(table, deal, "move")
        return Outcome(table, seat, move, events=[event.for_seat(seat) for event in events])


def _replay(table: Table, seat: int, deal: Deal, client_move_id: str) -> Outcome | None:
    """The answer to a move sent again: the move its id already made, if any."""
    earlier = Move.objects.filter(deal=deal, client_move_id=client_move_id).first()
    if earlier is None:
        return None
    if earlier.seat != seat:
        raise Conflict("That client move id was used by the other seat.")
    return Outcome(table, seat, earlier, replayed=True)


def _append_move(writes, table, deal, seat, action, events, actor, source, client_move_id=None) -> Move:
    drawn = events[0].card if events and events[0].card is not None else action.card
    return writes.insert(
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


def _reset_timeouts(match: Match, seat: int) -> None:
    if match.timeouts_in_row[seat]:
        match.timeouts_in_row[seat] = 0
        match.save(update_fields=["timeouts_in_row"])


def _save_state(
    writes: WriteBatch, table: Table, deal: Deal, state: rules.Deal, turn_of: int | None = None
) -> None:
    """Save the deal's new state (the turn's clock restarts when the turn passes); a deal
    that is over is recorded in its match. ``turn_of``: who was to play before, if not the row's."""
    turn_changed = (deal.to_play if turn_of is None else turn_of) != state.to_play
    engine.store_deal(deal, state)
    if state.is_over:
        deal.ended_at = timezone.now()
        _record_deal(table, deal, state)
    elif turn_changed:
        deal.deadline = _deadline(table)
    writes.update(_SAVE_PLAY, deal)


def _record_deal(table: Table, deal: Deal, state: rules.Deal) -> None:
    match = deal.match
    record = engine.load_match(match).record(state)
    match.record = record.to_dict()
    if record.is_over:
        _end_match(match, record, Match.Outcome.COMPLETED)
        deal.deadline = None
    else:
        match.save(update_fields=["record"])
        deal.deadline = _deadline(table)  # for the next deal: a player deals, else the server


def _end_match(match: Match, record: rules.Match, outcome: str) -> None:
    match.record = record.to_dict()
    match.status = Match.Status.OVER
    match.outcome = outcome
    match.winner = record.winner
    match.final_scores = engine.final_scores(record)
    match.decided_by_timeout = outcome == Match.Outcome.FORFEIT
    match.ended_at = timezone.now()
    match.save()


# -- leaving and timeouts ------------------------------------------------------------------


def resign(table_ref: TableRef, actor: Player, expected_version: int | None = None) -> Outcome:
    """The actor gives up the match: the opponent wins it."""
    with transaction.atomic():
        table = _lock_table(table_ref)
        seat = _seat_of(table, actor)
        deal, match = _playing_match(table)
        _check_version(table, expected_version)
        _abandon(deal, match, Match.Outcome.RESIGNED, leaver=seat)
        _bump(table)
        _after_commit(table, deal)
        return Outcome(table, seat)


def _abandon(deal: Deal, match: Match, outcome: str, leaver: int) -> None:
    """End the match now; a deal in play stays unfinished, its hands never shown."""
    if deal.status == Deal.Status.PLAYING:
        deal.status = Deal.Status.ABANDONED
        deal.ended_at = timezone.now()
    deal.deadline = None
    deal.save()
    reason = "forfeit" if outcome == Match.Outcome.FORFEIT else "resign"
    _end_match(match, engine.load_match(match).resign(leaver, reason), outcome)


def apply_timeout(
    deal_id: int, expected_version: int, expected_deadline: str | None = None
) -> Outcome | None:
    """The clock of deal ``deal_id`` ran out at table version ``expected_version``: play for the
    absent player (pass, or draw then discard), or deal the next deal. Stale: does nothing.
    ``expected_deadline`` (ISO): the turn's deadline when the clock was set; a clock set as the
    turn began still holds after that player's own draw, which leaves the deadline as it was."""
    with transaction.atomic():
        table = Table.objects.filter(current_deal_id=deal_id).values_list("pk", flat=True).first()
        if table is None:
            return None
        table = _lock_table(table)
        if table.current_deal_id != deal_id:
            return None
        deal = _lock_current_deal(table)
        same_turn = expected_deadline is not None and _deadline_text(deal) == expected_deadline
        if table.version != expected_version and not same_turn:
            return None
        if deal.match.status != Match.Status.PLAYING or not _overdue(deal):
            return None
        if deal.status != Deal.Status.PLAYING:
            return next_deal(table, None, table.version, source=Move.Source.TIMEOUT)
        return _time_out_turn(table, deal)


def _deadline_text(deal: Deal) -> str | None:
    return deal.deadline.isoformat() if deal.deadline else None


def mid_turn(deal: Deal | None) -> bool:
    """The player to move has drawn and is still to discard (or knock): their turn goes on,
    with the same clock, nobody new to alert and no count to refresh."""
    return deal is not None and deal.status == Deal.Status.PLAYING and deal.phase == "discard"


def _overdue(deal: Deal) -> bool:
    return deal.deadline is not None and deal.deadline <= timezone.now()


def _time_out_turn(table: Table, deal: Deal) -> Outcome:
    seat = deal.to_play
    state = engine.load_deal(deal)
    last_move = None
    writes = WriteBatch()
    while not state.is_over and state.to_play == seat:
        action = rules.timeout_action(state)
        state, events = state.apply(action, seat=seat)
        last_move = _append_move(writes, table, deal, seat, action, events, None, Move.Source.TIMEOUT)
        deal.version = state.version  # the next log row's seq
    deal.decided_by_timeout = deal.decided_by_timeout or state.is_over
    match = deal.match
    match.timeouts_in_row[seat] += 1
    match.save(update_fields=["timeouts_in_row"])
    _save_state(writes, table, deal, state, turn_of=seat)
    _bump(table, batch=writes)
    writes.run()  # before _abandon, which saves the deal again
    if match.timeouts_in_row[seat] >= table.forfeit_after and match.status == Match.Status.PLAYING:
        _abandon(deal, match, Match.Outcome.FORFEIT, leaver=seat)
    _after_commit(table, deal, "timeout")
    return Outcome(table, None, last_move)


def overdue_deals(now: dt.datetime | None = None) -> list[tuple[int, int]]:
    """(deal id, table version) of every current deal whose clock has run out: for the sweeper."""
    rows = Table.objects.filter(
        current_deal__deadline__lte=now or timezone.now(), current_deal__match__status=Match.Status.PLAYING
    )
    return list(rows.values_list("current_deal_id", "version"))


def sweep_overdue(now: dt.datetime | None = None) -> int:
    """Play every expired clock once; returns how many did something."""
    return sum(apply_timeout(deal_id, version) is not None for deal_id, version in overdue_deals(now))


# -- rematch -------------------------------------------------------------------------------


REMATCH_FIELDS = ("rematch_offered_by", "rematch_declined_by", "rematch_offered_at")


def offer_rematch(table_ref: TableRef, actor: Player) -> Outcome:
    """After a match, offer another at the same table; a bot accepts at once. The offer stands
    until answered or until ``Table.rematch_expires_at``, when the sweeper withdraws it."""
    with transaction.atomic():
        table = _lock_table(table_ref)
        seat = _seat_of(table, actor)
        _require_match_over(table)
        if table.rematch_offered_by == 1 - seat:
            return _accept(table, seat)
        if table.rematch_offered_by == seat:
            return Outcome(table, seat)  # asking twice changes nothing, not even the expiry
        table.rematch_offered_by, table.rematch_declined_by = seat, None
        table.rematch_offered_at = timezone.now()
        opponent = table.seats[1 - seat]
        if opponent is not None and opponent.is_bot:
            return _accept(table, 1 - seat, caller_seat=seat)
        _bump(table, *REMATCH_FIELDS)
        _after_commit(table, None, "rematch")
        return Outcome(table, seat)


def accept_rematch(table_ref: TableRef, actor: Player) -> Outcome:
    return _answer_rematch(table_ref, actor, accept=True)


def decline_rematch(table_ref: TableRef, actor: Player) -> Outcome:
    return _answer_rematch(table_ref, actor, accept=False)


def _answer_rematch(table_ref: TableRef, actor: Player, *, accept: bool) -> Outcome:
    with transaction.atomic():
        table = _lock_table(table_ref)
        seat = _seat_of(table, actor)
        _require_match_over(table)
        if table.rematch_offered_by != 1 - seat:
            raise Conflict("Your opponent has not offered a rematch.")
        if accept:
            return _accept(table, seat)
        table.rematch_offered_by, table.rematch_declined_by = None, seat
        table.rematch_offered_at = None
        _bump(table, *REMATCH_FIELDS)
        _after_commit(table, None, "rematch")
        return Outcome(table, seat)


def _require_match_over(table: Table) -> Match:
    if table.current_deal_id is None:
        raise Conflict("No match has been played at this table yet.")
    match = Deal.objects.select_related("match").get(pk=table.current_deal_id).match
    if match.status != Match.Status.OVER:
        raise Conflict("The match is still being played.")
    return match


def _accept(table: Table, seat: int, caller_seat: int | None = None) -> Outcome:
    number = table.matches.count() + 1
    deal = _begin_match(table, number)
    table.rematch_offered_at = None
    _bump(table, "current_deal", *REMATCH_FIELDS)
    _after_commit(table, deal)
    return Outcome(table, seat if caller_seat is None else caller_seat)


def expire_rematch_offer(table_id: int, expected_version: int) -> Outcome | None:
    """Withdraw the rematch offer standing at table version ``expected_version`` once its time
    is up. Stale (answered, renewed, any change since), early or repeated: does nothing."""
    with transaction.atomic():
        try:
            table = _lock_table(table_id)
        except NotFound:
            return None
        if table.version != expected_version or not _lapsed(table, timezone.now()):
            return None
        table.rematch_offered_by = table.rematch_offered_at = None
        _bump(table, *REMATCH_FIELDS)
        _after_commit(table, None, "rematch")
        return Outcome(table, None)


def _lapsed(table: Table, now: dt.datetime) -> bool:
    expires_at = table.rematch_expires_at
    return expires_at is not None and expires_at <= now


def lapsed_rematch_offers() -> list[tuple[int, int]]:
    """(table id, version) of every rematch offer whose time is up: for the sweeper."""
    now = timezone.now()
    youngest = now - dt.timedelta(seconds=Table.REMATCH_OFFER_MIN_SECONDS)  # no offer lapses sooner
    rows = Table.objects.filter(rematch_offered_by__isnull=False, rematch_offered_at__lte=youngest)
    rows = rows.only("pk", "version", "turn_seconds", "rematch_offered_by", "rematch_offered_at")
    return [(table.pk, table.version) for table in rows if _lapsed(table, now)]


def sweep_rematch_offers() -> int:
    """Withdraw every lapsed rematch offer once; returns how many were withdrawn."""
    outcomes = (expire_rematch_offer(table_id, version) for table_id, version in lapsed_rematch_offers())
    return sum(outcome is not None for outcome in outcomes)


# -- chat ----------------------------------------------------------------------------------


def post_chat(table_ref: TableRef, author: Player, text: object) -> ChatMessage:
    """Players write in the players' channel, everyone else in the spectators' (if allowed)."""
    cleaned = _clean_chat_text(text)
    with transaction.atomic():
        table = _lock_table(table_ref)
        channel = ChatMessage.Channel.PLAYERS
        if table.seat_of(author) is None:
            if not table.spectator_chat:
                raise Forbidden("Spectator chat is turned off at this table.")
            channel = ChatMessage.Channel.SPECTATORS
        _count_chat(author)
        message = ChatMessage.objects.create(table=table, author=author, channel=channel, text=cleaned)
        transaction.on_commit(partial(publish_table_event, table.pk, table.version, "chat"))
        return message


def _clean_chat_text(text: object) -> str:
    if not isinstance(text, str) or not text.strip():
        raise BadRequest("A chat message needs some text.", field="text")
    text = text.strip()
    if len(text) > ChatMessage.MAX_LENGTH:
        raise TooLarge(f"A chat message has at most {ChatMessage.MAX_LENGTH} characters.", field="text")
    return text


def _count_chat(author: Player) -> None:
    """At most CHAT_RATE_COUNT messages per CHAT_RATE_SECONDS per player (cache: locmem or Redis)."""
    key = f"chat-rate:{author.pk}"
    try:
        cache.add(key, 0, timeout=CHAT_RATE_SECONDS)
        try:
            count = cache.incr(key)
        except ValueError:  # expired between add and incr
            cache.set(key, 1, timeout=CHAT_RATE_SECONDS)
            count = 1
    except RedisError:  # the cache is down: chat stays usable, unlimited until it is back
        log.warning("chat rate limit skipped: the cache is unavailable")
        return
    if count > CHAT_RATE_COUNT:
        raise RateLimited(
            f"Slow down: at most {CHAT_RATE_COUNT} messages in {CHAT_RATE_SECONDS} seconds.",
            extra={"retry_after": CHAT_RATE_SECONDS},
        )


def chat_history(table: Table, viewer: Player | None, after: int = 0, limit: int = 100) -> list[ChatMessage]:
    """The messages ``viewer`` may read: players see the players' channel, spectators both;
    hidden messages and the authors the viewer muted are left out."""
    seat = table.seat_of(viewer)
    messages = ChatMessage.objects.filter(table=table, hidden=False, id__gt=after).select_related("author")
    if seat is not None:
        messages = messages.filter(channel=ChatMessage.Channel.PLAYERS)
    if viewer is not None:
        muted = ChatMute.objects.filter(table=table, player=viewer).values("muted")
        messages = messages.exclude(author__in=muted)
    return list(messages.order_by("id")[:limit])


def set_mute(table_ref: TableRef, viewer: Player, seat: int, muted: bool) -> None:
    """Hide (or show again) the chat of the player in ``seat``, on the viewer's screen only."""
    table = get_table(table_ref)
    target = table.seats[seat] if seat in (0, 1) else None
    if target is None:
        raise BadRequest("seat must be a taken seat, 0 or 1.", field="seat")
    if target.pk == viewer.pk:
        raise BadRequest("You cannot mute yourself.", field="seat")
    if muted:
        ChatMute.objects.get_or_create(table=table, player=viewer, muted=target)
    else:
        ChatMute.objects.filter(table=table, player=viewer, muted=target).delete()


# -- reading -------------------------------------------------------------------------------


def get_table(ref: TableRef) -> Table:
    """A table for reading (no lock), by primary key, invite token or row."""
    if isinstance(ref, Table):
        ref = ref.pk
    read = _TABLE_BY_KEY if isinstance(ref, int) else _TABLE_BY_TOKEN
    try:
        return read.get(ref)
    except (Table.DoesNotExist, ValueError):
        raise NotFound("There is no such table.") from None


def _tables_with_players():
    # The owner always sits (payloads.owner_name reads it from the seats): no join for it here.
    return Table.objects.select_related("seat0", "seat1", "current_deal__match")


# The hot path of every read (the API's state, each socket's event, the tasks): compiled once.
_TABLE_BY_KEY = CompiledRead(lambda pk: _tables_with_players().filter(pk=pk), sample=KEY_SAMPLE)
_TABLE_BY_TOKEN = CompiledRead(lambda token: _tables_with_players().filter(invite_token=token))


def lobby_tables(limit: int = 50) -> list[Table]:
    """Public tables that have not started and still have a free seat."""
    rows = Table.objects.filter(visibility=Table.Visibility.PUBLIC, current_deal__isnull=True)
    rows = rows.filter(Q(seat0__isnull=True) | Q(seat1__isnull=True)).select_related("owner")
    return list(rows.order_by("-created_at")[:limit])


def tables_of(player: Player) -> list[Table]:
    """Every table where ``player`` sits, newest activity first."""
    rows = Table.objects.filter(Q(seat0=player) | Q(seat1=player))
    return list(rows.select_related("seat0", "seat1", "current_deal__match").order_by("-updated_at"))


# -- profile -------------------------------------------------------------------------------

_CHOICES = {"deck_design": Player.DeckDesign.values, "language": Player.Language.values}


def update_profile(player: Player, **changes: object) -> Player:
    """Change the profile fields given; each is checked before anything is saved."""
    for name, allowed in _CHOICES.items():
        if name in changes and changes[name] not in allowed:
            raise BadRequest(f"{name} must be one of {', '.join(allowed)}.", field=name)
    if "display_name" in changes:
        changes["display_name"] = identity.clean_display_name(changes["display_name"])
    if "time_zone" in changes and changes["time_zone"] not in zoneinfo.available_timezones():
        raise BadRequest("time_zone must be an IANA zone such as Europe/Madrid.", field="time_zone")
    if "alert_prefs" in changes:
        from .alerts.prefs import clean  # checked and completed: see tables/alerts/prefs.py

        changes["alert_prefs"] = clean(changes["alert_prefs"])
    for name, value in changes.items():
        setattr(player, name, value)
    if changes:
        player.save(update_fields=list(changes))
    return player
