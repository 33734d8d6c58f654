"""Rated tables: who may sit, when a match moves the ratings (once), and what does not count."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone

from tables.play import services
from tables.play.models import Match, Move, Table
from tables.ratings import glicko2
from tables.ratings.models import Rating, RatingChange
from tests.tables.helpers import ApiClient, open_table, started
from tests.tables.rating_helpers import RATED, both_have_moved, expire, rated_game, rated_once, to_last_move

pytestmark = pytest.mark.django_db


def test_a_guest_cannot_open_a_rated_table():
    guest = ApiClient(name="Nadia")
    response = guest.post("/tables", {"name": "Nadia", **RATED})
    assert response.status_code == 403 and "account" in response.json()["detail"]
    assert not Table.objects.exists()


def test_the_form_refuses_a_rated_table_to_a_guest(client):
    response = client.post("/new/", {"name": "Nadia", "ruleset": "playgridia", "rated": "on"}, follow=True)
    assert "Rated tables are for accounts" in response.content.decode()
    assert not Table.objects.exists()


def test_a_rated_table_seats_accounts_only(alice, bob):
    token = open_table(alice, **RATED)["table"]
    assert alice.state(token)["options"]["rated"] is True
    guest = ApiClient(name="Nadia")
    refused = guest.post(f"/tables/{token}/join", {"name": "Nadia"})
    assert refused.status_code == 403 and "rated" in refused.json()["detail"]
    robot = alice.post(f"/tables/{token}/bot", {"level": "luna"})
    assert robot.status_code == 403 and "Robots are unrated" in robot.json()["detail"]
    joined = bob.ok("post", f"/tables/{token}/join", {})
    assert joined["you"]["seat"] == 1
    assert joined["seats"][0]["player_url"] == f"/players/{Table.objects.get().owner_id}/"


@pytest.mark.slow  # a whole match, 1 to 2 s
def test_a_match_played_to_the_end_rates_both_once_even_when_its_last_move_is_retried():
    token, players = rated_game()
    mover, body = to_last_move(token, players)
    first = mover.ok("post", f"/tables/{token}/moves", body)
    assert first["state"]["status"] == "match_over" and first["applied"]
    again = mover.ok("post", f"/tables/{token}/moves", body)
    assert again["replayed"]
    rated_once(token)
    winner = Match.objects.get().winner
    assert RatingChange.objects.get(score=1.0).player_id == Table.objects.get().seats[winner].pk


def test_resign_counts_as_a_loss():
    token, players = rated_game()
    both_have_moved(token, players)
    state = players[0].state(token)
    players[0].ok("post", f"/tables/{token}/resign", {"expected_version": state["version"]})
    rated_once(token)
    assert RatingChange.objects.get(score=0.0).player_id == Table.objects.get().seat0_id


def test_forfeit_on_time_counts_as_a_loss():
    token, players = rated_game()
    both_have_moved(token, players)
    for _ in range(20):
        expire(token)
        services.sweep_overdue()
        if Match.objects.get().status == Match.Status.OVER:
            break
    match = Match.objects.get()
    assert match.outcome == Match.Outcome.FORFEIT
    rated_once(token)
    assert RatingChange.objects.get(score=1.0).player_id == Table.objects.get().seats[match.winner].pk


def test_an_aborted_match_does_not_count():
    """Resigned before the other side ever moved: no rating moves, no history row."""
    token, players = rated_game()
    state = players[0].state(token)
    players[0].ok("post", f"/tables/{token}/resign", {"expected_version": state["version"]})
    assert Match.objects.get().status == Match.Status.OVER
    assert not RatingChange.objects.exists()
    assert not Rating.objects.exists()


def test_a_side_that_only_timed_out_never_moved():
    """Forfeit by a player whose every turn the server played: aborted, not rated."""
    token, _ = rated_game()
    for _ in range(20):
        expire(token)
        services.sweep_overdue()
        if Match.objects.get().status == Match.Status.OVER:
            break
    assert Match.objects.get().outcome == Match.Outcome.FORFEIT
    assert not Move.objects.filter(source=Move.Source.PLAYER).exists()
    assert not RatingChange.objects.exists()


@pytest.mark.slow  # whole matches, some 4 s
def test_an_unrated_table_moves_no_rating(alice, bob):
    token, players = started(alice, bob)
    mover, body = to_last_move(token, players)
    mover.ok("post", f"/tables/{token}/moves", body)
    assert Match.objects.get().status == Match.Status.OVER
    assert not RatingChange.objects.exists()


@pytest.mark.slow  # whole matches at three paces, some 3 s
def test_each_pace_has_its_own_rating():
    token, players = rated_game()
    Table.objects.update(turn_seconds=600)  # a live clock
    mover, body = to_last_move(token, players)
    mover.ok("post", f"/tables/{token}/moves", body)
    assert set(Rating.objects.values_list("pace", flat=True)) == {"live"}
    assert set(RatingChange.objects.values_list("pace", flat=True)) == {"live"}


@pytest.mark.slow  # whole matches, 2 to 3 s
def test_a_deviation_grows_for_the_days_away_before_the_match_moves_it():
    token, players = rated_game()
    alice = Table.objects.get(invite_token=token).seat0
    away = timezone.now() - dt.timedelta(days=200)
    Rating.objects.create(player=alice, pace="slow", rating=1700, deviation=60, games=40, updated_at=away)
    Rating.objects.filter(player=alice).update(updated_at=away)  # auto_now stamped the create
    mover, body = to_last_move(token, players)
    mover.ok("post", f"/tables/{token}/moves", body)
    change = RatingChange.objects.get(player=alice)
    grown = glicko2.idle(glicko2.Rating(1700, 60, 0.06), 200).deviation
    assert change.deviation_before == pytest.approx(grown, rel=1e-4) and grown > 140
    row = Rating.objects.get(player=alice)
    assert row.deviation == change.deviation_after and row.current_deviation == pytest.approx(row.deviation)
