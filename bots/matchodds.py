"""The chance of winning a match from a score, for score-aware decisions.

A deliberately plain model of one deal: each seat wins it half the time, with
the points of a knock, a gin or an undercut drawn from typical ranges. The
table it yields ranks end-of-deal outcomes by what they do to the match: 12
points are worth far more at 90-80 than at 0-0.
"""

from __future__ import annotations

from functools import lru_cache

KNOCK_SHARE, GIN_SHARE, UNDERCUT_SHARE = 0.65, 0.2, 0.15
KNOCK_POINTS = range(2, 30, 3)  # deadwood differences of a won knock
GIN_DEADWOOD = range(10, 60, 8)  # the loser's deadwood after a gin
UNDERCUT_MARGIN = range(0, 10, 2)  # knocker's minus defender's deadwood in an undercut


@lru_cache(maxsize=32)
def deal_points(gin_bonus: int, undercut_bonus: int) -> tuple[tuple[float, int], ...]:
    """(probability, points) of what the winner of a deal scores."""
    spread = [
        (KNOCK_SHARE, list(KNOCK_POINTS)),
        (GIN_SHARE, [gin_bonus + points for points in GIN_DEADWOOD]),
        (UNDERCUT_SHARE, [undercut_bonus + points for points in UNDERCUT_MARGIN]),
    ]
    return tuple((share / len(points), value) for share, points in spread for value in points)


@lru_cache(maxsize=32)
def win_table(target: int, gin_bonus: int, undercut_bonus: int) -> tuple[tuple[float, ...], ...]:
    """table[a][b]: chance of winning from a points against b (both below target)."""
    outcomes = deal_points(gin_bonus, undercut_bonus)
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


def match_chance(mine: int, theirs: int, target: int | None, gin_bonus: int, undercut_bonus: int) -> float:
    """Chance of winning the match at these totals (1 or 0 once someone reached the target)."""
    if target is None:
        return 0.5
    if mine >= target:
        return 1.0
    if theirs >= target:
        return 0.0
    return win_table(target, gin_bonus, undercut_bonus)[mine][theirs]
