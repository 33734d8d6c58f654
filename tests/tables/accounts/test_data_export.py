"""Download my data: one JSON archive, built in the background and offered by a signed link that
expires; it round-trips its matches (replaying each move log with the rules engine gives the
stored result), and holds the profile, reviews, ratings history, chat and alert settings."""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

import rules
from config.celery import app
from tables.accounts.models import DataExport, Player
from tables.background import registry
from tables.play.models import Deal, Match
from tables.ratings.models import RatingChange
from tables.reviews.models import DealReview
from tests.tables.helpers import ApiClient, make_account_client, play_match, started
from tests.tables.rating_helpers import both_have_moved

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _exports_built_inline(monkeypatch):
    """No Celery worker runs in these tests: the archive is built inline, with Redis (.ci/run)
    as without it."""
    monkeypatch.setitem(app.conf, "task_always_eager", True)


RATED = {"rated": True, "turn_seconds": 86400}


def ask(client: ApiClient, capture: Any) -> dict[str, Any]:
    with capture(execute=True):
        return client.ok("post", "/me/export", {}, status=202)


def world() -> dict[str, Any]:
    alice, bob = make_account_client("alice@example.com"), make_account_client("bob@example.com")
    alice.ok("patch", "/me", {"alert_prefs": {"digest": True}})
    token, players = started(alice, bob, **RATED)
    alice.ok("post", f"/tables/{token}/chat", {"text": "good luck"}, status=201)
    play_match(token, players)
    resigned, seats = started(bob, alice)
    both_have_moved(resigned, seats)
    bob.ok("post", f"/tables/{resigned}/resign", {})
    played = Match.objects.get(table__invite_token=token)
    deal = played.deals.order_by("number").first()
    assert deal is not None
    seat = played.table.seat_of(Player.objects.get(user=alice.user))
    DealReview.objects.create(deal=deal, seat=seat, status=DealReview.Status.DONE, result={"decisions": []})
    return {"alice": alice, "bob": bob, "played": played, "resigned": resigned}


def test_the_archive_is_built_in_the_background_and_round_trips_its_matches(
    django_capture_on_commit_callbacks,
):
    assert registry.BUILD_DATA_EXPORT in registry.WORK
    w = world()
    alice = w["alice"]
    assert alice.ok("get", "/me/export")["status"] == "none"
    row = ask(alice, django_capture_on_commit_callbacks)
    assert row["status"] in ("pending", "ready")
    row = alice.ok("get", "/me/export")
    assert row["status"] == "ready" and row["url"].startswith("/me/export/")
    expires = dt.datetime.fromisoformat(row["expires_at"])
    assert dt.timedelta(days=6, hours=23) < expires - timezone.now() <= dt.timedelta(days=7)
    response = alice.client.get(row["url"])
    assert response.status_code == 200 and "attachment" in response["Content-Disposition"]
    data = json.loads(response.content)

    assert data["format"] == "ginmesa-data-export/1"
    assert data["profile"]["email_addresses"][0]["email"] == "alice@example.com"
    assert data["profile"]["bot_account_at"] is None  # a person (tests/tables/accounts/test_bot_accounts.py)
    assert data["alerts"]["settings"]["digest"] is True
    assert [line["text"] for line in data["chat"]] == ["good luck"]
    history = data["ratings"]["history"]
    assert [change["match_id"] for change in history] == [w["played"].pk]
    assert (
        history[0]["rating_after"]
        == RatingChange.objects.get(match=w["played"], player__user=alice.user).rating_after
    )
    assert len(data["matches"]) == 2
    reviewed = next(match for match in data["matches"] if match["id"] == w["played"].pk)
    assert reviewed["reviews"] == [{"deal": 1, "review": {"decisions": []}}]

    for match in data["matches"]:
        stored = Match.objects.get(pk=match["id"])
        assert match["export"]["match"] == stored.record and match["winner"] == stored.winner
        finished = stored.deals.exclude(status=Deal.Status.ABANDONED)
        assert [deal["number"] for deal in match["export"]["deals"]] == [deal.number for deal in finished]
        for exported, deal in zip(match["export"]["deals"], finished, strict=True):
            replayed = rules.replay(
                rules.Ruleset.from_dict(exported["ruleset"]),
                exported["dealer"],
                exported["deck"],
                exported["actions"],
            )
            assert replayed.is_over and replayed.outcome == exported["outcome"] == deal.outcome
            assert replayed.to_dict() == deal.snapshot
            result = replayed.result
            assert result is not None
    # The resigned match's unfinished deal stays secret: no deck of it in the archive.
    resigned = next(match for match in data["matches"] if match["table"] == w["resigned"])
    abandoned = Deal.objects.get(match_id=resigned["id"], status=Deal.Status.ABANDONED)
    assert " ".join(abandoned.deck.split()[:10]) not in response.content.decode().replace('", "', " ")


def test_the_link_is_its_accounts_only_and_expires(django_capture_on_commit_callbacks):
    alice, bob = make_account_client("alice@example.com"), make_account_client("bob@example.com")
    url = ask(alice, django_capture_on_commit_callbacks)["url"] or alice.ok("get", "/me/export")["url"]
    assert alice.client.get(url).status_code == 200
    assert bob.client.get(url).status_code == 404
    assert Client().get(url).status_code == 302  # to the login
    assert alice.client.get(url[:-3] + "abc/").status_code == 404
    DataExport.objects.update(expires_at=timezone.now() - dt.timedelta(seconds=1))
    assert alice.client.get(url).status_code == 404
    # Asking again soon gives the same archive; later a new one, and the old link is gone.
    first = DataExport.objects.get()
    assert ask(alice, django_capture_on_commit_callbacks)["created_at"] == first.created_at.isoformat()
    DataExport.objects.update(created_at=timezone.now() - dt.timedelta(hours=2))
    ask(alice, django_capture_on_commit_callbacks)
    assert DataExport.objects.count() == 1 and DataExport.objects.get().pk != first.pk


def test_a_program_and_a_stranger_get_no_archive():
    alice = make_account_client("alice@example.com")
    raw = alice.ok("post", "/me/tokens", {"name": "t", "scope": "play"}, status=201)["token"]
    assert ApiClient(token=raw).request("post", "/me/export", {}).status_code == 403
    assert ApiClient().request("get", "/me/export").status_code in (401, 403)
    schema = Client().get("/api/openapi.json").json()
    assert {"get", "post"} <= set(schema["paths"]["/api/me/export"])


def test_the_page_asks_for_an_archive_and_offers_it(django_capture_on_commit_callbacks):
    alice = make_account_client("alice@example.com")
    assert alice.client.get("/me/export/").status_code == 200
    with django_capture_on_commit_callbacks(execute=True):
        assert alice.client.post("/me/export/").status_code == 302
    page = alice.client.get("/me/export/").content.decode()
    assert 'id="export-download"' in page
    assert 'id="data-export-link"' in alice.client.get("/me/profile/").content.decode()
