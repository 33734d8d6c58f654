"""What happens in a deal: the moves a player makes (`Action`), what each move
reveals (`Event`), and the result of a deal that died (`DeadDeal`).

All three are small frozen values. The move actions and move events are interned at
import, so the engine's hot path never builds one.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final

from .cards import CARDS, Card, as_cards
from .errors import IllegalMove, InvalidState
from .scoring import DEAD

if TYPE_CHECKING:
    from .showdown import Showdown

TAKE_UPCARD: Final = "take_upcard"
PASS: Final = "pass"
DRAW_STOCK: Final = "draw_stock"
TAKE_DISCARD: Final = "take_discard"
DISCARD: Final = "discard"
KNOCK: Final = "knock"
BIG_GIN: Final = "big_gin"

ACTION_KINDS: tuple[str, ...] = (TAKE_UPCARD, PASS, DRAW_STOCK, TAKE_DISCARD, DISCARD, KNOCK, BIG_GIN)
CARD_KINDS = frozenset({DISCARD, KNOCK})

# Event kinds beyond the action kinds: the deal ended by a knock or big gin, or died.
DEAL_OVER: Final = "deal_over"
DEAD_DEAL: Final = "dead_deal"
EVENT_KINDS: tuple[str, ...] = (*ACTION_KINDS, DEAL_OVER, DEAD_DEAL)
# Events whose card is public; a draw from the stock shows its card to the drawer only.
_TAKE_KINDS = frozenset({TAKE_UPCARD, TAKE_DISCARD})


@dataclass(frozen=True, slots=True)
class Action:
    """One move: ``Action("discard", "7H")`` or ``Action.discard("7H")``; ``str()`` gives
    ``"discard 7H"`` and `Action.parse` reads it back."""

    kind: str
    card: Card | None = None
    index: int = field(default=-1, init=False, repr=False, compare=False)  # the card's index, -1 if none

    def __post_init__(self) -> None:
        if self.kind not in ACTION_KINDS:
            raise IllegalMove(f"unknown action {self.kind!r}; expected one of {', '.join(ACTION_KINDS)}")
        card = self.card
        if self.kind in CARD_KINDS:
            if card is None:
                raise IllegalMove(f"{self.kind} needs a card, e.g. '{self.kind} 7H'")
            if not isinstance(card, Card):
                card = Card.parse(card)
                object.__setattr__(self, "card", card)
            object.__setattr__(self, "index", card.index)
        elif card is not None:
            raise IllegalMove(f"{self.kind} takes no card")

    def __str__(self) -> str:
        return self.kind if self.card is None else f"{self.kind} {self.card}"

    @staticmethod
    def parse(text: str) -> Action:
        """Read ``"draw_stock"``, ``"discard 7H"``, ``"knock 10D"`` (case and spacing are free)."""
        if not isinstance(text, str):
            raise IllegalMove(f"an action must be given as text, not {text!r}")
        words = text.split()
        if not 1 <= len(words) <= 2:
            raise IllegalMove(f"{text!r} is not an action (expected e.g. 'draw_stock' or 'discard 7H')")
        kind = words[0].lower()
        if len(words) == 1:
            return _interned(kind, None, text)
        try:
            card = Card.parse(words[1])
        except ValueError as error:
            raise IllegalMove(f"{text!r} is not an action: {error}") from None
        return _interned(kind, card, text)

    @staticmethod
    def take_upcard() -> Action:
        return _SIMPLE[TAKE_UPCARD]

    @staticmethod
    def pass_() -> Action:
        return _SIMPLE[PASS]

    @staticmethod
    def draw_stock() -> Action:
        return _SIMPLE[DRAW_STOCK]

    @staticmethod
    def take_discard() -> Action:
        return _SIMPLE[TAKE_DISCARD]

    @staticmethod
    def big_gin() -> Action:
        return _SIMPLE[BIG_GIN]

    @staticmethod
    def discard(card: Card | str) -> Action:
        return DISCARDS[_card(card).index]

    @staticmethod
    def knock(card: Card | str) -> Action:
        return KNOCKS[_card(card).index]


def _card(card: Card | str) -> Card:
    return card if isinstance(card, Card) else Card.parse(card)


_SIMPLE = {kind: Action(kind) for kind in ACTION_KINDS if kind not in CARD_KINDS}
DISCARDS: tuple[Action, ...] = tuple(Action(DISCARD, card) for card in CARDS)
KNOCKS: tuple[Action, ...] = tuple(Action(KNOCK, card) for card in CARDS)


def _interned(kind: str, card: Card | None, text: str) -> Action:
    if card is None:
        simple = _SIMPLE.get(kind)
        if simple is not None:
            return simple
    elif kind == DISCARD:
        return DISCARDS[card.index]
    elif kind == KNOCK:
        return KNOCKS[card.index]
    try:
        return Action(kind, card)  # raises the reason this is not an action
    except IllegalMove as error:
        raise IllegalMove(f"{text!r} is not an action: {error}") from None


@dataclass(frozen=True, slots=True)
class DeadDeal:
    """Result of a deal that died with the stock exhausted: nobody scores, the same dealer deals again."""

    hands: tuple[tuple[Card, ...], tuple[Card, ...]]  # by seat, revealed at the end

    @property
    def outcome(self) -> str:
        return DEAD

    @property
    def points(self) -> int:
        return 0

    @property
    def winner(self) -> None:
        return None

    def to_dict(self) -> dict[str, Any]:
        return {"outcome": DEAD, "hands": [[str(card) for card in hand] for hand in self.hands]}

    @staticmethod
    def from_dict(data: dict[str, Any]) -> DeadDeal:
        try:
            first, second = data["hands"]
            return DeadDeal((tuple(as_cards(first)), tuple(as_cards(second))))
        except (KeyError, TypeError, ValueError) as error:
            raise InvalidState(f"not a dead deal: {error}") from None


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened in a deal, as `Deal.apply` reports it.

    ``kind`` is an action kind (the move ``seat`` made, with its ``card`` where the move has one)
    or ``"deal_over"`` (``seat`` is the seat that scores, ``result`` the `Showdown`) or
    ``"dead_deal"`` (``seat`` is None, ``result`` the `DeadDeal`). A ``draw_stock`` event names
    the drawn card; `for_seat` hides it from everyone but the drawer.
    """

    kind: str
    seat: int | None
    card: Card | None = None
    result: Showdown | DeadDeal | None = None

    @property
    def is_private(self) -> bool:
        """True when the event shows a card that only its seat may see."""
        return self.kind == DRAW_STOCK and self.card is not None

    def for_seat(self, seat: int | None) -> Event:
        """The event as ``seat`` may see it (None: a spectator)."""
        if self.is_private and seat != self.seat and self.seat is not None:
            return _HIDDEN_DRAWS[self.seat]
        return self

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "seat": self.seat,
            "card": None if self.card is None else str(self.card),
            "result": None if self.result is None else self.result.to_dict(),
        }


_HIDDEN_DRAWS = (Event(DRAW_STOCK, 0), Event(DRAW_STOCK, 1))


def _build_move_events() -> dict[tuple[str, int, int], tuple[Event]]:
    """One-event tuples for every (kind, seat, card index or -1) a move can produce."""
    table: dict[tuple[str, int, int], tuple[Event]] = {}
    for seat in (0, 1):
        for kind in ACTION_KINDS:
            if kind in CARD_KINDS or kind in _TAKE_KINDS or kind == DRAW_STOCK:
                for card in CARDS:
                    table[kind, seat, card.index] = (Event(kind, seat, card),)
            if kind not in CARD_KINDS:
                table[kind, seat, -1] = (Event(kind, seat),)
    return table


MOVE_EVENTS = _build_move_events()
