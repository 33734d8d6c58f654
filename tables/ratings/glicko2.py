"""Glicko-2 (Mark Glickman, "Example of the Glicko-2 system", 2012): pure arithmetic, no Django.

A rating is (rating, deviation, volatility) on the Glicko scale (1500, 350, 0.06 to start).
`rate` runs one rating period; Ginmesa makes every rated match its own period, as Lichess does
with each game. The volatility is found by the paper's Illinois iteration (step 5.1–5.4).

The PyPI package ``glicko2`` 2.1.0 reproduces the paper's example too, but it is untyped (mypy
runs strict here), takes parallel lists and has had no release since January 2024: these
sixty lines are checked against the paper's worked example instead (tests/tables/ratings/test_glicko2.py).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

SCALE = 173.7178  # Glicko-2's conversion factor between the two scales
TAU = 0.5  # how much the volatility may change in a period (the paper suggests 0.3 to 1.2)
EPSILON = 0.000001  # the paper's convergence tolerance
INITIAL_RATING = 1500.0
INITIAL_DEVIATION = 350.0
INITIAL_VOLATILITY = 0.06
# A rating period, for the deviation's growth while a player is away: one day, counted in
# fractions as Lichess does (its "rating periods per day"), so the figure moves smoothly.
PERIOD_SECONDS = 86400.0


@dataclass(frozen=True)
class Rating:
    rating: float = INITIAL_RATING
    deviation: float = INITIAL_DEVIATION
    volatility: float = INITIAL_VOLATILITY


def _g(phi: float) -> float:
    return 1 / math.sqrt(1 + 3 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, mu_j: float, phi_j: float) -> float:
    return 1 / (1 + math.exp(-_g(phi_j) * (mu - mu_j)))


def rate(player: Rating, results: Sequence[tuple[Rating, float]], tau: float = TAU) -> Rating:
    """The player's rating after one period: ``results`` pairs each opponent (as rated before
    the period) with the player's score against them (1 win, 0.5 draw, 0 loss)."""
    mu = (player.rating - INITIAL_RATING) / SCALE
    phi = player.deviation / SCALE
    if not results:  # step 6 alone: only the deviation grows
        phi_star = math.sqrt(phi * phi + player.volatility**2)
        return Rating(player.rating, phi_star * SCALE, player.volatility)
    terms = []
    for opponent, score in results:
        mu_j = (opponent.rating - INITIAL_RATING) / SCALE
        g_j = _g(opponent.deviation / SCALE)
        terms.append((g_j, _expected(mu, mu_j, opponent.deviation / SCALE), score))
    v = 1 / sum(g_j * g_j * e_j * (1 - e_j) for g_j, e_j, _ in terms)
    improvement = sum(g_j * (score - e_j) for g_j, e_j, score in terms)
    delta = v * improvement
    sigma = _new_volatility(phi, player.volatility, v, delta, tau)
    phi_star = math.sqrt(phi * phi + sigma * sigma)
    phi_new = 1 / math.sqrt(1 / (phi_star * phi_star) + 1 / v)
    mu_new = mu + phi_new * phi_new * improvement
    return Rating(mu_new * SCALE + INITIAL_RATING, phi_new * SCALE, sigma)


def idle(player: Rating, periods: float) -> Rating:
    """Step 6 for ``periods`` rating periods without games: φ* = √(φ² + n·σ²), never above the
    deviation of a new player (350), which is how uncertain anyone can be."""
    if periods <= 0:
        return player
    phi = player.deviation / SCALE
    phi_star = math.sqrt(phi * phi + periods * player.volatility**2) * SCALE
    return Rating(player.rating, min(phi_star, INITIAL_DEVIATION), player.volatility)


def periods_until(player: Rating, deviation: float) -> float:
    """How many idle periods it takes the deviation to pass ``deviation`` (0 if it already has)."""
    room = max((deviation / SCALE) ** 2 - (player.deviation / SCALE) ** 2, 0.0)
    if room == 0.0:
        return 0.0
    return room / player.volatility**2 if player.volatility > 0 else math.inf


def _new_volatility(phi: float, sigma: float, v: float, delta: float, tau: float) -> float:
    """Step 5: the root of f by the Illinois algorithm (regula falsi with halving)."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta * delta - phi * phi - v - ex) / (2 * (phi * phi + v + ex) ** 2) - (x - a) / (
            tau * tau
        )

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2)
