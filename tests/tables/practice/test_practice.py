"""Practice from your own mistakes through the API: made from the player's own reviewed deal,
each position the player's own view only (the hidden-information scan), LUNA's choice and its
reason only after an answer, bad answers refused and changing nothing."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from bots.review import REVIEW_SETTINGS, decision_points
from config.celery import app
from tables.play import engine
from tables.play.models import Deal, Match
from tables.practice.models import PracticePosition
from tables.reviews import services as reviews
from tables.reviews.models import DealReview
from tests.tables.helpers import cards_in, make_account_client, play_deal, secret_cards, started


@pytest.fixture(autouse=True)
def _cheap_reviews_inline(monkeypatch):
    monkeypatch.setitem(app.conf, "task_always_eager", True)
    monkeypatch.setattr(
        reviews, "REVIEW_SETTINGS", replace(REVIEW_SETTINGS, draw_samples=8, discard_samples=6)
    )


def reviewed_deal(alice, bob) -> tuple[int, str]:
    """A finished one-deal match, reviewed, with every decision of Alice's marked a mistake (a
    planted verdict: which positions are practised is the review's, the test needs some):
    (Alice's seat, the practice's path)."""
    token, players = started(alice, bob)
    seat = next(seat for seat, client in players.items() if client is alice)
    play_deal(token, players)
    alice.ok("post", f"/tables/{token}/matches/1/deals/1/review", status=202)
    row = DealReview.objects.get(seat=seat)
    for decision in row.result["decisions"]:
        decision["verdict"] = "mistake"
    row.save(update_fields=["result"])
    match = Match.objects.get()
    return seat, f"/matches/{match.pk}/deals/1/practice"


@pytest.mark.slow  # a whole deal reviewed
def test_practice_positions_are_the_players_own_view_and_luna_answers_after_them(alice, bob):
    seat, path = reviewed_deal(alice, bob)
    made = alice.ok("post", path, status=201)["positions"]
    deal = engine.load_deal(Deal.objects.get())
    befores = {number: before for number, before, _ in decision_points(deal, (seat,))}
    assert [one["number"] for one in made] == sorted(befores) and made
    for position in made:
        assert not position["answered"] and position["luna"] is None and position["played"] is None
        before = befores[position["number"]]
        assert position["view"] == before.view(seat).to_dict()
        shown = cards_in(json.dumps(position))
        assert shown and not shown & secret_cards(before, seat), position["number"]
    assert alice.ok("post", path, status=201)["positions"] == made  # made once
    first = made[0]
    answer_path = f"/me/practice/{first['id']}/answer"
    assert alice.request("post", answer_path, {"action": "discard ZZ"}).status_code == 400
    held = set(first["view"]["hand"])
    not_held = next(
        card
        for card in ("AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "TS", "JS")
        if card not in held
    )
    assert (
        alice.request("post", answer_path, {"action": f"discard {not_held}"}).status_code == 400
    )  # not legal
    assert PracticePosition.objects.filter(answered_at__isnull=False).count() == 0
    answered = alice.ok("post", answer_path, {"action": first["view"]["legal_actions"][0]})
    assert answered["answered"] and answered["luna"] in first["view"]["legal_actions"]
    assert (
        answered["reason"]["deadwood"] >= 0
        and answered["played"] == PracticePosition.objects.get(pk=first["id"]).played
    )
    assert not cards_in(json.dumps(answered)) & secret_cards(befores[first["number"]], seat)
    listed = alice.ok("get", "/me/practice")["positions"]
    assert [one["id"] for one in listed][-1] == first["id"]  # the unanswered ones first
    assert bob.request("post", answer_path, {"action": first["view"]["legal_actions"][0]}).status_code == 404
    assert bob.ok("get", "/me/practice")["positions"] == []


def test_practice_needs_a_review_of_ones_own_deal(alice, bob):
    token, players = started(alice, bob)
    play_deal(token, players)
    path = f"/matches/{Match.objects.get().pk}/deals/1/practice"
    assert alice.request("post", path).status_code == 409  # not reviewed yet
    carol = make_account_client("carol@example.com")
    assert carol.request("post", path).status_code == 403
    assert alice.request("post", "/matches/999999/deals/1/practice").status_code == 404
    assert PracticePosition.objects.count() == 0
