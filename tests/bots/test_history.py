"""The opponent's turns replayed from a view's public history (bots.history)."""

from __future__ import annotations

import random

from bots import SimpleBot
from bots.history import OpponentTurn, opponent_turns
from rules import CARDS, RULESETS, Deal, DealView
from rules.moves import DISCARD, DRAW_STOCK, PASS, TAKE_DISCARD, TAKE_UPCARD


def _deck(seed: int) -> list:
    deck = list(CARDS)
    random.Random(seed).shuffle(deck)
    return deck


def _simple_positions(seed: int, ruleset: str = "classic") -> list[tuple[DealView, list[OpponentTurn]]]:
    """Seat 0's views as simple plays both seats, each with seat 1's turns recorded as they
    happened (the latest first)."""
    deal = Deal.new(RULESETS[ruleset], 0, _deck(seed))
    bots, rng = SimpleBot(), random.Random(seed)
    found, turns = [], []
    drawn: tuple[int, int] | None = None  # seat 1's draw this turn: (taken, declined)
    while deal.phase != "over" and len(turns) < 40:
        seat = deal.to_play
        view = deal.view(seat)
        action = bots.choose(view, rng)
        top = view.discard_pile[-1].index if view.discard_pile else -1
        if seat == 1 and action.kind == PASS:
            turns.insert(0, OpponentTurn(-1, -1, top))
        elif seat == 1 and action.kind in (TAKE_UPCARD, TAKE_DISCARD):
            drawn = (top, -1)
        elif seat == 1 and action.kind == DRAW_STOCK:
            drawn = (-1, top)
        deal, _ = deal.apply(action)
        if seat == 1 and action.kind == DISCARD and drawn is not None:
            assert action.card is not None
            turns.insert(0, OpponentTurn(action.card.index, *drawn))
            found.append((deal.view(0), list(turns)))
    return found


def test_the_turns_replayed_from_a_view_are_the_turns_the_opponent_played() -> None:
    positions = [position for seed in range(12) for position in _simple_positions(seed)]
    assert len(positions) > 50
    for view, turns in positions:
        assert list(opponent_turns(view, 1)) == turns


def test_a_take_from_the_pile_is_a_turn_with_its_card_and_no_declined_card() -> None:
    takes = [
        turn for seed in range(12) for view, _ in _simple_positions(seed) for turn in opponent_turns(view, 1)
    ]
    taken = [turn for turn in takes if turn.taken >= 0]
    assert taken and all(turn.declined == -1 for turn in taken)
