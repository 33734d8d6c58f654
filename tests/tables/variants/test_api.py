"""Tables of three and four in the JSON API: four browsers by one invite link (guests among
them), a robot, the start, each player's deal at its board's table, clear refusals, and not one
card of any hand in anything sent to any seat, spectator or outsider."""

from __future__ import annotations

import random

import pytest
from django.test import Client

from tables.play.models import Table
from tables.variants.models import GameTable
from tests.tables.helpers import ApiClient, assert_no_hidden_cards, cards_in, make_account_client

from .helpers import committed, play_board

pytestmark = pytest.mark.django_db


def guest(name: str) -> ApiClient:
    return ApiClient(Client(), name=name)


def test_four_by_one_link_with_a_robot_play_a_round_and_nobody_sees_a_hidden_card():
    alice = make_account_client("alice@example.com")
    created = alice.ok("post", "/games", {"players": 4, "ruleset": "classic", "target": 10000}, 201)
    token = created["token"]
    assert created["variant"] == "partnership" and created["you"] == 0 and created["target"] == 10000
    carol, dave = guest("Carol"), guest("Dave")
    assert carol.ok("post", f"/games/{token}/join", {"name": "Carol"})["you"] == 1
    assert dave.ok("post", f"/games/{token}/join", {"name": "Dave"})["you"] == 2
    alice.ok("post", f"/games/{token}/robots", {"level": "carmen"})
    outsider = guest("Eve")
    assert outsider.ok("post", f"/games/{token}/join", {"name": "Eve"})["you"] is None  # full: watches
    with committed():
        started = alice.ok("post", f"/games/{token}/start")
    assert started["status"] == "playing" and started["teams"] == [[0, 2], [1, 3]]
    clients = {0: alice, 1: carol, 2: dave}
    for seat, client in clients.items():
        mine = client.ok("get", f"/games/{token}")["your_board"]
        assert mine is not None and seat in mine["players"]
        state = client.ok("get", f"/tables/{mine['table']}")
        assert state["you"]["seat"] == mine["players"].index(seat)
    boards = started["boards"]
    for board in boards:
        seated = {board["players"].index(seat): clients[seat] for seat in board["players"] if seat in clients}
        outsider.ok("get", f"/tables/{board['table']}")
        assert_no_hidden_cards(board["table"], seated, watchers=[outsider])
        play_board(Table.objects.get(invite_token=board["table"]).pk, random.Random(board["number"]))
    after = outsider.ok("get", f"/games/{token}")
    assert len(after["score_sheet"]) == 1 and [b["round"] for b in after["boards"]] == [1, 1, 2, 2]
    for client in (*clients.values(), outsider):
        for body in client.received:
            if '"variant"' in body:  # a game's answer: no card in it at all
                assert not cards_in(body)


def test_refusals_are_clear_and_change_nothing():
    alice, bob = make_account_client("alice@example.com"), make_account_client("bob@example.com")
    assert alice.request("post", "/games", {"players": 5}).status_code == 400
    assert alice.request("post", "/games", {"players": 4, "hollywood": True}).status_code == 400
    assert alice.request("post", "/games", {"players": 3, "rated": True}).status_code in (400, 422)
    assert not GameTable.objects.exists()
    token = alice.ok("post", "/games", {"players": 3}, 201)["token"]
    assert bob.request("post", f"/games/{token}/start").status_code == 403
    assert alice.request("post", f"/games/{token}/start").status_code == 409
    assert bob.request("post", f"/games/{token}/robots", {"level": "tito"}).status_code == 403
    assert alice.request("post", f"/games/{token}/robots", {"level": "nobody"}).status_code == 400
    assert alice.request("get", "/games/nonsense").status_code == 404
    assert bob.request("post", f"/games/{token}/resign").status_code in (403, 409)
    assert Client().post(f"/api/games/{token}/start").status_code == 401
    assert GameTable.objects.get(invite_token=token).version == 0
