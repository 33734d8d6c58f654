"""Follow: one way, no consent, limits, the following list with presence and CHALLENGE, the
player page's button, followed players' seeks first in the lobby, and the API's refusals."""

from __future__ import annotations

import datetime as dt
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.db import connection
from django.utils import timezone

from tables.accounts.models import Player
from tables.alerts.models import Activity
from tables.challenges import selectors as challenge_selectors
from tables.challenges import services as challenge_services
from tables.core.errors import BadRequest, Conflict, NotFound
from tables.social import services
from tables.social.models import Follow
from tests.tables.helpers import make_account_client

from .conftest import named

pytestmark = pytest.mark.django_db

SLOW = {"ruleset": "classic", "turn_seconds": 86400}


def test_following_is_one_way_and_asks_nobody(ana, ben):
    services.follow(ana.player, ben.player)
    assert Follow.objects.filter(follower=ana.player, followed=ben.player).exists()
    assert ana.ok("get", "/me/following")["following"][0]["name"] == "Ben"
    assert ben.ok("get", "/me/following")["following"] == []


def test_following_oneself_twice_or_a_guest_is_refused(ana, ben):
    with pytest.raises(BadRequest):
        services.follow(ana.player, ana.player)
    services.follow(ana.player, ben.player)
    with pytest.raises(Conflict):
        services.follow(ana.player, ben.player)
    guest = Player.objects.create(display_name="Guest", guest_key="k")
    with pytest.raises(NotFound):
        services.follow(ana.player, guest)
    with pytest.raises(NotFound):
        services.unfollow(ben.player, ana.player)  # Ben never followed Ana


def test_the_limit_of_followed_accounts(ana, ben, carla, monkeypatch):
    monkeypatch.setattr(services, "MAX_FOLLOWED", 1)
    services.follow(ana.player, ben.player)
    with pytest.raises(Conflict):
        services.follow(ana.player, carla.player)
    services.unfollow(ana.player, ben.player)
    services.follow(ana.player, carla.player)  # room again


def test_the_api_follows_unfollows_and_answers_4xx_on_bad_input(ana, ben):
    me = ana.player.pk
    assert ana.post(f"/players/{me}/follow").status_code == 400
    assert ana.post("/players/999999/follow").status_code == 404
    created = ana.ok("post", f"/players/{ben.player.pk}/follow", status=201)
    assert created["id"] == ben.player.pk and created["presence"]["hidden"] is False
    assert ana.post(f"/players/{ben.player.pk}/follow").status_code == 409
    assert ana.request("delete", f"/players/{ben.player.pk}/follow").json()["following"] is False
    assert ana.request("delete", f"/players/{ben.player.pk}/follow").status_code == 404
    schema = ana.client.get("/api/openapi.json").json()
    assert {"/api/me/following", "/api/players/{player_id}/follow"} <= set(schema["paths"])


def test_a_guest_cannot_follow(ben, client):
    client.post("/api/tables", {"name": "Gus"}, content_type="application/json")
    response = client.post(f"/api/players/{ben.player.pk}/follow", content_type="application/json")
    assert response.status_code in (401, 403)
    assert not Follow.objects.exists()


def test_the_following_page_lists_presence_and_a_challenge_link(ana, ben, carla):
    services.follow(ana.player, ben.player)
    services.follow(ana.player, carla.player)
    now = timezone.now()
    Activity.objects.create(player=ben.player, last_seen=now)
    Activity.objects.create(player=carla.player, last_seen=now - dt.timedelta(hours=3))
    page = ana.client.get("/me/following/", headers={"accept-language": "en"}).content.decode()
    assert "online now" in page and "last seen 3\xa0hours ago" in page
    assert page.index("Ben") < page.index("Carla")  # who is around first
    Activity.objects.filter(player=carla.player).update(last_seen=now)
    Activity.objects.filter(player=ben.player).update(last_seen=now - dt.timedelta(days=1))
    page = ana.client.get("/me/following/", headers={"accept-language": "en"}).content.decode()
    assert page.index("Carla") < page.index("Ben")
    assert f"/new/?opponent={ben.player.pk}" in page and f"/new/?opponent={carla.player.pk}" in page
    spanish = ana.client.get("/me/following/", headers={"accept-language": "es"}).content.decode()
    assert "en línea" in spanish and "visto por última vez" in spanish


def test_the_player_page_follows_and_unfollows(ana, ben):
    page = ana.client.get(f"/players/{ben.player.pk}/").content.decode()
    assert 'id="follow-button"' in page
    response = ana.client.post(f"/players/{ben.player.pk}/follow/")
    assert response.status_code == 302 and response["Location"] == f"/players/{ben.player.pk}/"
    assert Follow.objects.filter(follower=ana.player, followed=ben.player).exists()
    ana.client.post(f"/players/{ben.player.pk}/unfollow/", {"next": "/me/following/"})
    assert not Follow.objects.exists()
    assert ana.client.post("/players/999999/follow/").status_code == 404
    assert ana.client.post(f"/players/{ben.player.pk}/befriend/").status_code == 404
    own = ana.client.get(f"/players/{ana.player.pk}/").content.decode()
    assert 'id="follow-button"' not in own


def test_followed_players_seeks_come_first_in_the_lobby(ana, ben, carla):
    ben_seek = challenge_services.post_seek(ben.player, dict(SLOW))
    carla_seek = challenge_services.post_seek(carla.player, dict(SLOW))  # newer
    assert [s.pk for s in challenge_selectors.open_seeks(viewer=ana.player)] == [carla_seek.pk, ben_seek.pk]
    services.follow(ana.player, ben.player)
    assert [s.pk for s in challenge_selectors.open_seeks(viewer=ana.player)] == [ben_seek.pk, carla_seek.pk]
    page = ana.client.get("/lobby/").content.decode()
    assert page.index(f'data-seek="{ben_seek.pk}"') < page.index(f'data-seek="{carla_seek.pk}"')
    seeks = ana.ok("get", "/seeks")["seeks"]
    assert [row["id"] for row in seeks] == [ben_seek.pk, carla_seek.pk]


needs_row_locks = pytest.mark.skipif(
    connection.vendor == "sqlite",
    reason="SQLite has no row locks (SELECT ... FOR UPDATE); .ci/run runs this on PostgreSQL",
)


@needs_row_locks
@pytest.mark.django_db(transaction=True)
def test_follows_sent_at_once_do_not_pass_the_limit(monkeypatch):
    monkeypatch.setattr(services, "MAX_FOLLOWED", 3)
    follower = named(make_account_client("race-f@example.com"), "Fran").player
    others = [named(make_account_client(f"race-{n}@example.com"), f"P{n}").player for n in range(8)]
    barrier = threading.Barrier(len(others))

    def follow(other: Player) -> str:
        barrier.wait()
        try:
            services.follow(follower, other)
            return "followed"
        except Conflict:
            return "refused"
        finally:
            connection.close()

    with ThreadPoolExecutor(max_workers=len(others)) as pool:
        results = list(pool.map(follow, others))
    assert sorted(results) == ["followed"] * 3 + ["refused"] * 5
    assert Follow.objects.filter(follower=follower).count() == 3
