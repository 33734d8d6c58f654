"""Cards: small immutable values with a round-tripping string form.

A card's ``index`` (0-51) is ``suit_index * 13 + rank - 1`` with suits in the
order S, H, D, C; hands are handled internally as 52-bit masks of indexes.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .errors import InvalidCard, InvalidDeck, InvalidHand

SUITS = "SHDC"
RANKS = "A23456789TJQK"
SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
_SYMBOL_TO_SUIT = {
    "♠": "S",
    "♤": "S",
    "♥": "H",
    "♡": "H",
    "♦": "D",
    "♢": "D",
    "♣": "C",
    "♧": "C",
}
RANK_NAMES = {1: "ace", 11: "jack", 12: "queen", 13: "king"}
SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}


@dataclass(frozen=True, slots=True)
class Card:
    rank: int  # 1 (ace) .. 13 (king)
    suit: str  # one of "SHDC"

    def __post_init__(self) -> None:
        if type(self.rank) is not int or not 1 <= self.rank <= 13:
            raise InvalidCard(f"rank must be an integer from 1 to 13, not {self.rank!r}")
        if self.suit not in SUITS or len(self.suit) != 1:
            raise InvalidCard(f"suit must be one of S, H, D, C, not {self.suit!r}")

    @property
    def index(self) -> int:
        return SUITS.index(self.suit) * 13 + self.rank - 1

    @property
    def points(self) -> int:
        """Deadwood value: ace 1, pips at face value, court cards 10."""
        return min(self.rank, 10)

    @property
    def symbol(self) -> str:
        """Display form with a suit symbol, e.g. ``7♥`` or ``10♣``."""
        rank = "10" if self.rank == 10 else RANKS[self.rank - 1]
        return rank + SUIT_SYMBOLS[self.suit]

    @property
    def name(self) -> str:
        """Spoken English name, e.g. ``7 of hearts``."""
        return f"{RANK_NAMES.get(self.rank, str(self.rank))} of {SUIT_NAMES[self.suit]}"

    def __str__(self) -> str:
        return RANKS[self.rank - 1] + self.suit

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"

    # What the dataclass would make, written out: compiled with mypyc, a class with __lt__ but no
    # __eq__ of its own gets __hash__ = None before the decorator runs, which then keeps it.
    def __hash__(self) -> int:
        return hash((self.rank, self.suit))

    def __lt__(self, other: Card) -> bool:
        return (self.rank, self.suit_order) < (other.rank, other.suit_order)

    @property
    def suit_order(self) -> int:
        return SUITS.index(self.suit)

    @staticmethod
    def parse(text: object) -> Card:  # object: checked here, an InvalidCard in both builds
        """Read ``7H``, ``TH``, ``10H``, ``7h``, ``7♥`` (surrounding spaces ignored)."""
        if not isinstance(text, str):
            raise InvalidCard(f"a card must be given as text, not {text!r}")
        token = text.strip()
        card = _PARSED.get(token.upper()) or _PARSED.get(token)
        if card is None:
            raise InvalidCard(f"{text!r} is not a card (expected e.g. 7H, TH, 10H, AS, 7♥)")
        return card

    @staticmethod
    def from_index(index: int) -> Card:
        if type(index) is not int or not 0 <= index < 52:
            raise InvalidCard(f"card index must be 0-51, not {index!r}")
        return CARDS[index]


CARDS: tuple[Card, ...] = tuple(Card(rank, suit) for suit in SUITS for rank in range(1, 14))


def _build_parse_table() -> dict[str, Card]:
    table: dict[str, Card] = {}
    for card in CARDS:
        rank_forms = [RANKS[card.rank - 1]] + (["10"] if card.rank == 10 else [])
        suit_forms = [card.suit] + [s for s, v in _SYMBOL_TO_SUIT.items() if v == card.suit]
        for rank in rank_forms:
            for suit in suit_forms:
                table[rank + suit] = card
    return table


_PARSED = _build_parse_table()


def parse_cards(text: str | Iterable[str]) -> list[Card]:
    """Parse ``"7H 7S 7D"`` (spaces or commas) or an iterable of card strings."""
    # list[object]: compiled code would check each element is a str, a TypeError before Card.parse's InvalidCard
    tokens: Iterable[object] = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    return [Card.parse(token) for token in tokens]


def format_cards(cards: Iterable[Card]) -> str:
    return " ".join(str(card) for card in cards)


def as_cards(cards: str | Iterable[Card | str]) -> list[Card]:
    """Accept a string, Cards, or card strings; used by every public function."""
    if isinstance(cards, str):
        return parse_cards(cards)
    result = []
    for item in cards:
        result.append(item if isinstance(item, Card) else Card.parse(item))
    return result


def cards_to_mask(cards: Iterable[Card]) -> int:
    """52-bit mask of a hand; raises InvalidHand on a repeated card."""
    mask = 0
    for card in cards:
        bit = 1 << card.index
        if mask & bit:
            raise InvalidHand(f"{card} appears twice")
        mask |= bit
    return mask


def mask_to_cards(mask: int) -> list[Card]:
    """Cards of a mask, ordered by index (suit, then rank)."""
    out = []
    while mask:
        low = mask & -mask
        out.append(CARDS[low.bit_length() - 1])
        mask ^= low
    return out


def new_deck() -> list[Card]:
    """A shuffled deck, top first, from a cryptographically strong source."""
    deck = list(CARDS)
    secrets.SystemRandom().shuffle(deck)
    return deck


def check_deck(deck: Sequence[Card | str]) -> list[Card]:
    cards = as_cards(deck)
    if len(cards) != 52 or len(set(cards)) != 52:
        raise InvalidDeck(f"a deck must be 52 distinct cards, got {len(cards)} ({len(set(cards))} distinct)")
    return cards
