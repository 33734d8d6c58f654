"""Reads of game tables for pages and the API (no writes)."""

from __future__ import annotations

from django.utils.translation import gettext

from tables.core.errors import NotFound
from tables.variants.models import Board, GameSeat, GameTable


def game_by_token(token: str) -> GameTable:
    rows = GameTable.objects.filter(invite_token=token).select_related("owner", "next_game")
    found = rows.first()
    if found is None:
        raise NotFound(gettext("No such table."))
    return found


def seats(game: GameTable) -> list[GameSeat]:
    return list(game.seats.select_related("player").order_by("number"))


def boards(game: GameTable) -> list[Board]:
    return list(game.boards.select_related("table").order_by("round", "number"))


def board_of_table(table_id: int) -> Board | None:
    """The board played at a table, with its game, if the table is one (the table page's link)."""
    return Board.objects.filter(table_id=table_id).select_related("game").first()


def games_of(player_id: int, limit: int = 20) -> list[GameTable]:
    """The game tables ``player_id`` sits at, those still on first, then the newest."""
    rows = GameTable.objects.filter(seats__player_id=player_id).order_by("-created_at")[:limit]
    games = list(rows)
    games.sort(key=lambda game: game.status == GameTable.Status.OVER)
    return games


def open_board_tokens(game_ids: list[int], seats_of: dict[int, int]) -> dict[int, str]:
    """Per game, the table of its open board where the player (``seats_of``: its seat per game)
    plays, if any."""
    found: dict[int, str] = {}
    boards = Board.objects.filter(game_id__in=game_ids, recorded_at__isnull=True).select_related("table")
    for board in boards:
        if seats_of.get(board.game_id) in board.players:
            found[board.game_id] = board.table.invite_token
    return found
