import pytest

from rules.cards import (
    CARDS,
    Card,
    cards_to_mask,
    check_deck,
    mask_to_cards,
    new_deck,
    parse_cards,
)
from rules.errors import InvalidCard, InvalidDeck, InvalidHand


@pytest.mark.parametrize(
    ("text", "rank", "suit"),
    [
        ("7H", 7, "H"),
        ("TH", 10, "H"),
        ("10H", 10, "H"),
        ("7h", 7, "H"),
        ("7♥", 7, "H"),
        ("as", 1, "S"),
        ("KC", 13, "C"),
        ("10♣", 10, "C"),
        (" qd ", 12, "D"),
        ("J♠", 11, "S"),
    ],
)
def test_parse_accepts_every_documented_form(text, rank, suit):
    card = Card.parse(text)
    assert (card.rank, card.suit) == (rank, suit)


@pytest.mark.parametrize("card", CARDS)
def test_string_form_round_trips(card):
    assert Card.parse(str(card)) == card
    assert Card.parse(card.symbol) == card
    assert Card.from_index(card.index) == card


def test_string_forms_use_t_for_ten_and_letters_for_courts():
    assert [str(c) for c in parse_cards("10H AS kd 2c")] == ["TH", "AS", "KD", "2C"]


@pytest.mark.parametrize("bad", ["", "1H", "11H", "7X", "H7", "7HH", "Joker", "0S"])
def test_bad_card_text_names_the_token(bad):
    with pytest.raises(InvalidCard) as error:
        Card.parse(bad)
    assert repr(bad) in str(error.value)


def test_parse_cards_names_the_bad_token_among_good_ones():
    with pytest.raises(InvalidCard, match="'7Z'"):
        parse_cards("7H 7S 7Z")


def test_card_values_are_immutable_and_validated():
    card = Card(7, "H")
    with pytest.raises(AttributeError):
        card.rank = 8  # type: ignore[misc]
    with pytest.raises(InvalidCard):
        Card(14, "H")
    with pytest.raises(InvalidCard):
        Card(3, "X")
    assert isinstance(InvalidCard("x"), ValueError)


def test_points_follow_the_rules():
    assert [c.points for c in parse_cards("AS 2S 9S TS JS QS KS")] == [1, 2, 9, 10, 10, 10, 10]


def test_accessible_names():
    assert Card.parse("7H").name == "7 of hearts"
    assert Card.parse("QS").name == "queen of spades"


def test_masks_round_trip_and_reject_duplicates():
    cards = parse_cards("7H 7S 7D AC KC")
    assert sorted(mask_to_cards(cards_to_mask(cards))) == sorted(cards)
    with pytest.raises(InvalidHand, match="7H appears twice"):
        cards_to_mask(parse_cards("7H 7H"))


def test_new_deck_is_a_permutation_of_52_cards():
    decks = [new_deck() for _ in range(3)]
    for deck in decks:
        assert sorted(deck, key=lambda c: c.index) == list(CARDS)
    assert decks[0] != decks[1] or decks[1] != decks[2]


def test_check_deck_rejects_short_or_repeated_decks():
    with pytest.raises(InvalidDeck, match="52 distinct"):
        check_deck(list(CARDS)[:51])
    with pytest.raises(InvalidDeck):
        check_deck([*list(CARDS)[:51], CARDS[0]])
    assert check_deck([str(c) for c in CARDS]) == list(CARDS)
