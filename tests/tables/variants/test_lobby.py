"""Public tables of three and four in the lobby (page and API): listed while they wait with a
seat free, never when by invite, full, started, or when a seated player and the viewer are
blocked either way; a wrong visibility refused with nothing opened."""

from __future__ import annotations

import pytest
from django.test import Client

from tables.accounts.identity import player_for_user
from tables.social import services as social
from tables.variants.models import GameTable
from tests.tables.helpers import make_account_client, pages_in

from .helpers import committed
from .test_pages import FORM

pytestmark = pytest.mark.django_db


def listed(client) -> list[str]:
    return [row["token"] for row in client.ok("get", "/games")["games"]]


def test_a_public_table_is_listed_while_it_waits_with_a_seat_free():
    alice, bob = make_account_client("alice@example.com"), make_account_client("bob@example.com")
    public = alice.ok("post", "/games", {"players": 3, "visibility": "public"}, 201)
    private = alice.ok("post", "/games", {"players": 4}, 201)
    assert public["visibility"] == "public" and private["visibility"] == "invite"
    assert listed(bob) == [public["token"]]
    row = bob.ok("get", "/games")["games"][0]
    assert (row["variant"], row["taken"], row["seat_count"], row["owner"]) == ("winner_stays", 1, 3, "alice")

    bob.ok("post", f"/games/{public['token']}/join", {})
    alice.ok("post", f"/games/{public['token']}/robots", {"level": "tito"})
    assert listed(bob) == []  # full: it waits for its start, not for players
    alice.ok("post", f"/games/{public['token']}/leave", {"seat": 2})
    assert listed(bob) == [public["token"]]
    alice.ok("post", f"/games/{public['token']}/robots", {"level": "tito"})
    with committed():
        alice.ok("post", f"/games/{public['token']}/start")
    alice.ok("post", f"/games/{public['token']}/leave", {"seat": 2}, 409)
    assert listed(bob) == []


def test_the_lobby_page_lists_it_in_both_languages_and_the_form_opens_it():
    alice = make_account_client("alice@example.com")
    alice.client.post("/new/", {**FORM, "players": "4", "visibility": "public"})
    game = GameTable.objects.get()
    assert game.visibility == "public"
    pages = {lang: pages_in(Client(), lang, ["/lobby/"])["/lobby/"] for lang in ("en", "es")}
    assert f'data-game="{game.invite_token}"' in pages["en"] and "1 of 4 seats taken" in pages["en"]
    assert "Table of four: partnership gin" in pages["en"]
    assert "1 de 4 asientos ocupados" in pages["es"]
    GameTable.objects.update(visibility="invite")
    empty = Client().get("/lobby/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "No public table of three or four is waiting for players." in empty


def test_a_blocked_viewer_does_not_see_the_tables_where_they_could_not_sit():
    alice, bob = make_account_client("alice@example.com"), make_account_client("bob@example.com")
    token = alice.ok("post", "/games", {"players": 3, "visibility": "public"}, 201)["token"]
    social.block(player_for_user(alice.user), player_for_user(bob.user))
    assert listed(bob) == [] and listed(make_account_client("carol@example.com")) == [token]
    page = bob.client.get("/lobby/").content.decode()
    assert token not in page


def test_a_wrong_visibility_is_refused_and_opens_nothing():
    alice = make_account_client("alice@example.com")
    answer = alice.request("post", "/games", {"players": 3, "visibility": "everyone"})
    assert answer.status_code == 400 and "visibility" in answer.content.decode()
    assert not GameTable.objects.exists()
