"""Head-to-head: "you against Ana: 7 won, 5 lost, last on 2 December" on a player page and on
the challenge form, linking to those matches in the archive; an invite-only match counts only
for its two players."""

from __future__ import annotations

import datetime as dt

import pytest

from tables.play.models import Match
from tables.records import services as records
from tables.social import selectors
from tests.tables.helpers import ApiClient, make_account_client, started

from .conftest import named

pytestmark = pytest.mark.django_db

EN = {"accept-language": "en"}
DAY = dt.datetime(2026, 12, 2, 15, tzinfo=dt.UTC)


def _resigned(loser: ApiClient, winner: ApiClient, **options) -> Match:
    """A match started by ``loser`` and at once resigned: over, ``winner`` won."""
    token, _ = started(loser, winner, **options)
    loser.ok("post", f"/tables/{token}/resign", {"expected_version": loser.state(token)["version"]})
    return Match.objects.get(table__invite_token=token)


def test_the_record_counts_wins_losses_and_the_last_day(ana, ben):
    _resigned(ana, ben)
    _resigned(ben, ana, visibility="public")
    last = _resigned(ben, ana)
    Match.objects.update(ended_at=DAY - dt.timedelta(days=3))
    Match.objects.filter(pk=last.pk).update(ended_at=DAY)
    records.rebuild()  # the dates changed behind the writers' back: recounted from the matches
    record = selectors.head_to_head(ana.player, ben.player)
    assert (record.won, record.lost, record.matches, record.last_on) == (2, 1, 3, DAY)
    mirror = selectors.head_to_head(ben.player, ana.player)
    assert (mirror.won, mirror.lost, mirror.matches) == (1, 2, 3)


def test_the_player_page_and_the_challenge_form_say_it_and_link_to_the_matches(ana, ben):
    match = _resigned(ben, ana)
    Match.objects.filter(pk=match.pk).update(ended_at=DAY)
    records.rebuild()
    line = "you against Ben: 1 won, 0 lost, last on December 2"
    page = ana.client.get(f"/players/{ben.player.pk}/", headers=EN).content.decode()
    assert line in page and f"/players/{ben.player.pk}/versus/" in page
    form = ana.client.get(f"/new/?opponent={ben.player.pk}", headers=EN).content.decode()
    assert line in form
    spanish = ana.client.get(f"/players/{ben.player.pk}/", headers={"accept-language": "es"}).content.decode()
    assert "tú contra Ben: 1 ganadas, 0 perdidas, la última el 2 de diciembre" in spanish
    versus = ana.client.get(f"/players/{ben.player.pk}/versus/", headers=EN).content.decode()
    assert f"/matches/{match.pk}/" in versus


def test_nothing_before_a_first_match_and_nothing_on_ones_own_page(ana, ben):
    page = ana.client.get(f"/players/{ben.player.pk}/", headers=EN).content.decode()
    assert "you against" not in page
    assert "you against" not in ana.client.get(f"/players/{ana.player.pk}/", headers=EN).content.decode()
    assert ana.client.get(f"/players/{ana.player.pk}/versus/").status_code == 404
    assert ana.client.get("/players/999999/versus/").status_code == 404


def test_an_invite_only_match_counts_only_for_its_two_players(ana, ben, carla):
    private = _resigned(ana, ben)  # invite-only: the default
    assert selectors.head_to_head(ben.player, ana.player).matches == 1
    # Carla sees no trace of it: not in her record against either, nor on their pages.
    assert selectors.head_to_head(carla.player, ana.player).matches == 0
    for shown in (ana.player, ben.player):
        page = carla.client.get(f"/players/{shown.pk}/", headers=EN).content.decode()
        assert "you against" not in page and f"/matches/{private.pk}/" not in page
        versus = carla.client.get(f"/players/{shown.pk}/versus/", headers=EN).content.decode()
        assert f"/matches/{private.pk}/" not in versus
    social = carla.ok("get", f"/players/{ana.player.pk}/social")["head_to_head"]
    assert social["matches"] == 0 and social["last_on"] is None


def test_the_api_answers_the_record(ana, ben):
    _resigned(ben, ana)
    body = ana.ok("get", f"/players/{ben.player.pk}/social")
    assert body["head_to_head"]["won"] == 1 and body["head_to_head"]["opponent"] == "Ben"
    assert ana.ok("get", f"/players/{ana.player.pk}/social")["head_to_head"] is None
    assert ana.get("/players/999999/social").status_code == 404


def test_the_record_is_one_query(ana, ben, django_assert_num_queries):
    for _ in range(3):
        _resigned(ana, ben)
    other = named(make_account_client("dora@example.com"), "Dora")
    _resigned(other, ana)
    with django_assert_num_queries(1):
        record = selectors.head_to_head(ana.player, ben.player)
    assert record.matches == 3
