"""Games of three and four for tests: the boards' deals played by TITO's choices through the
play services (each board match's end reaches its game as after a commit)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import contextmanager

from django.test import TestCase

from bots import BOTS
from bots.base import MatchContext
from tables.play import engine, services
from tables.play.models import Match, Move, Table
from tables.variants import services as games
from tables.variants.models import Board, GameTable
from tests.tables.tournaments.helpers import accounts

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


def play_board(table_id: int, rng: random.Random, stop_before_last: bool = False) -> Match | None:
    """Play the board's match to its end (or to the move before its last with
    ``stop_before_last``: the match then still on, the deal's last move the caller's to make)."""
    while True:
        table = Table.objects.select_related("seat0", "seat1", "current_deal__match").get(pk=table_id)
        deal = table.current_deal
        assert deal is not None
        if deal.match.status == Match.Status.OVER:
            return deal.match
        state = engine.load_deal(deal)
        if state.is_over:
            with committed():
                services.next_deal(table.pk, table.seat0, expected_version=table.version)
            continue
        seat = state.to_play
        player = table.seats[seat]
        totals = engine.load_match(deal.match).totals
        context = MatchContext(totals[seat], totals[1 - seat], state.ruleset.target)
        action = BOTS["tito"]().choose(state.view(seat), rng, context)
        if stop_before_last and state.apply(action, seat=seat)[0].is_over:
            return None
        source = Move.Source.BOT if player.is_bot else Move.Source.PLAYER
        with committed():
            services.apply_move(table.pk, player, action, expected_version=table.version, source=source)
