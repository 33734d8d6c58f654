"""The fair-play signal: how closely an account's decisions follow LUNA's, read from LUNA's
reviews of its deals (bots/review.py). Nothing is evaluated here: each decision's loss and
LUNA's best move are the review's, so the signal costs nothing beyond the review.

Over an account's last WINDOW reviewed decisions: the share of them where the move played was
LUNA's best, the share within 5 % of it (the review's "good": a loss under the inaccuracy
threshold) and the mean loss of match-winning chance. Under ENOUGH decisions it means little
(a few lucky deals), and staff are told so.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .review import GOOD, match_verdict_of

WINDOW = 500  # an account's last decisions the signal reads (about 40 deals)
ENOUGH = 150  # fewer than this and the figures are noise (about 12 deals)


@dataclass(frozen=True, slots=True)
class Scored:
    """One reviewed decision as the signal reads it."""

    loss: float  # match-winning chance lost against LUNA's best (0..1)
    best: bool  # the move played was LUNA's best


@dataclass(frozen=True, slots=True)
class Signal:
    decisions: int
    best_share: float  # share of decisions that were LUNA's best move
    good_share: float  # share within 5 % of LUNA's best (the review's "good")
    mean_loss: float  # mean loss of match-winning chance against LUNA's best

    @property
    def enough(self) -> bool:
        return self.decisions >= ENOUGH


def scored(decision: Mapping[str, Any]) -> Scored:
    """A decision of a stored review (bots.review.DealReview.to_dict())."""
    return Scored(loss=float(decision["loss"]), best=decision["played"] == decision["best"])


def signal_of(decisions: Sequence[Scored], window: int = WINDOW) -> Signal:
    """The signal over the last ``window`` of ``decisions`` (oldest first)."""
    recent = decisions[-window:] if window else []
    count = len(recent)
    if count == 0:
        return Signal(decisions=0, best_share=0.0, good_share=0.0, mean_loss=0.0)
    return Signal(
        decisions=count,
        best_share=sum(one.best for one in recent) / count,
        good_share=sum(match_verdict_of(one.loss) == GOOD for one in recent) / count,
        mean_loss=sum(one.loss for one in recent) / count,
    )
