"""The review's scales: verdicts in points of the deal, the match judgement beside them, and
the accuracy figure.

A decision's cost is judged in expected points of the deal (the seat's points won minus the
opponent's, averaged over the sampled deals): the equivalent of backgammon's normalized
equity (EMG), so an error early in a match counts like the same error anywhere. The match
judgement (match-winning chance, the scale reviews used first) is kept beside it and shown
where the two disagree, which happens near the target, where a move right for points may be
wrong for the match.

The thresholds in points come from the calibration (bench/review_calibration.py,
bench/README.md): the simple baseline's natural play is marked at a sensible rate, LUNA's
rarely.
"""

from __future__ import annotations

import math

# Loss in expected points of the deal from which a move is marked, worst first.
VERDICTS: tuple[tuple[str, float], ...] = (("blunder", 10.0), ("mistake", 5.0), ("inaccuracy", 2.0))
# Loss in match-winning chance (0..1): the match judgement, and the scale of reviews stored
# before the points scale (marked "match_chance").
MATCH_VERDICTS: tuple[tuple[str, float], ...] = (("blunder", 0.20), ("mistake", 0.10), ("inaccuracy", 0.05))
GOOD = "good"
SEVERITY = {GOOD: 0, "inaccuracy": 1, "mistake": 2, "blunder": 3}
POINTS_SCALE = "points"  # the scale of reviews judged here
MATCH_SCALE = "match_chance"  # the scale of reviews stored before it

# accuracy = 100 * exp(-mean loss in points / ACCURACY_POINTS): no loss is 100, a mean loss of
# ACCURACY_POINTS per decision is 37, twice that 14 (bench/README.md: typical figures).
ACCURACY_POINTS = 4.0


def _graded(loss: float, thresholds: tuple[tuple[str, float], ...]) -> str:
    for name, threshold in thresholds:
        if loss >= threshold - 1e-9:
            return name
    return GOOD


def verdict_of(points_loss: float) -> str:
    """The verdict on a loss in expected points of the deal."""
    return _graded(points_loss, VERDICTS)


def match_verdict_of(chance_loss: float) -> str:
    """The match judgement's verdict on a loss of match-winning chance (0..1)."""
    return _graded(chance_loss, MATCH_VERDICTS)


def accuracy_of(points_losses: list[float]) -> float | None:
    """The 0-100 accuracy of decisions with these losses in points (None: no decision)."""
    if not points_losses:
        return None
    return accuracy_of_mean(sum(points_losses) / len(points_losses))


def accuracy_of_mean(mean_loss: float) -> float:
    """The 0-100 accuracy of a mean loss in points per decision."""
    return round(100.0 * math.exp(-mean_loss / ACCURACY_POINTS), 1)


def disagree(verdict: str, match_verdict: str, best: str, match_best: str) -> bool:
    """Whether the match judgement is worth showing beside the points one: it is harsher, or
    it prefers another move while the points judgement marks the move played."""
    if SEVERITY[match_verdict] > SEVERITY[verdict]:
        return True
    return match_best != best and SEVERITY[verdict] > 0 and SEVERITY[match_verdict] == 0
