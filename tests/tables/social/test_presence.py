"""Who is around: "online now" / "last seen 3 hours ago" from the site's presence (the sockets'
last seen), on the table page for the opponent, the player page, the following list and the
API; an account that hides it shows nothing at all there, not "offline"."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone

from tables.alerts import presence as site_presence
from tables.alerts.models import Activity
from tables.play.models import Table
from tables.social import selectors, services
from tests.tables.helpers import seated_table

pytestmark = pytest.mark.django_db

EN = {"accept-language": "en"}


def _seen(client, ago: dt.timedelta) -> None:
    Activity.objects.update_or_create(player=client.player, defaults={"last_seen": timezone.now() - ago})


def test_online_within_a_socket_lease_then_last_seen(ana):
    now = timezone.now()
    assert selectors.presence_of([ana.player.pk], now)[ana.player.pk].last_seen is None  # never seen
    site_presence.touch_site(ana.player.pk)  # what the user socket does on every page
    assert selectors.presence_of([ana.player.pk], timezone.now())[ana.player.pk].online
    later = timezone.now() + selectors.ONLINE_WINDOW + dt.timedelta(seconds=1)
    found = selectors.presence_of([ana.player.pk], later)[ana.player.pk]
    assert not found.online and found.last_seen is not None


def test_the_player_page_says_online_now_or_last_seen(ana, ben):
    _seen(ben, dt.timedelta(seconds=5))
    page = ana.client.get(f"/players/{ben.player.pk}/", headers=EN).content.decode()
    assert "online now" in page
    _seen(ben, dt.timedelta(hours=3, minutes=10))
    page = ana.client.get(f"/players/{ben.player.pk}/", headers=EN).content.decode()
    assert "last seen 3\xa0hours ago" in page
    spanish = ana.client.get(f"/players/{ben.player.pk}/", headers={"accept-language": "es"}).content.decode()
    assert "visto por última vez hace 3\xa0horas" in spanish


def test_the_table_page_shows_the_opponents_presence(ana, ben):
    token = seated_table(ana, ben)
    _seen(ben, dt.timedelta(days=2, hours=1))
    page = ana.client.get(f"/t/{token}/", headers=EN).content.decode()
    assert 'id="opponent-presence"' in page and "Ben: " in page and "last seen 2\xa0days ago" in page
    _seen(ana, dt.timedelta(seconds=1))
    assert "Ana: " in ben.client.get(f"/t/{token}/", headers=EN).content.decode()


def test_a_hidden_presence_shows_nothing_anywhere(ana, ben):
    services.follow(ana.player, ben.player)
    token = seated_table(ana, ben)
    _seen(ben, dt.timedelta(seconds=5))
    ben.ok("put", "/me/presence", {"hide_presence": True})
    pages = [
        ana.client.get(path, headers=EN).content.decode()
        for path in (f"/players/{ben.player.pk}/", "/me/following/", f"/t/{token}/")
    ]
    for page in pages:
        assert "online now" not in page and "last seen" not in page
        assert 'id="opponent-presence"' not in page
    listed = ana.ok("get", "/me/following")["following"][0]
    assert listed["presence"] == {"hidden": True, "online": None, "last_seen": None}
    assert listed["presence_text"] == ""
    assert ana.ok("get", f"/players/{ben.player.pk}/social")["presence"]["hidden"] is True
    table = Table.objects.get(invite_token=token)
    rows = {row["seat"]: row for row in site_presence.seats(table)}
    ben_seat = table.seat_of(ben.player)
    assert rows[ben_seat]["last_seen"] is None  # the socket's presence message says nothing either
    ben.ok("put", "/me/presence", {"hide_presence": False})
    assert "online now" in ana.client.get(f"/players/{ben.player.pk}/", headers=EN).content.decode()


def test_the_profile_form_hides_presence(ana):
    page = ana.client.get("/me/profile/", headers=EN).content.decode()
    assert 'id="profile-social"' in page
    assert ana.client.post("/me/presence/", {"hide_presence": "1"}).status_code == 302
    assert selectors.hides_presence(ana.player)
    ana.client.post("/me/presence/", {})
    assert not selectors.hides_presence(ana.player)


def test_the_presence_setting_is_for_accounts(client):
    client.post("/api/tables", {"name": "Gus"}, content_type="application/json")
    response = client.put("/api/me/presence", {"hide_presence": True}, content_type="application/json")
    assert response.status_code == 403
    assert client.put("/api/me/presence", "[]", content_type="application/json").status_code == 400


def test_presence_needs_one_query_however_many_players(ana, ben, carla, django_assert_num_queries):
    ids = [ana.player.pk, ben.player.pk, carla.player.pk]
    with django_assert_num_queries(1):
        selectors.presence_of(ids, timezone.now())
    services.hide_presence(carla.player, True)
    assert selectors.presence_of(ids, timezone.now())[carla.player.pk].hidden
