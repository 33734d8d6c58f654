"""A game's deals at their boards: opening each at its own table, a board's result reaching the
game once its match ends, resignation, and the sweep that guarantees it.

A board's match end is announced after its commit (tables.core.announcements.match_ended); the
result is written under the game table's lock and only while the board is unrecorded, so an end
seen twice (the announcement and the sweep, or the last moves of both deals of a partnership
round at once) counts once, and the round nets exactly once. The boards the record then waits
for are opened in the same transaction: two tables at most.
"""

from __future__ import annotations

import datetime as dt

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from tables.accounts.models import Player
from tables.core.errors import Conflict, Forbidden
from tables.play import engine as play_engine
from tables.play.models import Match
from tables.play.services.matches import resign as resign_board_match
from tables.play.services.matches import start_match
from tables.play.services.seats import create_table, join_table
from tables.variants import engine
from tables.variants.engine import GameRecord
from tables.variants.models import Board, GameSeat, GameTable
from tables.variants.services import lines
from tables.variants.services.common import GameRef, bump, lock_game, seat_number_of

# An ended board whose announcement was lost is recorded by the sweep after this long.
SWEEP_GRACE = dt.timedelta(seconds=30)


def open_due_boards(game: GameTable, record: GameRecord) -> list[Board]:
    """Open every board the locked game's record waits for and has no table yet."""
    opened = set(Board.objects.filter(game=game).values_list("round", "number"))
    players = {
        seat.number: seat.player for seat in GameSeat.objects.filter(game=game).select_related("player")
    }
    boards = []
    for plan in engine.boards_due(record, opened):
        first, second = (players[seat] for seat in plan.players)
        table = create_table(first, **game.table_options)
        join_table(table, second, paired=True)
        dealer = plan.players.index(plan.dealer)
        start_match(table, first, first_dealer=dealer, board=engine.board_kind(game.variant))
        boards.append(
            Board.objects.create(
                game=game,
                round=plan.round,
                number=plan.number,
                players=list(plan.players),
                dealer=plan.dealer,
                table=table,
            )
        )
    return boards


def record_board_end(table_id: int) -> bool:
    """The match at ``table_id`` ended: if it is a board, its result reaches the game. One
    indexed query for any other table. True if a result was written now."""
    found = (
        Board.objects.filter(table_id=table_id, recorded_at__isnull=True).values_list("pk", "game_id").first()
    )
    if found is None:
        return False
    board_id, game_id = found
    with transaction.atomic():
        game = lock_game(game_id)
        board = Board.objects.select_for_update().get(pk=board_id)
        match = Match.objects.filter(table_id=table_id, status=Match.Status.OVER).first()
        if board.recorded_at is not None or match is None:
            return False
        _record(game, board, match)
        return True


def _record(game: GameTable, board: Board, match: Match) -> None:
    board.recorded_at = timezone.now()
    board.save(update_fields=["recorded_at"])
    if game.status != GameTable.Status.PLAYING:
        return  # the game ended (a resignation) while this board was still being played
    record = engine.load_record(game)
    board_match = play_engine.load_match(match)
    players = (board.players[0], board.players[1])
    if board_match.leaver is not None:
        leaver, reason = players[board_match.leaver], board_match.ended_by or "resign"
        _end(game, record.resign(leaver, reason), reason)
        return
    record = engine.record_board(record, board.number, engine.board_results(board_match, players))
    if record.is_over:
        _end(game, record, "")
        return
    game.record = record.to_dict()
    bump(game, "record")
    open_due_boards(game, record)


def _end(game: GameTable, record: GameRecord, ended_by: str) -> None:
    """The game is over (``ended_by``: "resign" or "forfeit" when a player left it, else ""):
    its result is kept and a board still in play is ended for the side that lost (the board of
    a leaver's partner, or of the two who played on while the leaver waited)."""
    game.record = record.to_dict()
    game.status = GameTable.Status.OVER
    game.winner = record.winner
    game.ended_by = ended_by
    game.ended_at = timezone.now()
    bump(game, "record", "status", "winner", "ended_by", "ended_at")
    lines.game_over(game, record)
    for board in Board.objects.filter(game=game, recorded_at__isnull=True).select_related("table"):
        _call_off(board, record, game)


def _call_off(board: Board, record: GameRecord, game: GameTable) -> None:
    """End a board whose game is over: its match is resigned by its player on the losing side."""
    table = board.table
    loser_seat = next(
        (seat for seat in board.players if engine.side_of(record, seat) != record.winner), board.players[0]
    )
    loser = GameSeat.objects.get(game=game, number=loser_seat).player
    if Match.objects.filter(table=table, status=Match.Status.PLAYING).exists():
        resign_board_match(table.pk, loser)
    board.recorded_at = timezone.now()
    board.save(update_fields=["recorded_at"])


def resign_game(ref: GameRef, actor: Player) -> GameTable:
    """A seated player gives up the game: their side loses it. Played out at their board when
    they are at one (its match is resigned, and its end ends the game); a player waiting in
    winner stays resigns the game directly."""
    with transaction.atomic():
        game = lock_game(ref)
        seat = seat_number_of(game, actor)
        if seat is None:
            raise Forbidden(gettext("You are not seated at this table."))
        if game.status != GameTable.Status.PLAYING:
            raise Conflict(gettext("The game is not being played."))
        board = next(
            (b for b in Board.objects.filter(game=game, recorded_at__isnull=True) if seat in b.players), None
        )
        if board is None:
            _end(game, engine.load_record(game).resign(seat, "resign"), "resign")
            return game
    resign_board_match(board.table_id, actor)  # its match end reaches the game (record_board_end)
    record_board_end(board.table_id)  # at once, whatever the announcement's receivers do
    game.refresh_from_db()
    return game


def sweep_boards(now: dt.datetime | None = None) -> int:
    """Record every board whose match ended and whose result never reached its game (a lost
    announcement, a process that died after the commit). The number recorded."""
    cutoff = (now or timezone.now()) - SWEEP_GRACE
    ended = Board.objects.filter(
        recorded_at__isnull=True,
        game__status=GameTable.Status.PLAYING,
        table__matches__status=Match.Status.OVER,
        table__matches__ended_at__lt=cutoff,
    ).values_list("table_id", flat=True)
    return sum(record_board_end(table_id) for table_id in list(ended))
