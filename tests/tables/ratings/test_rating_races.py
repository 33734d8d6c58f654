"""A rating moves exactly once per match when the match's end is raced: the last move twice at
once, or the last move against the sweeper forfeiting the same match (real threads, row locks:
PostgreSQL, as tests/tables/play/test_concurrency.py)."""

from __future__ import annotations

import pytest
from django.test import Client

from tables.play import services
from tables.play.models import Match
from tests.tables.play.test_concurrency import _race, needs_row_locks
from tests.tables.rating_helpers import expire, rated_game, rated_once, to_last_move


@needs_row_locks
@pytest.mark.django_db(transaction=True)
def test_the_last_move_arriving_twice_at_once_rates_once():
    token, players = rated_game()
    mover, body = to_last_move(token, players)
    cookies = mover.client.cookies

    def send(_):
        client = Client()
        client.cookies = cookies
        return client.post(f"/api/tables/{token}/moves", body, content_type="application/json").json()

    results = _race(2, send)
    assert sorted((r["applied"], r["replayed"]) for r in results) == [(False, True), (True, False)]
    rated_once(token)


@needs_row_locks
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("round_", range(3))
def test_the_sweeper_forfeiting_while_the_last_move_races_rates_once(round_):
    token, players = rated_game(f"r{round_}")
    mover, body = to_last_move(token, players)
    match = Match.objects.get()
    seat = 0 if players[0] is mover else 1
    match.timeouts_in_row[seat] = 2  # one more timed-out turn forfeits (forfeit_after=3)
    match.save(update_fields=["timeouts_in_row"])
    expire(token)
    cookies = mover.client.cookies

    def contend(index):
        if index == 0:
            return services.sweep_overdue()
        client = Client()
        client.cookies = cookies
        return client.post(f"/api/tables/{token}/moves", body, content_type="application/json").status_code

    swept, status = _race(2, contend)
    match.refresh_from_db()
    assert (match.outcome, status, swept) in [
        (Match.Outcome.FORFEIT, 409, 1),  # the sweeper first: the move finds the match over
        (Match.Outcome.COMPLETED, 200, 0),  # the move first: the timeout is stale
    ]
    rated_once(token)
