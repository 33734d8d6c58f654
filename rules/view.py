"""What one seat (or a spectator) may know about a deal: everything a bot decides from.

A `DealView` never holds the stock order or the deck, and holds the opponent's cards
only where they are public: the cards the opponent took from the discard pile and
still holds, and both hands once the deal is over (through its result).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .cards import CARDS, Card, cards_to_mask, mask_to_cards
from .moves import DISCARD, KNOCK, TAKE_DISCARD, TAKE_UPCARD, Action, DeadDeal, Event
from .ruleset import Ruleset

if TYPE_CHECKING:
    from .showdown import Showdown

_ALL_CARDS = (1 << 52) - 1
_PUBLIC_KINDS = frozenset({TAKE_UPCARD, TAKE_DISCARD, DISCARD, KNOCK})


@dataclass(frozen=True, slots=True)
class DealView:
    seat: int | None  # None: a spectator
    ruleset: Ruleset
    dealer: int
    phase: str  # "offer", "draw", "discard" or "over"
    to_play: int | None  # None once the deal is over
    version: int  # number of actions applied
    hand: tuple[Card, ...] | None  # this seat's cards; None for a spectator
    hand_counts: tuple[int, int]  # cards held, by seat
    known_cards: tuple[tuple[Card, ...], tuple[Card, ...]]  # by seat: taken from the pile and still held
    upcard: Card  # the first upcard (sets the knock limit and multiplier in Oklahoma)
    discard_pile: tuple[Card, ...]  # bottom first, top last
    stock_count: int
    just_taken: Card | None  # the card the player to move took from the pile this turn: not discardable
    drawn: Card | None  # the card this seat drew from the stock this turn (its own eyes only)
    must_draw_stock: bool  # both players passed the upcard: the non-dealer must draw from the stock
    history: tuple[Event, ...]  # every move so far, stock cards shown only to their drawer
    legal_actions: tuple[Action, ...]  # empty unless it is this seat's turn
    knock_limit: int
    multiplier: int
    result: Showdown | DeadDeal | None  # reveals both hands once the deal is over
    knocker: int | None

    @property
    def opponent(self) -> int | None:
        return None if self.seat is None else 1 - self.seat

    @property
    def opponent_count(self) -> int:
        """Cards the opponent holds (for a spectator: the cards of seat 1)."""
        return self.hand_counts[1 if self.seat is None else 1 - self.seat]

    @property
    def opponent_known(self) -> tuple[Card, ...]:
        """The opponent's cards this seat knows: those taken from the discard pile and still held."""
        return self.known_cards[1 if self.seat is None else 1 - self.seat]

    @property
    def discard_count(self) -> int:
        return len(self.discard_pile)

    @property
    def top_discard(self) -> Card | None:
        return self.discard_pile[-1] if self.discard_pile else None

    @property
    def is_my_turn(self) -> bool:
        return self.seat is not None and self.seat == self.to_play

    @property
    def seen_mask(self) -> int:
        """Cards this seat has seen: its hand, its own stock draws and every card ever shown on the pile."""
        seen = 1 << self.upcard.index
        for event in self.history:
            if event.card is not None and (event.kind in _PUBLIC_KINDS or event.seat == self.seat):
                seen |= 1 << event.card.index
        if self.hand is not None:
            seen |= cards_to_mask(self.hand)
        return seen

    def unseen_cards(self) -> tuple[Card, ...]:
        """Cards this seat has never seen: the opponent's hidden cards and the whole stock are among them."""
        return tuple(mask_to_cards(_ALL_CARDS & ~self.seen_mask))

    def to_dict(self) -> dict[str, Any]:
        """A JSON-able form, cards as strings such as ``"7H"``."""
        return {
            "seat": self.seat,
            "ruleset": self.ruleset.to_dict(),
            "dealer": self.dealer,
            "phase": self.phase,
            "to_play": self.to_play,
            "version": self.version,
            "hand": None if self.hand is None else _strings(self.hand),
            "hand_counts": list(self.hand_counts),
            "known_cards": [_strings(cards) for cards in self.known_cards],
            "upcard": str(self.upcard),
            "discard_pile": _strings(self.discard_pile),
            "stock_count": self.stock_count,
            "just_taken": _string(self.just_taken),
            "drawn": _string(self.drawn),
            "must_draw_stock": self.must_draw_stock,
            "history": [event.to_dict() for event in self.history],
            "legal_actions": [str(action) for action in self.legal_actions],
            "knock_limit": self.knock_limit,
            "multiplier": self.multiplier,
            "result": None if self.result is None else self.result.to_dict(),
            "knocker": self.knocker,
        }


def _strings(cards: tuple[Card, ...]) -> list[str]:
    return [str(card) for card in cards]


def _string(card: Card | None) -> str | None:
    return None if card is None else str(card)


def cards_of(mask: int) -> tuple[Card, ...]:
    return tuple(mask_to_cards(mask))


def card_or_none(index: int) -> Card | None:
    return None if index < 0 else CARDS[index]
