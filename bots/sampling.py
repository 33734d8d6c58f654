"""LUNA's guesses at the opponent's hidden cards, drawn consistently with what its seat saw.

Cards the opponent took and still holds are fixed; cards related to what it threw or declined
are less likely, cards related to what it took more likely; a few extra cards are dealt and the
worst of them dropped, as a player who has drawn and thrown keeps the better cards (selection);
a hand that could already have knocked is mostly redrawn; where LUNA may knock, the hands lean
towards the opponent's deadwood as its play tells it (bots/deadwood.py).
"""

from __future__ import annotations

import math
import random
from functools import cached_property

from rules.view import DealView

from .deadwood import predicted_deadwood
from .handeval import VALUE, bits, related
from .knowledge import Knowledge
from .luna_settings import LUNA_SETTINGS, LunaSettings
from .playout import arranged

REDRAWS = 4  # tries at a sample before accepting whatever came


class OpponentSampler:
    """The opponent's hidden cards at one decision, as many times as asked."""

    def __init__(self, view: DealView, know: Knowledge, settings: LunaSettings = LUNA_SETTINGS) -> None:
        self.view = view
        self.know = know
        self.settings = settings
        self.weights = hidden_card_weights(know, settings.took_near, settings.threw_near)

    def hidden(self, rng: random.Random) -> int:
        """A hidden hand. One that could have knocked after the opponent's last discard is kept
        only now and then: most players knock when they can."""
        know = self.know
        hidden = 0
        for _ in range(REDRAWS + 1):
            hidden = self.proposed(know.opponent_hidden_count, rng)
            if not know.opponent_discards:
                break
            could_knock = arranged(know.opponent_known | hidden)[1] <= know.knock_limit
            if could_knock and rng.random() >= self.settings.keep_knockable:
                continue
            break
        return hidden

    def proposed(self, count: int, rng: random.Random) -> int:
        """Hidden cards from the cards alone; where LUNA leans on the deadwood estimate, the one of
        ``deadwood_pool`` such hands picked with a Gaussian weight on how far its deadwood lies
        from the estimate of the opponent's deadwood."""
        if not self.leans_on_deadwood:
            return self.from_cards(count, rng)
        settings, known = self.settings, self.know.opponent_known
        pool = [self.from_cards(count, rng) for _ in range(settings.deadwood_pool)]
        expected = self.expected_deadwood
        weights = [
            math.exp(-(((arranged(known | hidden)[1] - expected) / settings.deadwood_sigma) ** 2) / 2)
            for hidden in pool
        ]
        return rng.choices(pool, weights)[0] if any(weights) else pool[0]

    @cached_property
    def leans_on_deadwood(self) -> bool:
        """Whether the hands lean towards the deadwood estimate: only where LUNA may knock (at every
        decision the tilt lost against CARMEN), and only once the opponent has thrown a card."""
        return bool(self.know.opponent_discards) and self.know.may_knock

    @cached_property
    def expected_deadwood(self) -> float:
        return predicted_deadwood(self.view)

    def from_cards(self, count: int, rng: random.Random) -> int:
        """Hidden cards from the card weights alone, with the extra cards of the selection."""
        know, settings = self.know, self.settings
        extra = min(
            round(settings.selection * know.opponent_discards.bit_count()),
            settings.selection_cap,
            know.unseen.bit_count() - count,
        )
        hidden = weighted_sample(self.weights, count + extra, rng)
        return select_kept(know.opponent_known, hidden, extra) if extra > 0 else hidden


def hidden_card_weights(
    know: Knowledge,
    took_near: float = LUNA_SETTINGS.took_near,
    threw_near: float = LUNA_SETTINGS.threw_near,
) -> dict[int, float]:
    """Relative likelihood that each unseen card is in the opponent's hand."""
    thrown = know.opponent_discards | know.opponent_refused
    weights = {}
    for card in bits(know.unseen):
        near = related(card)
        weight = took_near if near & know.opponent_known else 1.0
        if near & thrown:
            weight *= threw_near
        weights[card] = weight
    return weights


def select_kept(known: int, hidden: int, drop: int) -> int:
    """``hidden`` less its ``drop`` worst cards, one at a time as a player discards: the highest
    loose card of the least-deadwood arrangement with ``known``. A player who has drawn and thrown
    for a while holds the better part of more cards than its hand, not a random hand."""
    for _ in range(drop):
        loose = hidden & ~arranged(known | hidden)[0]
        pool = loose or hidden
        worst = max(bits(pool), key=lambda card: (VALUE[card], card))
        hidden ^= 1 << worst
    return hidden


def weighted_sample(weights: dict[int, float], count: int, rng: random.Random) -> int:
    """``count`` distinct cards drawn with probability proportional to weight, as a mask."""
    if count <= 0:
        return 0
    keyed = sorted((rng.random() ** (1.0 / weight), card) for card, weight in weights.items())
    mask = 0
    for _, card in keyed[-count:]:
        mask |= 1 << card
    return mask
