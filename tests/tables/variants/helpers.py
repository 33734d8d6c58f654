"""Games of three and four for tests: the boards' deals played by TITO's choices through the
play services (each board match's end reaches its game as after a commit)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import contextmanager

from django.test import TestCase

from tables.play.models import Match
from tables.variants import services as games
from tables.variants.models import Board, GameTable
from tests.tables.tournaments.helpers import accounts, play_out

__all__ = ["accounts", "committed", "open_boards", "play_board", "seated_game"]


@contextmanager
def committed() -> Iterator[None]:
    """What the block announces after commit runs at its end, as after a real commit (with
    what those receivers announce in turn)."""
    with TestCase.captureOnCommitCallbacks(execute=True):
        yield


def seated_game(variant: str, count: int | None = None, **options) -> tuple[GameTable, list]:
    """A started game of ``variant`` with every seat taken by a new account (seat order)."""
    players = accounts(count or GameTable.SEATS[GameTable.Variant(variant)], prefix=f"{variant[:2]}")
    game = games.create_game(players[0], variant, **options)
    for player in players[1:]:
        games.join_game(game.invite_token, player)
    with committed():
        games.start_game(game.invite_token, players[0])
    game.refresh_from_db()
    return game, players


def open_boards(game: GameTable) -> list[Board]:
    return list(Board.objects.filter(game=game, recorded_at__isnull=True).order_by("round", "number"))


def play_board(table_id: int, rng: random.Random) -> Match:
    """Play the board's match to its end; its end reaches the game as after a commit."""
    return play_out(table_id, rng, around=committed)
