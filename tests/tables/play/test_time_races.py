"""Races on vacation and more time, on a real database with real threads (PostgreSQL in CI)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.test import Client
from django.utils import timezone

from tables.accounts import services as account_services
from tables.accounts.identity import player_for_user
from tables.play import services
from tables.play.models import Deal, Table
from tests.tables.helpers import account_pair, make_account_client, started, to_play
from tests.tables.play.test_concurrency import _race, needs_row_locks

DAY = 24 * 3600


@needs_row_locks
@pytest.mark.django_db(transaction=True)
def test_ten_requests_for_more_time_at_one_version_give_it_once():
    alice, bob = make_account_client("alice@example.com"), make_account_client("bob@example.com")
    token, players = started(alice, bob)
    _, waiting, state = to_play(token, players)
    before = Deal.objects.get(pk=Table.objects.get(invite_token=token).current_deal_id).deadline
    cookies = waiting.client.cookies

    def give(_):
        client = Client()
        client.cookies = cookies
        body = {"expected_version": state["version"]}
        return client.post(
            f"/api/tables/{token}/more-time", body, content_type="application/json"
        ).status_code

    results = _race(10, give)
    assert sorted(results) == [200] + [409] * 9
    deal = Deal.objects.get(pk=Table.objects.get(invite_token=token).current_deal_id)
    assert deal.deadline == before + dt.timedelta(seconds=DAY) and deal.more_time_given == 1


@needs_row_locks
@pytest.mark.django_db(transaction=True)
def test_a_vacation_declared_as_the_turn_passes_to_its_player_stops_that_turn_either_way():
    for round_ in range(4):
        alice, bob = account_pair(round_)
        token, players = started(alice, bob, ruleset="classic")
        mover, waiting, state = to_play(token, players)
        mover_player, away = player_for_user(mover.user), player_for_user(waiting.user)
        table = Table.objects.get(invite_token=token)

        def act(index, table=table, mover_player=mover_player, away=away):
            if index == 0:
                services.apply_move(table.pk, mover_player, "pass", None)  # whatever the version
            else:
                account_services.declare_vacation(away, timezone.now().date() + dt.timedelta(days=1))

        _race(2, act)
        deal = Deal.objects.get(pk=table.current_deal_id)
        assert deal.to_play == 1 - state["you"]["seat"]
        assert deal.deadline is None and deal.paused_left is not None and deal.paused_left > DAY - 60
