"""Tournaments in the JSON API: the same rules as the services, with clear 4xx refusals, and no
card of any match in anything a tournament answers."""

from __future__ import annotations

import random

import pytest

from tables.tournaments.models import Pairing, Tournament
from tests.tables.helpers import cards_in, make_account_client

from .helpers import play_out

pytestmark = pytest.mark.django_db


def create(client, **body):
    return client.ok(
        "post", "/tournaments", {"name": "Club night", "max_players": 3, "swiss_rounds": 2, **body}, 201
    )


def test_create_join_by_link_and_the_event_starts_when_full(after_commit):
    alice, bob, carol = (make_account_client(f"{n}@example.com") for n in ("alice", "bob", "carol"))
    created = create(alice, visibility="invite")
    token = created["token"]
    assert created["status"] == "registering" and created["settings"]["swiss_rounds"] == 2
    assert created["round"] == 0 and created["first_round_pending"] is False
    assert alice.ok("get", "/tournaments")["tournaments"] == []  # by link only: not listed
    alice.ok("post", f"/tournaments/{token}/join")
    bob.ok("post", f"/tournaments/{token}/join")
    with after_commit():
        started = carol.ok("post", f"/tournaments/{token}/join")
    # answered before the task after its commit: running, round 1 being paired
    assert started["status"] == "running" and started["entered"]
    assert started["first_round_pending"] is True and started["round"] == 0 and started["rounds"] == []
    assert [entry["seed"] for entry in started["entries"]] == [1, 2, 3]
    started = carol.ok("get", f"/tournaments/{token}")
    assert started["first_round_pending"] is False and started["round"] == 1
    (pairings,) = [group["pairings"] for group in started["rounds"][0]["groups"]]
    assert len(pairings) == 2 and sum(p["second"] is None for p in pairings) == 1  # a match and a bye
    match = next(p for p in pairings if p["second"] is not None)
    state = alice.ok("get", f"/tables/{match['table']}")
    assert state["status"] == "playing"


def test_refusals_are_clear_and_change_nothing():
    alice, bob = make_account_client("alice@example.com"), make_account_client("bob@example.com")
    assert alice.request("post", "/tournaments", {"name": "", "max_players": 4}).status_code == 400
    assert alice.request("post", "/tournaments", {"name": "x", "max_players": "many"}).status_code in (
        400,
        422,
    )
    token = create(alice, min_rating=1600)["token"]
    refused = bob.request("post", f"/tournaments/{token}/join")
    assert refused.status_code == 403 and "1500" in refused.json()["detail"]
    detail = bob.ok("get", f"/tournaments/{token}")
    assert detail["may_join"] is False
    assert [rule["rule"] for rule in detail["entry_rules"] if not rule["met"]] == ["rating"]
    assert bob.request("post", f"/tournaments/{token}/cancel").status_code == 403
    assert bob.request("post", f"/tournaments/{token}/withdraw").status_code == 409
    assert bob.request("get", "/tournaments/nope").status_code == 404
    assert bob.request("get", "/tournaments?status=someday").status_code == 400
    assert Tournament.objects.get().entries.count() == 0


def test_the_list_filters_and_says_which_events_the_caller_can_join():
    alice, bob = make_account_client("alice@example.com"), make_account_client("bob@example.com")
    open_one = create(alice, ruleset="classic")["token"]
    create(alice, min_rated_matches=5)
    create(alice, turn_seconds=60)
    listed = bob.ok("get", "/tournaments")["tournaments"]
    assert len(listed) == 3
    assert [row["token"] for row in bob.ok("get", "/tournaments?ruleset=classic")["tournaments"]] == [
        open_one
    ]
    assert len(bob.ok("get", "/tournaments?pace=live")["tournaments"]) == 1
    assert len(bob.ok("get", "/tournaments?can_join=true")["tournaments"]) == 2


def test_robots_complete_an_unrated_event_and_the_crosstable_shows_no_card(after_commit):
    alice, bob = make_account_client("alice@example.com"), make_account_client("bob@example.com")
    token = create(alice)["token"]
    alice.ok("post", f"/tournaments/{token}/join")
    bob.ok("post", f"/tournaments/{token}/join")
    assert bob.request("post", f"/tournaments/{token}/robots", {"level": "tito"}).status_code == 403
    with after_commit():  # the robot takes the last place: round 1 follows in its task
        alice.ok("post", f"/tournaments/{token}/robots", {"level": "tito"})
    pairing = Pairing.objects.filter(second__isnull=False).first()
    play_out(pairing.table_id, random.Random(5))
    for client in (alice, bob):
        body = client.request("get", f"/tournaments/{token}").content.decode()
        assert cards_in(body) == set()
    assert "/api/tournaments/{token}/join" in alice.client.get("/api/openapi.json").content.decode()
