"""Private notes per match: a seated player's own, kept with the match, shown to them at the table
and in their archive, and never in anything the opponent, a spectator or a visitor receives."""

from __future__ import annotations

import pytest
from django.test import Client

from tables.play.models import Table
from tables.social.models import MatchNote
from tests.tables.helpers import ApiClient, make_account_client, open_table, play_match, started

pytestmark = pytest.mark.django_db

SECRET = "Ben picks up sevens: keep them, throw the kings (note-marker-53)"


def _match_id(token: str) -> int:
    return Table.objects.get(invite_token=token).current_deal.match_id


def test_a_note_is_its_author_own_and_kept_with_the_match(alice, bob):
    token, _ = started(alice, bob)
    saved = alice.ok("put", f"/tables/{token}/note", {"text": SECRET})
    assert saved["text"] == SECRET and saved["match_id"] == _match_id(token) and saved["updated_at"]
    assert alice.ok("get", f"/tables/{token}/note")["text"] == SECRET
    assert bob.ok("get", f"/tables/{token}/note")["text"] == ""  # his own, empty: never hers
    alice.ok("put", f"/tables/{token}/note", {"text": SECRET + " (2)"})  # replaced, not added
    [note] = MatchNote.objects.all()
    assert note.text == SECRET + " (2)" and note.match_id == _match_id(token)


def test_who_may_keep_a_note_and_bad_notes(alice, bob):
    carol = make_account_client("carol-notes@example.com")
    waiting = open_table(alice)["table"]
    refused = alice.request("put", f"/tables/{waiting}/note", {"text": "x"})
    assert refused.status_code == 409 and refused.json()["error"]  # no match yet
    token, _ = started(alice, bob)
    assert carol.request("get", f"/tables/{token}/note").status_code == 403  # a spectator
    assert carol.request("put", f"/tables/{token}/note", {"text": "x"}).status_code == 403
    assert ApiClient(Client()).get(f"/tables/{token}/note").status_code == 401
    assert alice.request("get", "/tables/nosuchtable/note").status_code == 404
    too_long = alice.request("put", f"/tables/{token}/note", {"text": "x" * 4001})
    assert too_long.status_code == 413 and too_long.json()["field"] == "text"
    assert alice.request("put", f"/tables/{token}/note", {}).status_code in (400, 422)
    assert MatchNote.objects.count() == 0


def test_the_table_page_form_saves_and_shows_the_note_to_its_author_only(alice, bob):
    token, _ = started(alice, bob)
    answer = alice.client.post(f"/t/{token}/note/", {"text": SECRET})
    assert answer.status_code == 302 and answer["Location"] == f"/t/{token}/"
    mine = alice.client.get(f"/t/{token}/").content.decode()
    assert SECRET in mine and "Mis notas" in mine  # Spanish, the site's first language
    bob_page = bob.client.get(f"/t/{token}/").content.decode()
    assert SECRET not in bob_page and 'id="note-text"' in bob_page  # his own box, empty
    assert 'id="note-text"' not in Client().get(f"/t/{token}/").content.decode()
    assert bob.client.post("/t/nosuchtable/note/", {"text": "x"}).status_code == 404


def test_a_note_is_in_no_body_another_identity_receives(alice, bob):
    carol = make_account_client("carol-watch@example.com")
    token, players = started(alice, bob, target=10)
    alice.ok("put", f"/tables/{token}/note", {"text": SECRET})
    match_id = _match_id(token)
    play_match(token, players, watchers=[carol])
    assert alice.ok("get", f"/tables/{token}/note")["match_id"] == match_id
    for other in (bob, carol):
        other.get(f"/tables/{token}")
        other.get(f"/tables/{token}/note")
        other.get(f"/tables/{token}/chat")
        other.get(f"/matches/{match_id}")
        other.get("/me/archive")
        for page in (
            f"/t/{token}/",
            f"/matches/{match_id}/",
            "/me/archive/",
            f"/matches/{match_id}/deals/1/",
        ):
            other.received.append(other.client.get(page).content.decode())
        assert other.received and not any(SECRET in body for body in other.received)
    visitor = Client()
    for page in (f"/t/{token}/", f"/matches/{match_id}/", f"/api/matches/{match_id}"):
        assert SECRET not in visitor.get(page).content.decode()
    archive = alice.client.get(f"/matches/{match_id}/").content.decode()
    assert SECRET in archive and 'id="archive-note"' in archive
