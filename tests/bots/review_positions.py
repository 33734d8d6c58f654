"""Crafted positions for the review tests: a deck laid out card by card, then scripted moves."""

from __future__ import annotations

from rules import CARDS, RULESETS, Deal
from rules.cards import Card


def laid_out_deck(first: str, second: str, upcard: str, stock: str) -> list[Card]:
    """A deck dealing ``first`` to the non-dealer and ``second`` to the dealer (ten cards each),
    then ``upcard``, then ``stock`` on top of the stock (top first), the other cards below it."""
    firsts, seconds, tops = first.split(), second.split(), stock.split()
    dealt = [card for pair in zip(firsts, seconds, strict=True) for card in pair]
    named = [*dealt, upcard, *tops]
    assert len(firsts) == 10 and len(set(named)) == len(named)
    rest = [card for card in CARDS if str(card) not in named]
    return [Card.parse(card) for card in named] + rest


def scripted(ruleset: str, deck: list[Card], actions: str) -> Deal:
    """The deal (dealer 0, so seat 1 plays first) after the comma-separated ``actions``."""
    deal = Deal.new(RULESETS[ruleset], 0, deck)
    for action in filter(None, (text.strip() for text in actions.split(","))):
        deal, _ = deal.apply(action)
    return deal


def feeding_turns(meld_cards: str, draws: str, junk: str) -> str:
    """Seat 1 draws from the stock and throws a card seat 0 takes from the pile (seat 0 then
    throws a junk card): seat 0's melds become known to seat 1, one card at a time."""
    turns = []
    for card, thrown in zip(meld_cards.split(), junk.split(), strict=True):
        turns.append(f"draw_stock, discard {card}, take_discard, discard {thrown}")
    assert len(draws.split()) >= len(turns)
    return ", ".join(turns)


# Passing on gin: the upcard 7H melds seat 1's whole hand but 2D (classic: an offer round).
GIN_UPCARD = scripted(
    "classic",
    laid_out_deck("5H 6H 8H 9C 9D 9S JC QC KC 2D", "AS 3S 5S 7S 9H JH KH 2C 4C 6C", "7H", ""),
    "",
)

# Seat 0 took 2C 3C 4C 5D 6D 7D 8S 8H 8C from the pile: nine melded cards known to seat 1, one
# hidden card; the cards that would meld it or cost it 1 point were thrown (seen). Seat 1 then
# holds JD JS JH, 9S 9D 9H, 6S 6H 6C, KS and AS: knocking with AS leaves KS, 10 deadwood,
# against at most 10 (an undercut whatever the hidden card); knocking with KS wins for sure.
_KNOWN_MELDS = "2C 3C 4C 5D 6D 7D 8S 8H 8C"
_JUNK = "AH AC AD 5C 4D 8D JC TC TD"
_UNDERCUT_DRAWS = "JD JS JH 9S 9D 9H 6S 6H 6C KS"
UNDERCUT_KNOCK = scripted(
    "playgridia",
    laid_out_deck(f"{_KNOWN_MELDS} AS", f"{_JUNK} 7S", "9C", _UNDERCUT_DRAWS),
    feeding_turns(_KNOWN_MELDS, _UNDERCUT_DRAWS, _JUNK) + ", draw_stock",
)

# Seat 0 took 2C 3C 4C 5D 6D 7D 8S 8H from the pile (two melds and a pair of eights known) and
# holds two hidden cards. Seat 1 has just drawn 8C, the card that completes the eights: thrown,
# seat 0 takes it and knocks at once; kept (throwing 9H), seat 1 knocks on almost any next draw.
_FED = "2C 3C 4C 5D 6D 7D 8S 8H"
_FEED_DRAWS = "2S 3S 4S 4H 5H 6H 2D 9H 8C"
FEEDING = scripted(
    "playgridia",
    laid_out_deck(f"{_FED} AS AD", "TC TD TH TS QC QH KC KD KH 7S", "9C", _FEED_DRAWS),
    feeding_turns(_FED, _FEED_DRAWS, "TC TD TH TS QC QH KC KD") + ", draw_stock",
)


def stock_turns(deck: list[Card], count: int) -> str:
    """``count`` turns in which the player draws from the stock and throws the card drawn."""
    stock = deck[21 : 21 + count]
    return ", ".join(f"draw_stock, discard {card}" for card in stock)


# Not knocking with gin: seat 1 draws 8H, the last card before the stock runs out, and holds
# gin (5H-8H, the nines, JC-KC) with 2D to throw; a plain discard now kills the deal.
_GIN_DECK = laid_out_deck("5H 6H 7H 9C 9D 9S JC QC KC 2D", "AS 3S 5S 7S 9H JH KH 2C 4C 6C", "TD", "")
_LAST_DRAW = 28  # stock draws before the last one: 31 cards, the deal dies at 2
_GIN_DECK.insert(21 + _LAST_DRAW, _GIN_DECK.pop(_GIN_DECK.index(Card.parse("8H"))))
GIN_IN_HAND = scripted("playgridia", _GIN_DECK, stock_turns(_GIN_DECK, _LAST_DRAW) + ", draw_stock")


# The same errors in a match to 100 (classic: an offer round both players pass first), for the
# verdicts at 0-0 and near the target.
OFFER_PASSED = "pass, pass, "
GIN_IN_HAND_CLASSIC = scripted(
    "classic", _GIN_DECK, OFFER_PASSED + stock_turns(_GIN_DECK, _LAST_DRAW) + ", draw_stock"
)
FEEDING_CLASSIC = scripted(
    "classic",
    laid_out_deck(f"{_FED} AS AD", "TC TD TH TS QC QH KC KD KH 7S", "9C", _FEED_DRAWS),
    OFFER_PASSED + feeding_turns(_FED, _FEED_DRAWS, "TC TD TH TS QC QH KC KD") + ", draw_stock",
)

# Knocking with 8 into a hand seen to be all melds but one hidden card: seat 0 took 2C-4C,
# 5D-7D and three eights from the pile and holds 7S; seat 1 holds JD JS JH, 9S 9D 9H, 6S 6H 6C,
# 8D and KS. Knocking with KS shows 8D: an undercut unless the hidden card is worth more than 8.
_EIGHT_JUNK = "AH AC AD 5C 4D QD JC TC TD"
_EIGHT_DRAWS = "JD JS JH 9S 9D 9H 6S 6H 6C 8D"
KNOCK_EIGHT = scripted(
    "classic",
    laid_out_deck(f"{_KNOWN_MELDS} KS", f"{_EIGHT_JUNK} 7S", "9C", _EIGHT_DRAWS),
    OFFER_PASSED + feeding_turns(_KNOWN_MELDS, _EIGHT_DRAWS, _EIGHT_JUNK) + ", draw_stock",
)
