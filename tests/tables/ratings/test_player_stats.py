"""A player's statistics come from figures each deal row keeps as it is played (who knocked with
what deadwood, the turns each seat ended, how many the server played): they agree with the move
log, and the migration's backfill recomputes the same figures from the log."""

from __future__ import annotations

import importlib

import pytest
from django.apps import apps

from tables.accounts.models import Player
from tables.play import services
from tables.play.models import Deal, Match, Move
from tables.ratings import selectors as player_stats
from tables.records import services as records
from tests.tables.helpers import play_deal
from tests.tables.rating_helpers import both_have_moved, expire, rated_game
from tests.tables.records import brute_force
from tests.tables.seed_players import seed, unseed

pytestmark = pytest.mark.django_db
FIGURES = ("knocker", "knocker_deadwood", "turns0", "turns1", "timeouts0", "timeouts1")


def _played_with_timeouts() -> str:
    token, players = rated_game()
    both_have_moved(token, players)
    expire(token)
    services.sweep_overdue()  # one turn played by the server
    play_deal(token, players)
    return token


@pytest.mark.slow  # whole matches, 1 to 2 s
def test_deal_figures_agree_with_the_move_log():
    _played_with_timeouts()
    deal = Deal.objects.get()
    moves = list(Move.objects.filter(deal=deal).order_by("seq"))
    assert deal.turns0 >= 1 and deal.turns1 >= 1
    assert deal.timeouts0 + deal.timeouts1 == 1
    timed_out = {move.seat for move in moves if move.source == Move.Source.TIMEOUT}
    assert getattr(deal, f"timeouts{timed_out.pop()}") == 1
    if deal.outcome in ("knock", "undercut"):
        assert deal.knocker is not None and deal.knocker_deadwood is not None
    elif deal.outcome in ("gin", "big_gin"):
        assert deal.knocker_deadwood == 0


def test_the_migration_backfills_the_same_figures():
    _played_with_timeouts()
    kept = Deal.objects.values(*FIGURES).get()
    Deal.objects.update(knocker=None, knocker_deadwood=None, turns0=0, turns1=0, timeouts0=0, timeouts1=0)
    migration = importlib.import_module("tables.migrations.0007_ratings")
    migration.backfill_deal_figures(apps, None)
    assert Deal.objects.values(*FIGURES).get() == kept


@pytest.mark.slow  # whole matches, 1 to 3 s
def test_statistics_sum_the_players_deals():
    _played_with_timeouts()
    deal = Deal.objects.get()
    match = Match.objects.get()
    for seat, player in enumerate((match.table.seat0, match.table.seat1)):
        stats = player_stats.statistics(Player.objects.get(pk=player.pk))
        assert stats.deals == 1
        assert stats.matches == int(match.status == Match.Status.OVER)
        assert stats.turns == getattr(deal, f"turns{seat}")
        assert stats.timeouts == getattr(deal, f"timeouts{seat}")
        assert stats.gins == int(deal.outcome in ("gin", "big_gin") and deal.winner == seat)
        knocked = deal.outcome in ("knock", "undercut") and deal.knocker == seat
        assert stats.knocks == int(knocked)
        assert stats.undercuts == int(knocked and deal.outcome == "undercut")
        assert stats.average_knock_deadwood == (deal.knocker_deadwood if knocked else None)


def test_statistics_count_each_match_once_however_many_deals_it_had():
    players = seed(players=7, matches=40)
    for deal in Deal.objects.filter(match__pk__in=Match.objects.values("pk")[:15]):
        deal.pk, deal.number, deal.turns0, deal.timeouts1 = None, 2, 7, 1  # a second deal
        deal.save()
    Match.objects.filter(pk__in=Match.objects.values("pk")[30:33]).update(status=Match.Status.PLAYING)
    records.rebuild()  # rows changed behind the writers' back: recounted as the migration counts
    try:
        for player in players:
            assert player_stats.statistics(player) == brute_force.statistics(player)
    finally:
        unseed()  # the seeded deals have no move log to replay
