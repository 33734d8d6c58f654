"""Races on the move path, on a real database with real threads (PostgreSQL in CI), and the
number of queries a move costs."""

from __future__ import annotations

import datetime as dt
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.db import connection
from django.test import Client
from django.utils import timezone

from tables.accounts.identity import player_for_user
from tables.core.errors import StaleVersion
from tables.play import services
from tables.play.engine import load_deal
from tables.play.models import Deal, Move, Table
from tests.tables.helpers import make_account_client, started, to_play

needs_row_locks = pytest.mark.skipif(
    connection.vendor == "sqlite",
    reason="SQLite has no row locks (SELECT ... FOR UPDATE) or concurrent writers; .ci/run runs this on PostgreSQL",
)
THREADS = 20


def _race(count: int, work) -> list:
    barrier = threading.Barrier(count)

    def run(index: int):
        barrier.wait()
        try:
            return work(index)
        finally:
            connection.close()  # each thread has its own connection

    with ThreadPoolExecutor(max_workers=count) as pool:
        return list(pool.map(run, range(count)))


def _game(round_: int = 0):
    alice = make_account_client(f"alice{round_}@example.com")
    bob = make_account_client(f"bob{round_}@example.com")
    token, players = started(alice, bob)
    mover, _, state = to_play(token, players)
    return token, mover, state


@needs_row_locks
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("with_client_move_id", [True, False], ids=["same-id", "no-id"])
def test_twenty_threads_sending_the_same_move_apply_it_once(with_client_move_id):
    token, mover, state = _game()
    body = {"action": state["deal"]["view"]["legal_actions"][0], "expected_version": state["version"]}
    if with_client_move_id:
        body["client_move_id"] = "the-one-move"
    cookies = mover.client.cookies

    def send(_):
        client = Client()
        client.cookies = cookies
        response = client.post(f"/api/tables/{token}/moves", body, content_type="application/json")
        return response.status_code, response.json()

    results = _race(THREADS, send)
    applied = [data for status, data in results if status == 200 and data["applied"]]
    replayed = [data for status, data in results if status == 200 and data["replayed"]]
    stale = [data for status, data in results if status == 409]
    assert len(applied) == 1
    assert len(applied) + len(replayed) + len(stale) == THREADS, results
    assert all(data["move"] == applied[0]["move"] for data in replayed)
    if not with_client_move_id:
        assert not replayed
    assert Move.objects.filter(deal__match__table__invite_token=token).count() == 1
    assert Table.objects.get(invite_token=token).version == state["version"] + 1


@needs_row_locks
@pytest.mark.django_db(transaction=True)
def test_a_move_racing_the_timeout_for_the_same_turn_applies_once():
    for round_ in range(4):
        token, mover, state = _game(round_)
        table = Table.objects.get(invite_token=token)
        Deal.objects.filter(pk=table.current_deal_id).update(
            deadline=timezone.now() - dt.timedelta(seconds=1)
        )
        player = player_for_user(mover.user)
        action = state["deal"]["view"]["legal_actions"][0]

        def play(index, table=table, player=player, action=action):
            if index == 0:
                try:
                    return "move" if services.apply_move(table.pk, player, action, table.version) else None
                except StaleVersion:
                    return None
            return "timeout" if services.apply_timeout(table.current_deal_id, table.version) else None

        results = _race(2, play)
        assert len([result for result in results if result]) == 1, results
        sources = set(Move.objects.filter(deal_id=table.current_deal_id).values_list("source", flat=True))
        assert sources == ({"player"} if "move" in results else {"timeout"})


@pytest.mark.django_db
def test_the_move_path_costs_a_bounded_number_of_queries(django_assert_max_num_queries):
    token, mover, state = _game()
    table = Table.objects.get(invite_token=token)
    player = player_for_user(mover.user)
    action = load_deal(Deal.objects.get(pk=table.current_deal_id)).legal_actions()[0]
    with django_assert_max_num_queries(10):
        services.apply_move(table.pk, player, action, table.version, client_move_id="q1")
    state = mover.state(token)
    action = state["deal"]["view"]["legal_actions"][0]
    with django_assert_max_num_queries(18):
        mover.ok("post", f"/tables/{token}/moves", {"action": action, "expected_version": state["version"]})
