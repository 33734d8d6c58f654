"""best_melding, best_discard and the mask-level API against an independent brute force."""

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.cards import CARDS, SUITS, Card, cards_to_mask, parse_cards
from rules.errors import InvalidCard, InvalidHand
from rules.melding import (
    DiscardChoice,
    Melding,
    all_best_arrangements_mask,
    all_best_meldings,
    best_arrangement_mask,
    best_discard,
    best_discard_mask,
    best_melding,
    deadwood_after_each_discard,
    meld_candidates_mask,
    min_deadwood_mask,
    points_mask,
)
from tests.rules import brute_force


def examples(count):
    """Hypothesis settings: ``count`` examples, no per-example deadline (the brute force is slow)."""
    return settings(max_examples=count, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def texts(cards):
    return [str(card) for card in cards]


def as_arrangement(melding):
    return frozenset(frozenset(meld) for meld in melding.melds)


@st.composite
def random_hands(draw, min_size=0, max_size=11):
    return draw(st.lists(st.sampled_from(CARDS), unique=True, min_size=min_size, max_size=max_size))


@st.composite
def meld_rich_hands(draw, min_size=0, max_size=11):
    """Cards from a few neighbouring ranks of a few suits, so that melds overlap."""
    suits = draw(st.lists(st.sampled_from(SUITS), unique=True, min_size=2, max_size=4))
    narrowest = max(3, -(-min_size // len(suits)))  # enough ranks to hold min_size cards
    width = draw(st.integers(narrowest, max(narrowest, 6)))
    low = draw(st.integers(1, 14 - width))
    pool = [card for card in CARDS if card.suit in suits and low <= card.rank < low + width]
    size = draw(st.integers(min(min_size, len(pool)), min(max_size, len(pool))))
    return draw(st.lists(st.sampled_from(pool), unique=True, min_size=size, max_size=size))


# ---------------------------------------------------------------- examples


@pytest.mark.parametrize(
    ("hand", "points", "melds"),
    [
        ("", 0, []),
        ("KS", 10, []),
        ("AS 2S 3S", 0, [["AS", "2S", "3S"]]),
        ("QS KS AS", 21, []),  # ace is low only: Q-K-A is no run
        ("5C 3C 4C", 0, [["3C", "4C", "5C"]]),  # a run is shown by rank
        ("7C 7D 7H 7S", 0, [["7S", "7H", "7D", "7C"]]),  # a set by suit order
        ("7S 7H 7D 7C 8C 9C", 0, [["7S", "7H", "7D"], ["7C", "8C", "9C"]]),
        ("7S 7H 7D 4C 5C 6C JH QH KH 3D", 3, [["7S", "7H", "7D"], ["JH", "QH", "KH"], ["4C", "5C", "6C"]]),
        ("7S 8S 9S 7H 7D", 14, [["7S", "8S", "9S"]]),  # the run leaves 14, the set would leave 17
        (
            "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS",
            0,
            [["2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "TS", "JS", "QS"]],
        ),
        ("AS 2H 3D 4C 5S 6H 7D 8C 9S TH", 55, []),
    ],
)
def test_best_melding_examples(hand, points, melds):
    result = best_melding(hand)
    assert result.points == points
    assert sorted(texts(meld) for meld in result.melds) == sorted(melds)


def test_best_melding_accepts_cards_texts_and_a_string():
    cards = parse_cards("7H 7S 7D 2C")
    expected = best_melding(cards)
    assert best_melding(["7H", "7S", "7D", "2C"]) == expected
    assert best_melding("7h, 7♠ 7D 2C") == expected
    assert best_melding(iter(cards)) == expected
    assert expected == Melding(
        melds=(tuple(parse_cards("7S 7H 7D")),), deadwood=(Card.parse("2C"),), points=2
    )


def test_melding_is_frozen():
    with pytest.raises(AttributeError):
        best_melding("AS").points = 3  # type: ignore[misc]


def test_equal_arrangements_are_all_listed_and_the_first_is_best_meldings():
    # Run 4-5-6♥ or set of fives: both leave 10.
    both = all_best_meldings("4H 5H 6H 5S 5D")
    assert {frozenset(texts(m.melds[0])) for m in both} == {
        frozenset({"4H", "5H", "6H"}),
        frozenset({"5S", "5H", "5D"}),
    }
    assert [m.points for m in both] == [10, 10]
    assert both[0] == best_melding("5D 5S 6H 5H 4H")


# ---------------------------------------------------------------- against the brute force


def check_melding(hand):
    result = best_melding(hand)
    assert result.points == brute_force.min_deadwood(hand)
    melded = [card for meld in result.melds for card in meld]
    assert all(brute_force.is_meld(meld) for meld in result.melds)
    assert sorted(melded + list(result.deadwood)) == sorted(hand)  # a partition of the hand
    assert result.points == brute_force.points(result.deadwood)
    for meld in result.melds:
        assert list(meld) == sorted(meld, key=lambda card: card.index)  # runs by rank, sets by suit
    shuffled = list(hand)
    random.Random(len(hand)).shuffle(shuffled)
    assert best_melding(shuffled) == result  # depends on the cards only, not their order
    assert min_deadwood_mask(cards_to_mask(hand)) == result.points


@pytest.mark.slow  # 2000 brute-force meldings, some 5 s
@examples(2000)
@given(random_hands())
def test_best_melding_matches_brute_force_on_random_hands(hand):
    check_melding(hand)


@pytest.mark.slow  # 2500 brute-force meldings, some 10 s
@examples(2500)
@given(meld_rich_hands())
def test_best_melding_matches_brute_force_on_meld_rich_hands(hand):
    check_melding(hand)


@pytest.mark.slow  # 400 brute-force enumerations, 1 to 3 s
@examples(400)
@given(meld_rich_hands(max_size=10))
def test_all_best_meldings_are_exactly_the_brute_force_ones(hand):
    listed = all_best_meldings(hand)
    assert len({as_arrangement(m) for m in listed}) == len(listed)  # no repeats
    assert {as_arrangement(m) for m in listed} == brute_force.best_arrangements(hand)
    assert listed[0] == best_melding(hand)


@pytest.mark.slow  # 300 hands through both APIs, 1 to 5 s
@examples(300)
@given(st.one_of(random_hands(), meld_rich_hands()))
def test_mask_api_agrees_with_the_card_api(hand):
    mask = cards_to_mask(hand)
    assert sorted(meld for meld, _ in meld_candidates_mask(mask)) == sorted(
        cards_to_mask(meld) for meld in brute_force.all_melds(hand)
    )
    assert all(points == points_mask(meld) for meld, points in meld_candidates_mask(mask))
    melds, deadwood = best_arrangement_mask(mask)
    result = best_melding(hand)
    assert deadwood == result.points == points_mask(mask) - sum(points_mask(m) for m in melds)
    assert sorted(melds) == sorted(cards_to_mask(meld) for meld in result.melds)
    arrangements, least = all_best_arrangements_mask(mask)
    assert least == result.points and arrangements[0] == melds


# ---------------------------------------------------------------- best discard


def check_discard(hand, exclude):
    choice = best_discard(hand, exclude=exclude)
    expected_card, expected_points = brute_force.best_discard(hand, exclude)
    assert (choice.card, choice.points) == (expected_card, expected_points)
    kept = [card for card in hand if card != choice.card]
    assert choice.melding == best_melding(kept)
    index, points = best_discard_mask(cards_to_mask(hand), -1 if exclude is None else exclude.index)
    assert (CARDS[index], points) == (choice.card, choice.points)


@pytest.mark.slow  # brute-force discards, some 10 s
@examples(1000)
@given(random_hands(11, 11), st.data())
def test_best_discard_matches_brute_force_on_random_hands(hand, data):
    check_discard(hand, None)
    check_discard(hand, data.draw(st.sampled_from(hand)))


@pytest.mark.slow  # brute-force discards, some 25 s
@examples(1000)
@given(meld_rich_hands(11, 11), st.data())
def test_best_discard_matches_brute_force_on_meld_rich_hands(hand, data):
    check_discard(hand, None)
    check_discard(hand, data.draw(st.sampled_from(hand)))


def test_best_discard_examples():
    hand = "7S 7H 7D 4C 5C 6C JH QH KH 3D 9C"
    assert best_discard(hand) == DiscardChoice(
        Card.parse("9C"), 3, best_melding("7S 7H 7D 4C 5C 6C JH QH KH 3D")
    )
    # Ties between court cards: the highest rank goes, then the later suit.
    assert best_discard("AS 2S 3S 4H 5H 6H 7D 8D 9D JC KC").card == Card.parse("KC")
    assert best_discard("AS 2S 3S 4H 5H 6H 7D 8D 9D KS KC").card == Card.parse("KC")
    assert best_discard("AS 2S 3S 4H 5H 6H 7D 8D 9D KS KC", exclude="KC").card == Card.parse("KS")
    # All eleven melded: a set of four or a run of four gives up a card for nothing.
    choice = best_discard("AS 2S 3S 4H 5H 6H 7H 9S 9H 9D 9C")
    assert (str(choice.card), choice.points) == ("9C", 0)


# ---------------------------------------------------------------- errors


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (lambda: best_melding("7H 1X"), InvalidCard, "'1X' is not a card"),
        (lambda: best_melding(["7H", 7]), InvalidCard, "a card must be given as text, not 7"),
        (lambda: best_melding("7H 7h"), InvalidHand, "7H appears twice"),
        (lambda: best_melding(CARDS[:12]), InvalidHand, "a hand has at most 11 cards, got 12"),
        (lambda: all_best_meldings("7H 7H"), InvalidHand, "7H appears twice"),
        (lambda: best_discard(CARDS[:10]), InvalidHand, "choosing a discard needs exactly 11 cards, got 10"),
        (lambda: best_discard(CARDS[:12]), InvalidHand, "a hand has at most 11 cards, got 12"),
        (
            lambda: best_discard(CARDS[:11], exclude="KC"),
            InvalidHand,
            "the excluded card KC is not in the hand",
        ),
        (lambda: best_discard(CARDS[:11], exclude="ZZ"), InvalidCard, "'ZZ' is not a card"),
        (lambda: best_discard_mask(1, exclude_index=0), InvalidHand, "no card may be discarded"),
    ],
)
def test_errors(call, error, message):
    with pytest.raises(error, match=message):
        call()


@examples(60)
@given(meld_rich_hands(min_size=11, max_size=11), st.booleans())
def test_deadwood_after_each_discard_matches_the_brute_force(hand, with_exclude):
    exclude = hand[0] if with_exclude else None
    left = deadwood_after_each_discard(hand, exclude=exclude)
    assert list(left) == [card for card in hand if card != exclude]  # the hand's order
    assert left == brute_force.discard_results(hand, exclude)
    assert (
        deadwood_after_each_discard(" ".join(texts(hand)), exclude=None if exclude is None else str(exclude))
        == left
    )
