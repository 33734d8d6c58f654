"""Reads of game tables for pages and the API (no writes)."""

from __future__ import annotations

from django.utils.translation import gettext

from tables.core.errors import NotFound
from tables.variants.models import Board, GameSeat, GameTable


def game_by_token(token: str) -> GameTable:
    found = GameTable.objects.filter(invite_token=token).select_related("owner").first()
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
