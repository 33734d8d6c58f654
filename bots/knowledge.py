"""What a seat knows about a deal, as 52-bit masks: the only input the bots' reasoning reads.

Built from a `DealView` alone. Besides the view's own fields it replays the public
history backwards to learn which face-up cards the opponent declined (a pass in
the offer round, or a stock draw with that card on top of the pile).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from rules.cards import cards_to_mask
from rules.melding import best_discard_mask
from rules.moves import DISCARD, DRAW_STOCK, KNOCK, PASS, TAKE_DISCARD, TAKE_UPCARD, Event
from rules.view import DealView

ALL_CARDS = (1 << 52) - 1


@dataclass(frozen=True, slots=True)
class Knowledge:
    seat: int
    phase: str  # "offer", "draw" or "discard"
    hand: int
    top: int  # index of the top discard, -1 for an empty pile
    pile: int  # every card in the discard pile
    stock_count: int
    just_taken: int  # may not be discarded this turn, -1 for none
    opponent_known: int  # taken from the pile by the opponent and still held
    opponent_count: int
    opponent_discards: int  # every card the opponent has thrown this deal
    opponent_refused: int  # face-up cards the opponent declined
    knock_limit: int
    turns: int  # discards made so far this deal, by both seats

    @property
    def unseen(self) -> int:
        """Cards that may be in the opponent's hidden hand or in the stock."""
        return ALL_CARDS & ~(self.hand | self.pile | self.opponent_known)

    @property
    def opponent_hidden_count(self) -> int:
        return self.opponent_count - self.opponent_known.bit_count()

    @property
    def may_knock(self) -> bool:
        """Whether the seat is at a discard where some throw would let it knock."""
        if self.phase != "discard":
            return False
        return best_discard_mask(self.hand, self.just_taken)[1] <= self.knock_limit

    @staticmethod
    def from_view(view: DealView) -> Knowledge:
        if view.seat is None or view.hand is None:
            raise ValueError("a bot needs a seat's view, not a spectator's")
        opponent = 1 - view.seat
        discards, refused, turns = _opponent_record(view, opponent)
        top = view.discard_pile[-1].index if view.discard_pile else -1
        return Knowledge(
            seat=view.seat,
            phase=view.phase,
            hand=cards_to_mask(view.hand),
            top=top,
            pile=cards_to_mask(view.discard_pile),
            stock_count=view.stock_count,
            just_taken=view.just_taken.index if view.just_taken is not None else -1,
            opponent_known=cards_to_mask(view.known_cards[opponent]),
            opponent_count=view.hand_counts[opponent],
            opponent_discards=discards,
            opponent_refused=refused,
            knock_limit=view.knock_limit,
            turns=turns,
        )


def replayed_backwards(view: DealView) -> Iterator[tuple[Event, int]]:
    """Every event of the deal, the latest first, with the card on top of the discard pile
    just before it (-1 for an empty pile), replayed back from the pile as it is now."""
    pile = [card.index for card in view.discard_pile]
    for event in reversed(view.history):
        if event.kind in (DISCARD, KNOCK) and pile:
            pile.pop()
        elif event.kind in (TAKE_UPCARD, TAKE_DISCARD) and event.card is not None:
            pile.append(event.card.index)
        yield event, pile[-1] if pile else -1


def repeats_position(view: DealView) -> bool:
    """Whether the seat to draw has faced this very position before in the deal: the same hand
    and the same face-up card, with no stock draw since. Two players who keep taking each
    other's discards can pass the same cards round for ever; the stock never shrinks then."""
    if view.phase != "draw" or not view.is_my_turn or view.hand is None or not view.discard_pile:
        return False
    hand = now = cards_to_mask(view.hand)
    top = view.discard_pile[-1].index
    for event, top_before in replayed_backwards(view):
        if event.kind not in (DISCARD, TAKE_DISCARD) or event.card is None:
            return False  # a stock draw (or the deal's opening): the position cannot come back
        if event.seat != view.seat:
            continue
        hand ^= 1 << event.card.index  # going back, a discard returns to the hand and a take leaves it
        if event.kind == TAKE_DISCARD and hand == now and top_before == top:
            return True
    return False


def _opponent_record(view: DealView, opponent: int) -> tuple[int, int, int]:
    """(cards the opponent discarded, face-up cards it declined, discards made so far)."""
    discards = refused = turns = 0
    for event, top in replayed_backwards(view):
        if event.kind in (DISCARD, KNOCK):
            turns += 1
            if event.seat == opponent and event.card is not None:
                discards |= 1 << event.card.index
        elif event.kind in (PASS, DRAW_STOCK) and event.seat == opponent and top >= 0:
            refused |= 1 << top
    return discards, refused, turns
