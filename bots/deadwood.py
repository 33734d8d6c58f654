"""An estimate of the opponent's deadwood from its public play.

A player throws its worst loose card, so what it threw lately says how much deadwood it still
holds: a run of low throws means a low hand. A linear model of the deadwood of the opponent's
whole hand (known and hidden cards), fitted by least squares on positions where the truth was
known afterwards (`python -m bench.deadwood_model`; the fit and its errors are in
bench/README.md). Where LUNA may knock, its sampler favours hands whose deadwood is near the
estimate (`LunaSettings.deadwood_pool`, bots/sampling.py): that gained against `simple` and
cost nothing measurable against CARMEN, while the same tilt at every decision lost against
CARMEN. Fitted to simple's play, the coefficients read CARMEN's deadwood as well as a fit pooled
over simple, CARMEN and TITO does.

Built from a `DealView` alone: the opponent's turns are the public history.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence

from rules.view import DealView

from .handeval import VALUE
from .history import opponent_turns

# fitted on 3,520 positions of 400 classic deals (CARMEN watching `simple`, seed 101); held out
# on 100 deals its mean absolute error is 6.79 points, against 10.00 for a constant guess
COEFFICIENTS = (29.2739, 2.0211, -5.5507, -0.3585, 1.0392, -4.4972, -2.4928, 5.7887, -1.6401)
RECENT = 3  # the latest discards whose least and mean value are features
NO_DISCARD_VALUE = 10  # the value standing for a discard not yet made


def features(view: DealView) -> tuple[float, ...]:
    """What the opponent's play says about its deadwood, in COEFFICIENTS' order: a constant,
    its latest discard's value, the least and the mean of its latest RECENT, how many discards
    it made, how many face-up cards it took, two interactions, and the stock left."""
    assert view.seat is not None
    turns = opponent_turns(view, 1 - view.seat)
    thrown = [VALUE[turn.discard] for turn in turns if turn.discard >= 0]
    latest = thrown[0] if thrown else NO_DISCARD_VALUE
    recent = thrown[:RECENT] or [NO_DISCARD_VALUE]
    lowest = min(recent)
    took = sum(1 for turn in turns if turn.taken >= 0)
    count = len(thrown)
    return (
        1.0,
        latest,
        lowest,
        statistics.fmean(recent),
        count,
        took,
        latest * count / 10,
        lowest * lowest / 10,
        view.stock_count / 10,
    )


def predicted_deadwood(view: DealView, coefficients: Sequence[float] = COEFFICIENTS) -> float:
    """The model's estimate of the deadwood of the opponent's whole hand."""
    return sum(weight * value for weight, value in zip(coefficients, features(view), strict=True))
