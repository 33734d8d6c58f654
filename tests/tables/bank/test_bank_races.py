"""A move racing the end of the bank, on a real database with real threads (PostgreSQL in CI):
the move is applied or the timeout is, never both."""

from __future__ import annotations

import datetime as dt
import time

import pytest
from django.utils import timezone

from tables.accounts.identity import player_for_user
from tables.core.errors import StaleVersion
from tables.play import services, tasks
from tables.play.models import Deal, Match, Move, Table
from tests.tables.helpers import account_pair, started, to_play
from tests.tables.play.test_concurrency import _race, needs_row_locks


@needs_row_locks
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("fallback", ["sweeper", "eta"])
def test_a_move_at_the_banks_last_moment_is_applied_or_times_out_never_both(fallback):
    for round_ in range(6):
        alice, bob = account_pair(round_)
        token, players = started(alice, bob, ruleset="classic")  # an offer round: a pass ends the turn
        mover, _, state = to_play(token, players)
        seat, player = state["you"]["seat"], player_for_user(mover.user)
        table = Table.objects.get(invite_token=token)
        deal = Deal.objects.get(pk=table.current_deal_id)
        bank = Match.objects.get(pk=deal.match_id).banks[seat]
        # The turn's own time long gone and its bank running out now.
        deadline = timezone.now() + dt.timedelta(milliseconds=30)
        Deal.objects.filter(pk=deal.pk).update(deadline=deadline)
        assert bank > 0

        def act(index, table=table, deal=deal, player=player, deadline=deadline):
            if index == 0:
                try:
                    services.apply_move(table.pk, player, "pass", table.version)
                    return "move"
                except StaleVersion:  # the timeout came first: the version moved on
                    return "refused"
            time.sleep(max(0.0, (deadline - timezone.now()).total_seconds()))
            if fallback == "sweeper":
                return "timeout" if services.sweep_overdue() else "none"
            return "timeout" if tasks.expire_turn(deal.pk, table.version, deadline.isoformat()) else "none"

        results = sorted(_race(2, act))
        assert results in (["move", "none"], ["refused", "timeout"]), results
        moves = Move.objects.filter(deal=deal, seat=seat)
        assert moves.count() == 1  # one pass, by the player or by the server
        banks = Match.objects.get(pk=deal.match_id).banks
        if results == ["move", "none"]:
            assert moves.get().source == Move.Source.PLAYER and banks[seat] > 0
        else:
            assert moves.get().source == Move.Source.TIMEOUT and banks[seat] == 0
        assert Table.objects.get(pk=table.pk).version == table.version + 1
