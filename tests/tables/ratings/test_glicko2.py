"""Glicko-2 against the worked example of Glickman's paper ("Example of the Glicko-2 system")."""

from __future__ import annotations

import math

import pytest

from tables.ratings.glicko2 import SCALE, Rating, idle, periods_until, rate


def test_glickmans_worked_example():
    player = Rating(1500, 200, 0.06)
    opponents = [
        (Rating(1400, 30, 0.06), 1.0),
        (Rating(1550, 100, 0.06), 0.0),
        (Rating(1700, 300, 0.06), 0.0),
    ]
    after = rate(player, opponents)
    assert after.rating == pytest.approx(1464.06, abs=0.01)
    assert after.deviation == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=0.00001)


def test_a_win_raises_a_loss_lowers_and_both_narrow_the_deviation():
    start = Rating()
    won = rate(start, [(Rating(), 1.0)])
    lost = rate(start, [(Rating(), 0.0)])
    assert won.rating > 1500 > lost.rating
    assert won.rating - 1500 == pytest.approx(1500 - lost.rating)
    assert won.deviation < 350 and lost.deviation < 350


def test_a_period_without_games_only_widens_the_deviation():
    after = rate(Rating(1600, 100, 0.06), [])
    assert after.rating == 1600 and after.volatility == 0.06
    assert after.deviation > 100


def test_one_idle_period_is_glickmans_step_six():
    after = idle(Rating(1500, 200, 0.06), 1)
    assert after.deviation == pytest.approx(math.sqrt((200 / SCALE) ** 2 + 0.06**2) * SCALE)
    assert after.deviation == rate(Rating(1500, 200, 0.06), []).deviation  # the paper's own step 6
    assert (after.rating, after.volatility) == (1500, 0.06)
    assert idle(Rating(1500, 200, 0.06), 0) == Rating(1500, 200, 0.06)


def test_many_idle_periods_grow_the_deviation_up_to_a_new_players():
    settled = Rating(1800, 50, 0.06)
    assert 50 < idle(settled, 30).deviation < idle(settled, 90).deviation < 350
    assert idle(settled, 100_000).deviation == 350
    periods = periods_until(settled, 110)
    assert idle(settled, periods).deviation == pytest.approx(110)
    assert periods_until(Rating(1500, 200, 0.06), 110) == 0
