"""The accuracy figures over more than a deal: a match's per seat and an account's over its last
rated reviewed matches, from the stored reviews' sums, in the JSON API and on the pages."""

from __future__ import annotations

from dataclasses import replace

import pytest
from django.test import Client

from bots.review import REVIEW_SETTINGS
from bots.review_verdicts import accuracy_of
from config.celery import app
from tables.play.models import Match, Table
from tables.reviews import selectors as accuracy
from tables.reviews import services as reviews
from tables.reviews.models import DealReview
from tests.tables.helpers import play_deal, play_match, started

RATED = {"rated": True, "turn_seconds": 86400, "visibility": "public"}


@pytest.fixture(autouse=True)
def _cheap_reviews_inline(monkeypatch):
    monkeypatch.setitem(app.conf, "task_always_eager", True)
    monkeypatch.setattr(
        reviews, "REVIEW_SETTINGS", replace(REVIEW_SETTINGS, draw_samples=8, discard_samples=6)
    )


def losses_by_seat() -> dict[int, list[float]]:
    return {
        row.seat: [decision["points_loss"] for decision in row.result["decisions"]]
        for row in DealReview.objects.all()
    }


@pytest.mark.slow  # a whole deal reviewed, both seats
def test_a_reviewed_rated_match_gives_each_seat_and_each_player_an_accuracy(alice, bob):
    token, players = started(alice, bob, **RATED)  # one deal is the whole match, unless it is dead
    play_match(token, players)
    match = Match.objects.get()
    assert match.status == Match.Status.OVER
    path = f"/matches/{match.pk}/accuracy"
    assert alice.ok("get", path)["seats"] == [
        {"accuracy": None, "decisions": 0, "deals": 0, "matches": 0},
        {"accuracy": None, "decisions": 0, "deals": 0, "matches": 0},
    ]
    alice.ok("post", f"/tables/{token}/matches/1/deals/1/review", status=202)
    losses = losses_by_seat()
    seats = alice.ok("get", path)["seats"]
    for seat in (0, 1):
        assert seats[seat]["decisions"] == len(losses[seat]) and seats[seat]["deals"] == 1
        assert seats[seat]["accuracy"] == pytest.approx(accuracy_of(losses[seat]), abs=0.05)
    table = Table.objects.get()
    mine = alice.ok("get", f"/players/{table.seat0_id}/accuracy")
    assert mine["player"] == seats[0] and mine["robots"] == []
    assert accuracy.player_accuracy(table.seat1) == accuracy.match_accuracy(match)[1]
    page = Client().get(f"/matches/{match.pk}/").content.decode()
    assert 'class="match-accuracy"' in page
    player_page = Client().get(f"/players/{table.seat0_id}/").content.decode()
    assert 'class="player-accuracy"' in player_page


def test_an_old_scale_review_counts_for_no_accuracy(alice, bob):
    token, players = started(alice, bob, **RATED)
    play_deal(token, players)
    deal = Match.objects.get().deals.get()
    DealReview.objects.create(
        deal=deal, seat=0, status=DealReview.Status.DONE, total=12, result={"decisions": []}
    )
    assert accuracy.match_accuracy(Match.objects.get())[0] == accuracy.Accuracy(None, 0, 0, 0)


def test_an_unknown_player_has_no_accuracy(alice):
    assert alice.request("get", "/players/999999/accuracy").status_code == 404
