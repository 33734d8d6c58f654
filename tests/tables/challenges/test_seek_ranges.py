"""A seek's optional rating range: who may take it (at the pace of its clock), in the service,
the API and the lobby."""

from __future__ import annotations

import threading
import time

import pytest
from django.db import connection, transaction
from django.utils import translation

from tables.accounts.identity import player_for_user
from tables.accounts.models import Player
from tables.challenges import selectors as challenge_selectors
from tables.challenges import services as challenge_services
from tables.challenges.models import Challenge
from tables.core.errors import BadRequest, Conflict
from tables.play.models import Table
from tables.ratings.models import Rating
from tests.tables.helpers import make_account_client

pytestmark = pytest.mark.django_db

SLOW = {"ruleset": "classic", "turn_seconds": 86400}
LIVE = {"ruleset": "playgridia", "turn_seconds": 60}


@pytest.fixture(autouse=True)
def english():
    """The service's messages in English (the site's default is Spanish)."""
    with translation.override("en"):
        yield


def _player(client) -> Player:
    return player_for_user(client.user)


def _rate(player: Player, pace: str, rating: float) -> None:
    Rating.objects.update_or_create(player=player, pace=pace, defaults={"rating": rating})


def test_a_taker_outside_the_range_at_the_seeks_pace_is_refused(alice, bob):
    seek = challenge_services.post_seek(_player(alice), dict(SLOW), 1600, 1800)
    _rate(_player(bob), "live", 1700)  # in range, but at the other pace
    with pytest.raises(Conflict, match="rated 1600 to 1800 at its pace; yours is 1500"):
        challenge_services.accept(seek.pk, _player(bob))  # no slow rating yet: 1500
    _rate(_player(bob), "slow", 1900)
    with pytest.raises(Conflict, match="yours is 1900"):
        challenge_services.accept(seek.pk, _player(bob))
    assert Challenge.objects.get().status == "open" and not Table.objects.exists()
    _rate(_player(bob), "slow", 1800)  # the ends are in the range
    outcome = challenge_services.accept(seek.pk, _player(bob))
    assert outcome.table.seat1_id == _player(bob).pk


def test_an_open_ended_range_and_no_range(alice, bob, db):
    carol = _player(make_account_client("carol@example.com"))
    at_least = challenge_services.post_seek(_player(alice), dict(LIVE), 1400, None)
    _rate(carol, "live", 1399)
    with pytest.raises(Conflict, match="1400 to …"):
        challenge_services.accept(at_least.pk, carol)
    assert challenge_services.accept(at_least.pk, _player(bob)).table.seat1_id == _player(bob).pk
    anyone = challenge_services.post_seek(_player(alice), dict(LIVE))
    assert challenge_services.accept(anyone.pk, carol).table.seat1_id == carol.pk


def test_a_range_must_be_ordered_and_in_bounds(alice):
    with pytest.raises(BadRequest, match="not be above"):
        challenge_services.post_seek(_player(alice), dict(SLOW), 1800, 1600)
    with pytest.raises(BadRequest, match="between 0 and 4000"):
        challenge_services.post_seek(_player(alice), dict(SLOW), None, 5000)
    assert not Challenge.objects.exists()


def test_the_seeks_a_player_can_take(alice, bob):
    seeker, taker = _player(alice), _player(bob)
    _rate(taker, "slow", 1700)
    open_slow = challenge_services.post_seek(seeker, dict(SLOW))
    fits = challenge_services.post_seek(seeker, dict(SLOW), 1650, None)
    challenge_services.post_seek(seeker, dict(LIVE), 1650, None)  # live: bob counts as 1500
    found = challenge_selectors.open_seeks(takeable_by=(taker, challenge_selectors.ratings_by_pace(taker)))
    assert [row.pk for row in found] == [fits.pk, open_slow.pk]
    assert (
        challenge_selectors.open_seeks(takeable_by=(seeker, challenge_selectors.ratings_by_pace(seeker)))
        == []
    )


needs_row_locks = pytest.mark.skipif(
    connection.vendor == "sqlite",
    reason="SQLite has no row locks (SELECT ... FOR UPDATE); .ci/run runs this on PostgreSQL",
)


@needs_row_locks
@pytest.mark.django_db(transaction=True)
def test_the_takers_rating_is_read_under_its_lock_while_a_match_moves_it():
    seeker = _player(make_account_client("seeker@example.com"))
    taker = _player(make_account_client("taker@example.com"))
    _rate(taker, "slow", 1700)
    seek = challenge_services.post_seek(seeker, dict(SLOW), 1600, 1800)
    locked, results = threading.Event(), []

    def match_ends_elsewhere() -> None:
        """As rate_match does: the rating row locked, moved out of the range, then committed."""
        with transaction.atomic():
            Rating.objects.select_for_update().get(player=taker, pace="slow")
            locked.set()
            # what is tested: the lock held a while, the accept below waiting on the row meanwhile
            time.sleep(0.5)
            Rating.objects.filter(player=taker, pace="slow").update(rating=1550)
        connection.close()

    def take() -> None:
        locked.wait()
        try:
            challenge_services.accept(seek.pk, taker)
            results.append("seated")
        except Conflict as error:
            results.append(error.message)  # in the thread's language (the site's default)
        finally:
            connection.close()

    threads = [threading.Thread(target=match_ends_elsewhere), threading.Thread(target=take)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(results) == 1 and results[0].endswith(" 1550.")  # the rating as the match left it
    assert not Table.objects.exists()


# -- API and pages -----------------------------------------------------------------------------


def test_the_api_posts_a_ranged_seek_and_refuses_a_taker_outside_it(alice, bob, settings):
    bob.client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    seek = alice.ok("post", "/seeks", {**SLOW, "min_rating": 1600, "max_rating": 1800}, status=201)
    assert (seek["min_rating"], seek["max_rating"]) == (1600, 1800)
    assert bob.ok("get", "/seeks")["seeks"][0]["min_rating"] == 1600
    refused = bob.post(f"/challenges/{seek['id']}/accept")
    assert refused.status_code == 409 and "yours is 1500" in refused.json()["detail"]
    _rate(_player(bob), "slow", 1650)
    assert bob.ok("post", f"/challenges/{seek['id']}/accept")["status"] == "playing"
    assert alice.post("/seeks", {**SLOW, "min_rating": 1800, "max_rating": 1600}).status_code == 400
    assert alice.post("/seeks", {**SLOW, "min_rating": "1600"}).status_code in (400, 422)
    assert alice.post("/seeks", {**SLOW, "max_rating": -1}).status_code == 400
    assert Challenge.objects.count() == 1


def test_the_form_posts_a_ranged_seek_and_the_lobby_greys_out_play_for_those_outside(alice, bob, settings):
    for client in (alice.client, bob.client):
        client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    form = alice.client.get("/new/").content.decode()
    assert 'name="min_rating"' in form and 'name="max_rating"' in form
    answer = alice.client.post(
        "/new/", {"kind": "seek", "ruleset": "classic", "turn_seconds": 86400, "min_rating": "1600"}
    )
    assert answer.status_code == 302 and answer["Location"] == "/lobby/"
    seek = Challenge.objects.get()
    assert (seek.min_rating, seek.max_rating) == (1600, None)
    lobby = bob.client.get("/lobby/").content.decode()
    assert 'class="out-of-range"' in lobby and "ratings 1600–…" in lobby and "disabled" in lobby
    assert "data-seek=" not in bob.client.get("/lobby/?takeable=1").content.decode()
    refused = bob.client.post(f"/challenges/{seek.pk}/accept/", {"back": "lobby"}, follow=True)
    assert "yours is 1500" in refused.content.decode() and not Table.objects.exists()
    _rate(_player(bob), "slow", 1700)
    lobby = bob.client.get("/lobby/?takeable=1").content.decode()
    assert "data-seek=" in lobby and "out-of-range" not in lobby
    bad = alice.client.post("/new/", {"kind": "seek", "ruleset": "classic", "max_rating": "x"}, follow=True)
    assert "A rating must be a whole number." in bad.content.decode()
    assert Challenge.objects.count() == 1


def test_the_lobby_in_spanish_links_the_seeker_and_names_the_range(alice, bob):
    seek = challenge_services.post_seek(_player(alice), dict(SLOW), 1600, 1800)
    lobby = bob.client.get("/lobby/").content.decode()  # the site's default language
    seeker = f'<a href="/players/{seek.challenger_id}/">alice</a> busca partida'
    assert seeker in lobby and "puntuaciones 1600–1800" in lobby and "Búsquedas que puedo aceptar" in lobby
