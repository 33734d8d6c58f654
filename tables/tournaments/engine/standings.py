"""Standings and advancement on plain values.

Match points: a win 1, a loss 0, a dead heat ½ (where the rule set has them), a Swiss bye 1;
kept doubled here (``half_points``) so every figure is a whole number. Ties are broken, in
order, by:

1. points scored minus points conceded in the event's matches (a bye counts nothing);
2. head-to-head: the match points the tied players (equal on the above) took from one another;
3. Swiss: Buchholz, the sum of the opponents' match points; round-robin groups:
   Sonneborn-Berger, each opponent's match points times the result against them;
4. the seed (rating at entry, then the earlier entry), so every place is distinct.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction


@dataclass(frozen=True)
class Result:
    """One finished match: who played, the points each scored, the winner (None: dead heat)."""

    first: int
    second: int
    first_points: int
    second_points: int
    winner: int | None

    def half_points(self, player: int) -> int:
        if self.winner is None:
            return 1
        return 2 if self.winner == player else 0

    def opponent(self, player: int) -> int:
        return self.second if player == self.first else self.first

    def scored(self, player: int) -> int:
        return self.first_points if player == self.first else self.second_points


@dataclass(frozen=True)
class Standing:
    player: int
    played: int
    half_points: int  # match points, doubled
    difference: int  # points scored minus points conceded
    head_to_head: int  # match points (doubled) taken from the players tied with this one
    tiebreak: int  # Buchholz (doubled) in a Swiss, Sonneborn-Berger (times four) in a group
    seed: int

    @property
    def match_points(self) -> Fraction:
        return Fraction(self.half_points, 2)


def standings(
    players: Iterable[int],
    results: Sequence[Result],
    seeds: Mapping[int, int],
    byes: Mapping[int, int] | None = None,
    swiss: bool = False,
) -> list[Standing]:
    """Every player's standing, best first."""
    field = list(players)
    byes = byes or {}
    points = {p: 2 * byes.get(p, 0) + sum(r.half_points(p) for r in _of(results, p)) for p in field}
    difference = {p: sum(r.scored(p) - r.scored(r.opponent(p)) for r in _of(results, p)) for p in field}
    mutual = _head_to_head(field, results, points, difference)
    tiebreak = {p: _tiebreak(p, results, points, swiss) for p in field}
    table = [
        Standing(p, len(_of(results, p)), points[p], difference[p], mutual[p], tiebreak[p], seeds[p])
        for p in field
    ]
    return sorted(table, key=rank_key)


def rank_key(standing: Standing) -> tuple[int, int, int, int, int]:
    return (
        -standing.half_points,
        -standing.difference,
        -standing.head_to_head,
        -standing.tiebreak,
        standing.seed,
    )


def _of(results: Sequence[Result], player: int) -> list[Result]:
    return [result for result in results if player in (result.first, result.second)]


def _head_to_head(
    field: list[int], results: Sequence[Result], points: Mapping[int, int], difference: Mapping[int, int]
) -> dict[int, int]:
    tied: dict[tuple[int, int], set[int]] = defaultdict(set)
    for player in field:
        tied[(points[player], difference[player])].add(player)
    mutual = dict.fromkeys(field, 0)
    for result in results:
        group = tied[(points[result.first], difference[result.first])]
        if result.second in group and result.first in group:
            mutual[result.first] += result.half_points(result.first)
            mutual[result.second] += result.half_points(result.second)
    return mutual


def _tiebreak(player: int, results: Sequence[Result], points: Mapping[int, int], swiss: bool) -> int:
    played = _of(results, player)
    if swiss:
        return sum(points[result.opponent(player)] for result in played)
    return sum(result.half_points(player) * points[result.opponent(player)] for result in played)


def advancing(groups: Sequence[Sequence[Standing]], per_group: int, runners_up: int) -> list[int]:
    """Who goes on to the next round: the best ``per_group`` of each group (never a whole group,
    so the field always shrinks), then the best ``runners_up`` of the players placed just below
    them, compared across groups by match points per match played, then difference per match,
    then seed. Returned best seed first."""
    chosen: list[Standing] = []
    next_in_line: list[Standing] = []
    for group in groups:
        take = min(per_group, len(group) - 1)
        chosen += group[:take]
        next_in_line += group[take : take + 1]
    room = sum(len(group) for group in groups) - 1 - len(chosen)
    next_in_line.sort(key=_across_groups)
    chosen += next_in_line[: max(0, min(runners_up, room))]
    return [standing.player for standing in sorted(chosen, key=lambda s: s.seed)]


def _across_groups(standing: Standing) -> tuple[Fraction, Fraction, int]:
    played = max(1, standing.played)
    return (-Fraction(standing.half_points, played), -Fraction(standing.difference, played), standing.seed)
