"""Round-robin groups on plain values: the split by rating and each group's matches.

Players are split into ``ceil(n / size)`` groups by snake seeding: in rating order the first
pass deals one player to each group left to right, the next pass right to left, and so on. Each
pass gives every group one player (the last pass some), so sizes differ by at most one and every
group holds one player from each band of ratings.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

Pair = tuple[int, int]


def group_count(players: int, size: int) -> int:
    return max(1, math.ceil(players / size))


def snake_groups(seeded: Sequence[int], size: int) -> list[list[int]]:
    """``seeded`` is the players best first; each group lists its members best first."""
    count = group_count(len(seeded), size)
    groups: list[list[int]] = [[] for _ in range(count)]
    for index, player in enumerate(seeded):
        band, place = divmod(index, count)
        groups[place if band % 2 == 0 else count - 1 - place].append(player)
    return groups


def round_robin(members: Sequence[int], home_and_away: bool) -> list[Pair]:
    """Every pair of the group once, as (deals first, deals second), first deals shared out as
    evenly as they can be: with an odd count ``a`` deals first against ``b`` when ``b`` is 1 to
    (m-1)/2 places after ``a`` around the circle, so each deals first (m-1)/2 times; with an
    even count the last member joins that odd circle, dealing first against its first half.
    With home and away, each pair twice, each player dealing first once."""
    odd = list(members) if len(members) % 2 else list(members[:-1])
    count = len(odd)
    matches: list[Pair] = [
        (odd[a], odd[(a + step) % count]) for a in range(count) for step in range(1, count // 2 + 1)
    ]
    if len(members) % 2 == 0:
        last = members[-1]
        matches += [(last, p) if index < count // 2 + 1 else (p, last) for index, p in enumerate(odd)]
    if home_and_away:
        matches += [(second, first) for first, second in matches]
    return matches
