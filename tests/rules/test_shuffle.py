"""The shuffle: every deck comes from the operating system's CSPRNG (through `secrets`), and
card positions are uniform: a chi-square test over 100,000 shuffles of `rules.new_deck`."""

from __future__ import annotations

import math
import operator
import random
import secrets
from collections import Counter
from collections.abc import Callable, Iterable

import pytest

import rules.cards
from rules import CARDS, new_deck

SHUFFLES = 100_000
CELLS = 52 * 52  # (position, card)
# The chance that a fair shuffle fails is ALPHA: small enough never to flake, while a biased
# shuffle (see the control below) lands hundreds of standard deviations away.
ALPHA = 1e-6

_INDEX = {card: card.index for card in CARDS}
_OFFSETS = tuple(position * 52 for position in range(52))


def position_counts(decks: Iterable[list]) -> Counter[int]:
    """How often each card lands at each position, keyed ``position * 52 + card index``.
    Counting runs in C (map, Counter.update), so 100,000 decks take a fraction of a second."""
    counts: Counter[int] = Counter()
    for deck in decks:
        counts.update(map(operator.add, _OFFSETS, map(_INDEX.__getitem__, deck)))
    return counts


def chi_square(counts: Counter[int], total: int) -> float:
    expected = total / 52
    return sum((counts.get(cell, 0) - expected) ** 2 / expected for cell in range(CELLS))


def upper_tail(statistic: float, freedom: int) -> float:
    """P(X >= statistic) for X chi-square with an odd number of degrees, exactly:
    2 * Q(sqrt(x)) + sqrt(2 / pi) * exp(-x / 2) * sum over i = 1 .. (k - 1) / 2 of
    x ** (i - 1/2) / (1 * 3 * ... * (2i - 1)); the terms are summed in logarithms because
    exp(-x / 2) alone underflows at x in the thousands."""
    assert freedom % 2 == 1
    log_term = 0.5 * math.log(statistic) - statistic / 2 + 0.5 * math.log(2 / math.pi)
    logs = []
    for i in range(1, (freedom - 1) // 2 + 1):
        logs.append(log_term)
        log_term += math.log(statistic) - math.log(2 * i + 1)
    top = max(logs, default=0.0)
    series = math.exp(top) * sum(math.exp(value - top) for value in logs) if logs else 0.0
    return math.erfc(math.sqrt(statistic / 2)) + series


FREEDOM = 51 * 51  # a contingency table of 52 positions by 52 cards


def shuffled(shuffle: Callable[[], list], count: int) -> Iterable[list]:
    return (shuffle() for _ in range(count))


@pytest.mark.slow  # about 8 s of CPU: new_deck makes 51 os.urandom calls per deck
def test_card_positions_are_uniform_over_100000_shuffles() -> None:
    counts = position_counts(shuffled(new_deck, SHUFFLES))
    assert sum(counts.values()) == SHUFFLES * 52
    for position in range(52):  # every deck is a permutation: each row and column sums right
        assert sum(counts[position * 52 + card] for card in range(52)) == SHUFFLES
    statistic = chi_square(counts, SHUFFLES)
    p_value = upper_tail(statistic, FREEDOM)
    assert ALPHA < p_value < 1 - ALPHA, f"chi-square {statistic:.0f} on {FREEDOM} degrees, p = {p_value:.2g}"


def _sattolo(rng: random.Random) -> list:
    """A classic off-by-one shuffle: a random cycle, so no card ever stays where it was."""
    deck = list(CARDS)
    for high in range(51, 0, -1):
        low = rng.randrange(high)  # a fair Fisher-Yates draws from range(high + 1)
        deck[high], deck[low] = deck[low], deck[high]
    return deck


@pytest.mark.slow  # some 4 s of shuffles
def test_the_chi_square_check_rejects_a_biased_shuffle() -> None:
    """The control: the same check on 20,000 decks of a subtly wrong shuffle fails by far."""
    rng = random.Random(52)
    counts = position_counts(shuffled(lambda: _sattolo(rng), 20_000))
    assert upper_tail(chi_square(counts, 20_000), FREEDOM) < ALPHA


def test_the_tail_probability_matches_tabled_critical_values() -> None:
    for statistic, freedom, tail in [
        (3.841, 1, 0.05),
        (6.635, 1, 0.01),
        (7.815, 3, 0.05),
        (20.515, 5, 0.001),
    ]:
        assert math.isclose(upper_tail(statistic, freedom), tail, rel_tol=1e-3)
    assert 0.49 < upper_tail(FREEDOM - 2 / 3, FREEDOM) < 0.51  # the median is close to k - 2/3


class _SpyRandom(secrets.SystemRandom):
    made = 0

    def __init__(self) -> None:
        type(self).made += 1
        super().__init__()


def test_new_deck_draws_from_the_system_csprng(monkeypatch) -> None:
    monkeypatch.setattr(rules.cards.secrets, "SystemRandom", _SpyRandom)
    new_deck()
    assert _SpyRandom.made == 1


def test_seeding_pythons_random_module_does_not_repeat_a_deck() -> None:
    """A Mersenne Twister shuffle would repeat under the same seed; the CSPRNG ignores it."""
    decks = []
    for _ in range(3):
        random.seed(2026)
        decks.append(new_deck())
    random.seed()
    assert decks[0] != decks[1] != decks[2]
