"""The tournament pages in both languages: the list and its filters, the form, the page with
its entry rules (met or why not), players, crosstable and standings, and its buttons."""

from __future__ import annotations

import random

import pytest

from tables.tournaments import services
from tables.tournaments.models import Pairing, Tournament
from tests.tables.helpers import cards_in, make_account_client, pages_in

from .helpers import play_out

pytestmark = pytest.mark.django_db


def form(**fields):
    return {"name": "Club night", "format": "swiss", "ruleset": "playgridia", "turn_seconds": "86400",
            "max_players": "3", "swiss_rounds": "2", "accounts_only": "on", "vacation_allowed": "on",
            "visibility": "invite", **fields}  # fmt: skip


def test_create_by_the_form_fill_with_a_robot_and_every_page_shows_the_event(after_commit):
    alice, bob = make_account_client("alice@example.com"), make_account_client("bob@example.com")
    response = alice.client.post("/tournaments/new/", form())
    tournament = Tournament.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/tournaments/{tournament.invite_token}/"
    page = f"/tournaments/{tournament.invite_token}/"
    alice.client.post(f"{page}join/")
    alice.client.post(f"{page}robot/", {"level": "tito"})
    with after_commit():  # the last place: round 1 opened by the task after the commit
        bob.client.post(f"{page}join/")
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.RUNNING
    match = Pairing.objects.filter(second__isnull=False).first()
    play_out(match.table_id, random.Random(7))
    for language in ("es", "en"):
        html = pages_in(bob.client, language, [page, "/tournaments/?status=running"])
        assert "Club night" in html[page] and f"/t/{match.table.invite_token}/" in html[page]
        assert cards_in(html[page]) == set()
    english = pages_in(bob.client, "en", [page])[page]
    assert "Round 1 is being played." in english and "Buchholz" in english
    spanish = pages_in(bob.client, "es", [page])[page]
    assert "Round 1 is being played." not in spanish


def test_a_player_who_misses_an_entry_rule_is_told_which_and_cannot_join():
    alice, bob = make_account_client("alice@example.com"), make_account_client("bob@example.com")
    alice.client.post("/tournaments/new/", form(min_rated_matches="5", visibility="public"))
    token = Tournament.objects.get().invite_token
    html = pages_in(bob.client, "en", [f"/tournaments/{token}/"])[f"/tournaments/{token}/"]
    assert 'data-rule="rated_matches" data-met="no"' in html
    assert "You need 5 finished rated matches at this pace; you have 0." in html
    assert 'id="join-tournament"' not in html
    bob.client.post(f"/tournaments/{token}/join/")
    assert Tournament.objects.get().entries.count() == 0
    listed = pages_in(bob.client, "en", ["/tournaments/", "/tournaments/?can_join=1"])
    assert "Club night" in listed["/tournaments/"] and "Club night" not in listed["/tournaments/?can_join=1"]


def test_a_bad_form_is_refused_with_a_message_and_creates_nothing():
    alice = make_account_client("alice@example.com")
    response = alice.client.post("/tournaments/new/", form(max_players="lots"), follow=True)
    assert response.status_code == 200 and not Tournament.objects.exists()
    assert alice.client.post("/tournaments/nope/join/").status_code == 302  # told on the page it redirects to
    assert alice.client.get("/tournaments/nope/").status_code == 404


def test_my_tables_and_the_player_page_list_the_events_played_and_won():
    alice, bob = make_account_client("alice@example.com"), make_account_client("bob@example.com")
    alice.client.post("/tournaments/new/", form(max_players="2", swiss_rounds="1", visibility="public"))
    token = Tournament.objects.get().invite_token
    alice.client.post(f"/tournaments/{token}/join/")
    bob.client.post(f"/tournaments/{token}/join/")
    assert services.advance(Tournament.objects.get().pk)  # round 1: the task after the start's commit
    pairing = Pairing.objects.get()
    play_out(pairing.table_id, random.Random(11))
    services.record_match_end(pairing.table_id)  # as the announcement after the commit does
    services.advance(pairing.round.tournament_id)  # and the task after it
    tournament = Tournament.objects.get()
    winner = tournament.winner
    mine = pages_in(alice.client, "en", ["/me/tables/"])["/me/tables/"]
    assert "My tournaments" in mine and f"/tournaments/{token}/" in mine
    page = pages_in(bob.client, "en", [f"/players/{winner.pk}/"])[f"/players/{winner.pk}/"]
    assert f"/tournaments/{token}/" in page and "<strong>won</strong>" in page


def test_a_started_event_shows_round_1_being_paired_until_its_task_opens_it():
    alice, bob = make_account_client("alice@example.com"), make_account_client("bob@example.com")
    alice.client.post("/tournaments/new/", form(max_players="2", swiss_rounds="1", visibility="public"))
    tournament = Tournament.objects.get()
    page = f"/tournaments/{tournament.invite_token}/"
    alice.client.post(f"{page}join/")
    bob.client.post(f"{page}join/")  # the last place: started; round 1 is its task's, not run yet
    pending = "Round 1 is being paired: its tables open in a moment."
    english = pages_in(bob.client, "en", [page, "/me/tables/"])
    assert pending in english[page] and "Round 0" not in english[page]
    assert "round 1 being paired" in english["/me/tables/"] and "round 0" not in english["/me/tables/"]
    spanish = pages_in(bob.client, "es", [page])[page]
    assert "Se está emparejando la ronda 1: sus mesas se abren en un momento." in spanish
    detail = bob.ok("get", f"/tournaments/{tournament.invite_token}")
    assert (detail["status"], detail["round"], detail["first_round_pending"]) == ("running", 0, True)
    assert detail["rounds"] == [] and {entry["seed"] for entry in detail["entries"]} == {1, 2}
    assert services.advance(tournament.pk)  # the task
    english = pages_in(bob.client, "en", [page])[page]
    assert pending not in english and "Round 1 is being played." in english
    table = Pairing.objects.get().table
    assert f"/t/{table.invite_token}/" in english
    assert bob.ok("get", f"/tournaments/{tournament.invite_token}")["first_round_pending"] is False
