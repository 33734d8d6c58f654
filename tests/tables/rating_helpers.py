"""Driving a rated match to chosen points: both sides have moved, or the next move ends it."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.utils import timezone

import rules
from tables.play import engine
from tables.play.models import Deal, Match, Move, Table
from tables.ratings.models import Rating, RatingChange

from .helpers import ApiClient, choose_action, make_account_client, started

RATED = {"rated": True, "turn_seconds": 86400}


def rated_game(prefix: str = "") -> tuple[str, dict[int, ApiClient]]:
    alice = make_account_client(f"{prefix}alice@example.com")
    bob = make_account_client(f"{prefix}bob@example.com")
    return started(alice, bob, **RATED)


def _mover(token: str, players: dict[int, ApiClient]) -> tuple[ApiClient, dict[str, Any]]:
    seat = players[0].state(token)["deal"]["view"]["to_play"]
    return players[seat], players[seat].state(token)


def _body(state: dict[str, Any], turn: int) -> dict[str, Any]:
    action = choose_action(state["deal"]["view"], turn)
    return {"action": action, "expected_version": state["version"], "client_move_id": f"m{state['version']}"}


def _ends_match(token: str, action: str) -> bool:
    """Would ``action`` end the match? Asked of the engine, as the server will."""
    table = Table.objects.get(invite_token=token)
    deal = Deal.objects.select_related("match").get(pk=table.current_deal_id)
    state = engine.load_deal(deal)
    after, _ = state.apply(rules.Action.parse(action), seat=state.to_play)
    return after.is_over and engine.load_match(deal.match).record(after).is_over


def both_have_moved(token: str, players: dict[int, ApiClient]) -> None:
    """Play until each seat has made a move of its own, the match still going."""
    turn = 0
    while set(Move.objects.filter(deal__match__table__invite_token=token).values_list("seat", flat=True)) != {
        0,
        1,
    }:
        mover, state = _mover(token, players)
        body = _body(state, turn)
        if _ends_match(token, body["action"]):  # a knock on the first turn: discard instead
            view = state["deal"]["view"]
            body["action"] = f"discard {rules.best_discard(view['hand'], exclude=view['just_taken']).card}"
        mover.ok("post", f"/tables/{token}/moves", body)
        turn += 1
    assert Match.objects.get(table__invite_token=token).status == Match.Status.PLAYING


def to_last_move(token: str, players: dict[int, ApiClient]) -> tuple[ApiClient, dict[str, Any]]:
    """Play until the next move ends the match: (its sender, its body), not sent. Both seats move
    first: a match that ends before one side made a move of its own is aborted and rates nobody
    (tables.ratings.services.aborted), which a deal knocked on its first turn would make of it."""
    both_have_moved(token, players)
    turn = 0
    while True:
        state = players[0].state(token)
        if state["status"] == "between_deals":
            players[0].ok("post", f"/tables/{token}/next-deal", {"expected_version": state["version"]})
            continue
        mover, state = _mover(token, players)
        body = _body(state, turn)
        if _ends_match(token, body["action"]):
            return mover, body
        mover.ok("post", f"/tables/{token}/moves", body)
        turn += 1


def expire(token: str) -> None:
    table = Table.objects.get(invite_token=token)
    Deal.objects.filter(pk=table.current_deal_id).update(deadline=timezone.now() - dt.timedelta(seconds=1))


def rated_once(token: str) -> None:
    """The match moved both ratings exactly once."""
    match = Match.objects.get(table__invite_token=token)
    assert match.status == Match.Status.OVER
    changes = RatingChange.objects.filter(match=match)
    assert changes.count() == 2
    assert sorted(Rating.objects.values_list("games", flat=True)) == [1, 1]
    for change in changes:
        rating = Rating.objects.get(player=change.player, pace=change.pace)
        assert rating.rating == change.rating_after
        assert change.rating_before == 1500.0
        assert (change.rating_after > 1500) == (change.score == 1.0)
