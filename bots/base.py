"""What every bot shares: the interface, the match context and small action helpers."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Protocol

from rules.moves import (
    BIG_GIN,
    DISCARDS,
    DRAW_STOCK,
    KNOCK,
    KNOCKS,
    PASS,
    TAKE_DISCARD,
    TAKE_UPCARD,
    Action,
)
from rules.view import DealView

from .knowledge import repeats_position


@dataclass(frozen=True, slots=True)
class MatchContext:
    """The match score as the bot's seat sees it (a DealView knows only its deal).

    ``target`` None: a single-deal match, where winning this deal wins the match.
    """

    my_total: int = 0
    opponent_total: int = 0
    target: int | None = None


NO_MATCH = MatchContext()


class Bot(Protocol):
    name: str

    def choose(self, view: DealView, rng: random.Random, match: MatchContext | None = None) -> Action: ...


def find_action(view: DealView, kind: str, card_index: int = -1) -> Action | None:
    """The legal action of ``kind`` (with that card, for discard/knock), or None."""
    for action in view.legal_actions:
        if action.kind == kind and (card_index < 0 or action.index == card_index):
            return action
    return None


def legal_kinds(view: DealView) -> set[str]:
    return {action.kind for action in view.legal_actions}


def draw_action(view: DealView, take: bool) -> Action:
    """Take the face-up card (offer round or normal draw) or decline it. A bot never takes it
    at a position it has already faced with the stock as it is (knowledge.repeats_position):
    that would feed an exchange of discards that never ends the deal."""
    kinds = legal_kinds(view)
    if take and not repeats_position(view):
        for kind in (TAKE_UPCARD, TAKE_DISCARD):
            if kind in kinds:
                return Action(kind)
    for kind in (PASS, DRAW_STOCK):
        if kind in kinds:
            return Action(kind)
    return view.legal_actions[0]


def finish_action(view: DealView, card_index: int, knock: bool, big_gin: bool = False) -> Action:
    """The discard-phase action: big gin, a knock with the card (if legal), or a plain discard."""
    if big_gin and find_action(view, BIG_GIN) is not None:
        return Action.big_gin()
    if knock and find_action(view, KNOCK, card_index) is not None:
        return KNOCKS[card_index]
    return DISCARDS[card_index]
