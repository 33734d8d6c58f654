"""How LUNA weighs a guessed opponent hand by the opponent's past turns (bots.history)."""

from __future__ import annotations

import random

from bots import SimpleBot
from bots.handeval import bits
from bots.history import OpponentTurn, PlayerModel, explains, opponent_turns, taken_cards
from bots.playout import arranged
from rules import CARDS, RULESETS, Deal, DealView
from rules.moves import DISCARD, DRAW_STOCK, PASS, TAKE_DISCARD, TAKE_UPCARD

IGNORE_DECLINES = PlayerModel(declined_meld=1.0)


def _deck(seed: int) -> list:
    deck = list(CARDS)
    random.Random(seed).shuffle(deck)
    return deck


def _simple_positions(seed: int, ruleset: str = "classic") -> list[tuple[DealView, int, list[OpponentTurn]]]:
    """Seat 0's views as simple plays both seats, each with seat 1's true hand and its turns
    recorded as they happened (the latest first)."""
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
            hand = sum(1 << card.index for card in deal.view(1).hand or ())
            found.append((deal.view(0), hand, list(turns)))
    return found


def test_the_turns_replayed_from_a_view_are_the_turns_the_opponent_played() -> None:
    positions = [position for seed in range(12) for position in _simple_positions(seed)]
    assert len(positions) > 50
    for view, _, turns in positions:
        assert list(opponent_turns(view, 1)) == turns


def test_a_take_from_the_pile_is_a_turn_with_its_card_and_no_declined_card() -> None:
    takes = [
        turn
        for seed in range(12)
        for view, _, _ in _simple_positions(seed)
        for turn in opponent_turns(view, 1)
    ]
    taken = [turn for turn in takes if turn.taken >= 0]
    assert taken and all(turn.declined == -1 for turn in taken)
    assert taken_cards(tuple(taken)) == sum({1 << turn.taken for turn in taken})


def test_a_plain_players_true_hand_explains_its_latest_turn() -> None:
    """Simple throws the card that leaves the least deadwood and knocks when it can: its true hand
    never pays for a poor throw or a skipped knock on the turn it just played."""
    rng = random.Random(1)
    for seed in range(12):
        for view, hand, turns in _simple_positions(seed):
            assert explains(hand, tuple(turns), view.knock_limit, IGNORE_DECLINES, 1, rng) == 1.0


def test_a_hand_that_kept_a_higher_loose_card_than_it_threw_is_less_likely() -> None:
    model = PlayerModel()
    rng = random.Random(2)
    checked = 0
    for seed in range(12):
        for view, hand, turns in _simple_positions(seed):
            thrown = turns[0].discard
            loose = [card for card in bits(hand & ~arranged(hand)[0]) if card % 13 < thrown % 13]
            king = next((card for card in (12, 25, 38, 51) if not (hand | view_mask(view)) >> card & 1), -1)
            if thrown < 0 or not loose or king < 0 or thrown % 13 >= 9:
                continue
            swapped = hand & ~(1 << loose[0]) | 1 << king  # a king kept where a low card was
            if arranged(swapped)[0] >> king & 1:
                continue
            assert explains(swapped, tuple(turns), view.knock_limit, model, 1, rng) <= model.poor_throw
            checked += 1
    assert checked > 10


def view_mask(view: DealView) -> int:
    """Cards seat 0 sees: its hand and the pile."""
    return sum(1 << card.index for card in (*(view.hand or ()), *view.discard_pile))


def test_a_pass_of_a_face_up_card_that_completes_a_meld_makes_a_hand_less_likely() -> None:
    deal = Deal.new(RULESETS["classic"], 0, _deck(5))
    upcard = deal.view(1).discard_pile[-1].index
    deal, _ = deal.apply("pass")  # seat 1, the non-dealer, passes first
    turns = opponent_turns(deal.view(0), 1)
    assert turns == (OpponentTurn(-1, -1, upcard),)
    suit, rank = divmod(upcard, 13)
    same_rank = [(other * 13 + rank) for other in range(4) if other != suit][:2]
    melding = sum(1 << card for card in same_rank)
    model = PlayerModel()
    assert explains(melding, turns, 10, model, 6, random.Random(3)) == model.declined_meld
    assert explains(0, turns, 10, model, 6, random.Random(3)) == 1.0


def test_true_hands_explain_the_past_better_than_random_guesses() -> None:
    rng = random.Random(4)
    model = PlayerModel()
    true, guessed = [], []
    for seed in range(12):
        for view, hand, turns in _simple_positions(seed):
            if len(turns) < 4:
                continue
            true.append(explains(hand, tuple(turns), view.knock_limit, model, 6, rng))
            unseen = [card for card in range(52) if not view_mask(view) >> card & 1]
            guess = sum(1 << card for card in rng.sample(unseen, hand.bit_count()))
            guessed.append(explains(guess, tuple(turns), view.knock_limit, model, 6, rng))
    assert len(true) > 40
    assert sum(true) / len(true) > 2 * sum(guessed) / len(guessed)
