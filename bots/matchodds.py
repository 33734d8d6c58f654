"""The chance of winning a match from a score, for score-aware decisions.

A deliberately plain model of one deal: each seat wins it half the time, with
the points of a knock, a gin or an undercut drawn from typical ranges of deadwood and
scored by the engine's points function (rules.scoring.deal_points), the Oklahoma
multiplier included: a spade upcard doubles the deal. The table it yields ranks
end-of-deal outcomes by what they do to the match: 12 points are worth far more at
90-80 than at 0-0.

The ranges and shares are the approximation, kept on purpose: the table is computed once
per rule set and target, for every decision, so it cannot play deals out. Big gin (rare)
is left out of it.
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache

from rules.cards import CARDS
from rules.ruleset import Ruleset
from rules.scoring import GIN, KNOCK, UNDERCUT, deal_points, deal_terms

KNOCK_SHARE, GIN_SHARE, UNDERCUT_SHARE = 0.65, 0.2, 0.15
KNOCK_POINTS = range(2, 30, 3)  # deadwood differences of a won knock
GIN_DEADWOOD = range(10, 60, 8)  # the loser's deadwood after a gin
UNDERCUT_MARGIN = range(0, 10, 2)  # knocker's minus defender's deadwood in an undercut


def _odds_ruleset(gin_bonus: int, undercut_bonus: int, oklahoma: bool) -> Ruleset:
    """The scoring the model needs of a rule set (its bonuses and whether Oklahoma doubles)."""
    return Ruleset(name="match odds", gin_bonus=gin_bonus, undercut_bonus=undercut_bonus, oklahoma=oklahoma)


@lru_cache(maxsize=32)
def deal_spread(gin_bonus: int, undercut_bonus: int, oklahoma: bool = False) -> tuple[tuple[float, int], ...]:
    """(probability, points) of what the winner of a deal scores."""
    ruleset = _odds_ruleset(gin_bonus, undercut_bonus, oklahoma)
    multipliers = Counter(deal_terms(ruleset, upcard)[1] for upcard in CARDS)
    endings = [
        (KNOCK_SHARE, [(KNOCK, 0, difference) for difference in KNOCK_POINTS]),
        (GIN_SHARE, [(GIN, 0, deadwood) for deadwood in GIN_DEADWOOD]),
        (UNDERCUT_SHARE, [(UNDERCUT, margin, 0) for margin in UNDERCUT_MARGIN]),
    ]
    spread = []
    for multiplier, count in sorted(multipliers.items()):
        weight = count / len(CARDS)
        for share, ends in endings:
            for outcome, knocker, defender in ends:
                points = deal_points(ruleset, outcome, knocker, defender, multiplier)
                spread.append((share / len(ends) * weight, points))
    return tuple(spread)


@lru_cache(maxsize=32)
def win_table(
    target: int, gin_bonus: int, undercut_bonus: int, oklahoma: bool = False
) -> tuple[tuple[float, ...], ...]:
    """table[a][b]: chance of winning from a points against b (both below target)."""
    outcomes = deal_spread(gin_bonus, undercut_bonus, oklahoma)
    table = [[0.0] * target for _ in range(target)]
    for total in range(2 * target - 2, -1, -1):
        for mine in range(max(0, total - target + 1), min(total, target - 1) + 1):
            theirs = total - mine
            value = 0.0
            for chance, points in outcomes:
                if mine + points >= target:
                    value += chance * 0.5
                else:
                    value += chance * 0.5 * table[mine + points][theirs]
                if theirs + points < target:
                    value += chance * 0.5 * table[mine][theirs + points]
            table[mine][theirs] = value
    return tuple(tuple(row) for row in table)


def match_chance(
    mine: int, theirs: int, target: int | None, gin_bonus: int, undercut_bonus: int, oklahoma: bool = False
) -> float:
    """Chance of winning the match at these totals (1 or 0 once someone reached the target)."""
    if target is None:
        return 0.5
    if mine >= target:
        return 1.0
    if theirs >= target:
        return 0.0
    return win_table(target, gin_bonus, undercut_bonus, oklahoma)[mine][theirs]
