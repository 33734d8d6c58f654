"""Why LUNA's move, in one line's worth of facts, from the player's own view only: the melds
and the deadwood the move leaves, and the cards the opponent was seen to take from the pile and
still holds. The page words them (both languages); nothing here reads a hidden card."""

from __future__ import annotations

from dataclasses import dataclass

from rules.cards import Card
from rules.melding import best_discard, best_melding
from rules.moves import DISCARD, KNOCK, TAKE_DISCARD, TAKE_UPCARD, Action
from rules.view import DealView


@dataclass(frozen=True, slots=True)
class Reason:
    melds: tuple[tuple[str, ...], ...]  # the hand's melds after the move
    deadwood: int  # its deadwood points after the move (a take: after its best discard)
    opponent_took: tuple[str, ...]  # seen taken from the pile and still held by the opponent

    def to_dict(self) -> dict[str, object]:
        return {
            "melds": [list(meld) for meld in self.melds],
            "deadwood": self.deadwood,
            "opponent_took": list(self.opponent_took),
        }


def reason_for(view: DealView, action: Action) -> Reason:
    """The facts behind ``action`` in ``view`` (the seat's view when it chose)."""
    hand: list[Card] = list(view.hand or ())
    if action.kind in (DISCARD, KNOCK) and action.card is not None:
        melding = best_melding([card for card in hand if card != action.card])
    elif action.kind in (TAKE_UPCARD, TAKE_DISCARD) and view.top_discard is not None:
        melding = best_discard([*hand, view.top_discard], exclude=view.top_discard).melding
    else:  # a pass, a stock draw, big gin: the hand as it is
        melding = best_melding(hand)
    melds = tuple(tuple(str(card) for card in meld) for meld in melding.melds)
    return Reason(melds, melding.points, tuple(str(card) for card in view.opponent_known))
