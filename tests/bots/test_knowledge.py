"""What a seat knows, read from its view: refused and thrown cards, unseen cards; match odds."""

from __future__ import annotations

import random

from bots.knowledge import Knowledge
from bots.matchodds import match_chance
from rules import CARDS, RULESETS, Card, Deal
from rules.moves import KNOCK

from .positions import random_positions


def _mask(*cards: str) -> int:
    return sum(1 << Card.parse(card).index for card in cards)


def test_the_opponents_refusals_and_discards_come_from_the_history() -> None:
    deck = [str(card) for card in CARDS]
    random.Random(2).shuffle(deck)
    deal = Deal.new(RULESETS["classic"], 0, deck)  # seat 1 plays first
    upcard = str(deal.upcard)
    deal, _ = deal.apply("pass")  # seat 1 declines the upcard
    deal, _ = deal.apply("pass")
    deal, _ = deal.apply("draw_stock")
    thrown = str(deal.hand(1)[0])
    deal, _ = deal.apply(f"discard {thrown}")
    know = Knowledge.from_view(deal.view(0))
    assert know.opponent_refused == _mask(upcard)
    assert know.opponent_discards == _mask(thrown)
    assert know.turns == 1
    assert know.top == Card.parse(thrown).index


def test_unseen_cards_are_the_stock_and_the_opponents_hidden_hand() -> None:
    for deal in random_positions(seed=4, count=300):
        seat = deal.to_play
        assert seat is not None
        know = Knowledge.from_view(deal.view(seat))
        hidden = deal.hand_mask(1 - seat) & ~know.opponent_known
        assert hidden & ~know.unseen == 0
        assert know.unseen.bit_count() == know.stock_count + know.opponent_hidden_count
        assert know.opponent_known & ~deal.hand_mask(1 - seat) == 0


def test_match_odds_favour_the_leader_and_know_the_end() -> None:
    assert abs(match_chance(0, 0, 100, 25, 25) - 0.5) < 1e-9
    assert match_chance(90, 10, 100, 25, 25) > match_chance(50, 10, 100, 25, 25) > 0.5
    assert match_chance(100, 99, 100, 25, 25) == 1.0
    assert match_chance(0, 100, 100, 25, 25) == 0.0
    assert match_chance(0, 0, None, 25, 25) == 0.5


def test_a_seat_may_knock_exactly_where_the_engine_offers_a_knock() -> None:
    offered = 0
    for deal in random_positions(seed=6, count=600):
        seat = deal.to_play
        assert seat is not None
        view = deal.view(seat)
        engine_offers = any(action.kind == KNOCK for action in view.legal_actions)
        assert Knowledge.from_view(view).may_knock == engine_offers
        offered += engine_offers
    assert offered > 0
