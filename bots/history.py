"""The opponent's turns of a deal, replayed from a `DealView`'s public history.

What the opponent threw and took says how close it is to knocking (bots/deadwood.py). Built
from a `DealView` alone: no hidden card is read.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.moves import DISCARD, DRAW_STOCK, KNOCK, PASS, TAKE_DISCARD, TAKE_UPCARD
from rules.view import DealView

from .knowledge import replayed_backwards


@dataclass(frozen=True, slots=True)
class OpponentTurn:
    """One of the opponent's turns: what it threw and what it drew, or a pass."""

    discard: int  # the card thrown, -1 for a pass in the offer round
    taken: int  # the face-up card taken, -1 for a stock draw or a pass
    declined: int  # the face-up card left on the pile, -1 when none was showing


def opponent_turns(view: DealView, opponent: int) -> tuple[OpponentTurn, ...]:
    """The opponent's turns of this deal, the latest first, replayed back from the pile."""
    turns: list[OpponentTurn] = []
    thrown = -1  # the opponent's discard whose draw is still to be found, going back
    for event, top in replayed_backwards(view):
        if event.seat != opponent:
            continue
        if event.kind in (DISCARD, KNOCK) and event.card is not None:
            thrown = event.card.index
        elif event.kind in (TAKE_UPCARD, TAKE_DISCARD) and thrown >= 0:
            turns.append(OpponentTurn(thrown, top, -1))
            thrown = -1
        elif event.kind == DRAW_STOCK and thrown >= 0:
            turns.append(OpponentTurn(thrown, -1, top))
            thrown = -1
        elif event.kind == PASS and top >= 0:
            turns.append(OpponentTurn(-1, -1, top))
    return tuple(turns)
