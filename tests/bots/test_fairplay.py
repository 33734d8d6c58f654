"""The fair-play signal's arithmetic, from reviewed decisions as LUNA's review stores them."""

from __future__ import annotations

import pytest

from bots.fairplay import ENOUGH, WINDOW, Signal, scored, signal_of


def stored(played: str, best: str, loss: float) -> dict[str, object]:
    """A decision as bots.review.DealReview.to_dict() stores it (the fields the signal reads)."""
    return {"played": played, "best": best, "loss": loss, "verdict": "good"}


def test_the_signal_counts_best_moves_moves_within_five_percent_and_the_mean_loss():
    decisions = [
        scored(stored("D:7S", "D:7S", 0.0)),  # LUNA's best
        scored(stored("D:2H", "D:7S", 0.03)),  # within 5 %
        scored(stored("S", "U", 0.05)),  # an inaccuracy: not within 5 %
        scored(stored("K:9C", "D:9C", 0.32)),  # a blunder
    ]
    signal = signal_of(decisions)
    assert signal == Signal(decisions=4, best_share=0.25, good_share=0.5, mean_loss=pytest.approx(0.1))
    assert not signal.enough


def test_only_the_last_window_of_decisions_counts_and_enough_needs_enough_of_them():
    old = [scored(stored("S", "U", 0.5))] * 50
    recent = [scored(stored("S", "S", 0.0))] * WINDOW
    signal = signal_of(old + recent)  # oldest first
    assert signal.decisions == WINDOW
    assert signal.best_share == 1.0 and signal.mean_loss == 0.0
    assert signal.enough
    assert not signal_of(recent[: ENOUGH - 1]).enough
    assert signal_of(recent[:ENOUGH]).enough


def test_no_decisions_give_an_empty_signal():
    assert signal_of([]) == Signal(decisions=0, best_share=0.0, good_share=0.0, mean_loss=0.0)
