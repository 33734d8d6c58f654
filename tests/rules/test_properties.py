"""Properties of every state of random legal deals and matches, under every rule set."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules import (
    CARDS,
    RULESETS,
    Action,
    Card,
    DeadDeal,
    Deal,
    DealView,
    Event,
    Match,
    Ruleset,
    Showdown,
    replay,
    timeout_action,
)
from rules.melding import min_deadwood_mask

ALL_RULESETS = [
    *RULESETS.values(),
    Ruleset(name="oklahoma", oklahoma=True, big_gin_bonus=31),
    Ruleset(name="tight", knock_limit=3, dead_stock=0, offer_round=True),
]


def choose(deal: Deal, rng: random.Random) -> Action:
    """A random legal action, leaning toward knocking and toward sensible discards so that every
    kind of ending happens often."""
    legal = deal.legal_actions()
    if legal[-1] == Action.big_gin() and rng.random() < 0.8:
        return legal[-1]
    endings = [action for action in legal if action.kind in ("knock", "big_gin")]
    if endings and rng.random() < 0.3:
        return rng.choice(endings)
    if deal.phase == "discard" and rng.random() < 0.7:
        return timeout_action(deal)
    return rng.choice(legal)


def random_game(ruleset: Ruleset, dealer: int, deck: list[Card], rng: random.Random) -> Iterator[Deal]:
    """Every state of one random legal deal, from the first to the last."""
    deal = Deal.new(ruleset, dealer, deck)
    yield deal
    while not deal.is_over:
        action = choose(deal, rng)
        after, events = deal.apply(action)
        check_step(deal, action, after, events)
        deal = after
        yield deal


def check_step(before: Deal, action: Action, after: Deal, events: tuple[Event, ...]) -> None:
    assert after.version == before.version + 1
    assert after.actions == (*before.actions, action)
    assert events[0].kind == action.kind and events[0].seat == before.to_play
    assert (events[0].card is not None) == (action.kind != "pass" and action.kind != "big_gin")
    if after.is_over:
        assert events[-1].kind in ("deal_over", "dead_deal") and events[-1].result == after.result
    else:
        assert len(events) == 1


def stock_of(deal: Deal) -> set[Card]:
    return set(deal.deck[len(deal.deck) - deal.stock_count :])


def check_cards_accounted_for(deal: Deal) -> None:
    places = [*deal.hand(0), *deal.hand(1), *deal.discard_pile, *stock_of(deal)]
    assert len(places) == 52 and set(places) == set(CARDS)
    sizes = sorted(len(hand) for hand in deal.hands)
    expected = [10, 11] if deal.phase == "discard" or deal.outcome == "big_gin" else [10, 10]
    assert sizes == expected


_CARD_TOKEN = re.compile(r'"([A2-9TJQK][SHDC])"')


def card_strings(value: Any) -> set[str]:
    """Every card named anywhere in a JSON-able value."""
    return set(_CARD_TOKEN.findall(json.dumps(value)))


def check_views(deal: Deal) -> None:
    stock = {str(card) for card in stock_of(deal)}
    hands = [{str(card) for card in hand} for hand in deal.hands]
    for seat in (0, 1, None):
        view = deal.view(seat)
        named = card_strings(view.to_dict())
        assert not named & stock, "a view names a stock card"
        if seat is None:
            assert view.hand is None
        else:
            assert set(view.hand or ()) == set(deal.hand(seat))
        if not deal.is_over:
            known = {str(card) for cards in view.known_cards for card in cards}
            for holder in (0, 1):
                if holder != seat:
                    assert named & hands[holder] <= known, "a view shows a hidden card of another hand"
        check_view_facts(deal, view)


def check_view_facts(deal: Deal, view: DealView) -> None:
    assert (view.phase, view.to_play, view.version, view.dealer) == (
        deal.phase,
        deal.to_play,
        deal.version,
        deal.dealer,
    )
    assert view.discard_pile == deal.discard_pile and view.stock_count == deal.stock_count
    assert view.hand_counts == (len(deal.hand(0)), len(deal.hand(1)))
    assert view.legal_actions == (deal.legal_actions() if view.is_my_turn else ())
    assert len(view.history) == deal.version
    unseen = set(view.unseen_cards())
    assert stock_of(deal) <= unseen
    if view.seat is not None:
        assert not unseen & set(deal.hand(view.seat))


def check_legal_actions(deal: Deal) -> None:
    """legal_actions agrees with is_legal and, for knocks, with the melding engine directly."""
    legal = set(deal.legal_actions())
    for action in legal:
        assert deal.is_legal(action)
    if deal.phase != "discard":
        return
    seat = deal.to_play
    assert seat is not None
    hand = deal.hand_mask(seat)
    for card in CARDS:
        discard, knock = Action.discard(card), Action.knock(card)
        playable = bool(hand >> card.index & 1) and card != deal.just_taken
        assert (discard in legal) == playable == deal.is_legal(discard)
        can_knock = playable and min_deadwood_mask(hand & ~(1 << card.index)) <= deal.knock_limit
        assert (knock in legal) == can_knock == deal.is_legal(knock)


@pytest.mark.slow  # some 10 s of random deals
@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    ruleset=st.sampled_from(ALL_RULESETS),
    dealer=st.integers(0, 1),
    deck=st.permutations(CARDS),
    rng=st.randoms(use_true_random=False),
)
def test_every_state_of_a_random_deal_keeps_the_invariants(ruleset, dealer, deck, rng):
    for deal in random_game(ruleset, dealer, deck, rng):
        check_cards_accounted_for(deal)
        check_views(deal)
        check_legal_actions(deal)
        if deal.version % 5 == 0 or deal.is_over:  # rebuilding every state would be quadratic
            assert Deal.from_json(deal.to_json()) == deal
            assert replay(ruleset, dealer, deck, [str(action) for action in deal.actions]) == deal
    assert isinstance(deal.result, Showdown | DeadDeal)


@settings(max_examples=40, deadline=None)
@given(deck=st.permutations(CARDS), rng=st.randoms(use_true_random=False))
def test_apply_never_changes_the_state_it_is_called_on(deck, rng):
    states = list(random_game(RULESETS["classic"], 0, deck, rng))
    snapshots = [state.to_json() for state in states]
    for state, snapshot in zip(states, snapshots, strict=True):
        for action in state.legal_actions():
            state.apply(action)
        assert state.to_json() == snapshot


# -- volume: thousands of deals and whole matches --------------------------------------------


@pytest.mark.slow  # thousands of deals, 4 to 9 s per rule set
@pytest.mark.parametrize("ruleset", ALL_RULESETS, ids=lambda ruleset: ruleset.name)
def test_thousands_of_random_deals_reach_a_result(ruleset):
    rng = random.Random(f"deals-{ruleset.name}")
    outcomes: dict[str, int] = {}
    for number in range(3000 if ruleset.name in RULESETS else 500):
        deck = list(CARDS)
        rng.shuffle(deck)
        deal = Deal.new(ruleset, number % 2, deck)
        while not deal.is_over:
            deal, _ = deal.apply(choose(deal, rng))
        check_cards_accounted_for(deal)
        outcomes[deal.outcome or ""] = outcomes.get(deal.outcome or "", 0) + 1
    expected = {"knock", "gin", "undercut", "dead"} | (
        {"big_gin"} if ruleset.big_gin_bonus is not None else set()
    )
    assert set(outcomes) == expected  # every ending happens (the seed is fixed)


@pytest.mark.parametrize("ruleset", ALL_RULESETS, ids=lambda ruleset: ruleset.name)
def test_random_full_matches(ruleset):
    if ruleset.target is None:
        ruleset = Ruleset.from_dict({**ruleset.to_dict(), "target": 100})
    rng = random.Random(f"matches-{ruleset.name}")
    for _ in range(30):
        match = Match.new(ruleset, rng.randrange(2))
        while not match.is_over:
            deck = list(CARDS)
            rng.shuffle(deck)
            deal = match.next_deal(deck)
            while not deal.is_over:
                deal, _ = deal.apply(choose(deal, rng))
            match = match.record(deal)
        check_finished_match(match)


def check_finished_match(match: Match) -> None:
    winner = match.winner
    assert winner is not None and match.totals[winner] >= (match.ruleset.target or 0)
    assert match.totals[1 - winner] < (match.ruleset.target or 0) or match.score_sheet[-1].winner == winner
    points = [0, 0]
    for record in match.score_sheet:
        if record.winner is not None:
            points[record.winner] += record.points
        assert record.totals == (points[0], points[1])
    scores = match.final_scores
    assert scores is not None
    assert sum(score.deals_won for score in scores) == sum(not r.is_dead for r in match.score_sheet)
    assert scores[winner].game_bonus in (match.ruleset.game_bonus, match.ruleset.shutout_bonus)
    assert scores[1 - winner].game_bonus == 0
    assert Match.from_dict(match.to_dict()) == match
