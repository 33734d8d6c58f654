"""A refused request changes nothing, not even the caller's identity: a visitor whose table is
refused does not become a guest (found by the schema fuzzer)."""

from __future__ import annotations

import pytest
from django.test import Client

from tables.accounts.models import Player
from tables.play.models import Table
from tests.tables.helpers import ApiClient, seated_table

pytestmark = pytest.mark.django_db


def test_a_refused_table_from_the_api_leaves_no_guest_behind() -> None:
    visitor = ApiClient()
    response = visitor.post("/tables", {"name": "Eve", "ruleset": "no such rules"})
    assert response.status_code == 400 and response.json()["field"] == "ruleset"
    assert not Player.objects.exists() and not Table.objects.exists()
    assert visitor.get("/me").status_code == 401  # still a visitor


def test_a_refused_table_from_the_page_leaves_no_guest_behind() -> None:
    visitor = Client()
    response = visitor.post("/new/", {"name": "Eve", "ruleset": "playgridia", "turn_seconds": "7"})
    assert response.status_code == 200  # the form again, with the reason
    assert not Player.objects.exists() and not Table.objects.exists()


def test_an_accepted_table_still_makes_the_visitor_a_guest() -> None:
    visitor = ApiClient()
    state = visitor.ok("post", "/tables", {"name": "Eve"}, status=201)
    assert state["you"] == {"seat": 0, "is_owner": True}
    assert Player.objects.get().display_name == "Eve"


def test_a_refused_bot_leaves_no_bot_player_behind(alice, bob) -> None:
    token = seated_table(alice, bob)  # both seats taken: no room for a bot
    response = alice.post(f"/tables/{token}/bot", {"level": "luna"})
    assert response.status_code == 409 and response.json()["error"] == "conflict"
    assert not Player.objects.filter(is_bot=True).exists()
