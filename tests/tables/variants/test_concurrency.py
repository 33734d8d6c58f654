"""Races on PostgreSQL with real threads at a table of four: the last moves of a round's two
deals at once net the round exactly once; a timeout at one board and a move at the other never
wait on each other."""

from __future__ import annotations

import datetime as dt
import random

import pytest
from django.utils import timezone

from tables.play import engine as play_engine
from tables.play import services as play
from tables.play.models import Deal, Table
from tables.variants import engine
from tables.variants.models import Board, GameTable
from tests.tables.play.test_concurrency import _race, needs_row_locks
from tests.tables.tournaments.test_concurrency import _to_last_move

from .helpers import open_boards, seated_game

pytestmark = [needs_row_locks, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("seed", range(3))
def test_both_last_moves_of_a_round_at_once_net_it_exactly_once(seed):
    game, _ = seated_game(GameTable.Variant.PARTNERSHIP, target=10000)
    rng = random.Random(seed)
    lasts = [_to_last_move(board.table_id, rng) for board in open_boards(game)]
    before = GameTable.objects.get(pk=game.pk).version

    def last_move(index: int):
        table, action = lasts[index]
        seat = play_engine.load_deal(table.current_deal).to_play
        return play.apply_move(table.pk, table.seats[seat], action, expected_version=table.version)

    _race(2, last_move)
    game.refresh_from_db()
    record = engine.load_record(game)
    assert len(record.records) == 1 and record.pending == (None, None)
    assert Board.objects.filter(game=game, round=1, recorded_at__isnull=False).count() == 2
    assert Board.objects.filter(game=game, round=2).count() == 2
    assert game.version == before + 2  # each board's result once


def test_a_timeout_at_one_board_and_a_move_at_the_other_both_go_through():
    game, _ = seated_game(GameTable.Variant.PARTNERSHIP, target=10000)
    first, second = open_boards(game)
    late = timezone.now() - dt.timedelta(seconds=1)
    Deal.objects.filter(pk=Table.objects.get(pk=first.table_id).current_deal_id).update(deadline=late)
    timed_out = Table.objects.select_related("current_deal").get(pk=first.table_id)
    moving = Table.objects.select_related("seat0", "seat1", "current_deal").get(pk=second.table_id)
    state = play_engine.load_deal(moving.current_deal)
    action = state.legal_actions()[0]

    def work(index: int):
        if index == 0:
            deal = timed_out.current_deal
            return play.apply_timeout(deal.pk, timed_out.version, deal.deadline.isoformat())
        return play.apply_move(
            moving.pk, moving.seats[state.to_play], action, expected_version=moving.version
        )

    outcomes = _race(2, work)
    assert all(outcome is not None for outcome in outcomes)
    assert Table.objects.get(pk=first.table_id).version == timed_out.version + 1
    assert Table.objects.get(pk=second.table_id).version == moving.version + 1
