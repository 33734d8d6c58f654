"""Groups, schedules, standings and advancement (tables/tournaments/engine/) against brute-force
recomputations written another way."""

from __future__ import annotations

import functools
import itertools
import math
from collections import Counter
from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from tables.tournaments.engine.groups import round_robin, snake_groups
from tables.tournaments.engine.standings import Result, Standing, advancing, standings


@given(st.integers(min_value=2, max_value=80), st.integers(min_value=3, max_value=10))
def test_groups_are_balanced_by_rating_and_differ_by_at_most_one(count, size):
    seeded = list(range(1, count + 1))  # best first
    groups = snake_groups(seeded, size)
    assert len(groups) == math.ceil(count / size)
    assert sorted(p for group in groups for p in group) == seeded
    sizes = [len(group) for group in groups]
    assert max(sizes) - min(sizes) <= 1 and max(sizes) <= size and min(sizes) >= 2
    for band in range(count // len(groups)):  # every full band of ratings: one player per group
        members = set(seeded[band * len(groups) : (band + 1) * len(groups)])
        assert all(len(members & set(group)) == 1 for group in groups)
    for group in groups:
        assert group == sorted(group)


@given(st.integers(min_value=2, max_value=10), st.booleans())
def test_a_group_plays_every_pair_with_first_deals_shared(count, home_and_away):
    members = list(range(10, 10 + count))
    matches = round_robin(members, home_and_away)
    pairs = Counter(frozenset(match) for match in matches)
    assert set(pairs) == {frozenset(pair) for pair in itertools.combinations(members, 2)}
    assert set(pairs.values()) == {2 if home_and_away else 1}
    firsts = Counter(first for first, _ in matches)
    spread = [firsts.get(p, 0) for p in members]
    assert max(spread) - min(spread) <= (0 if home_and_away else 1)
    if home_and_away:
        assert set(Counter(matches).values()) == {1}  # each deals first once against each


@st.composite
def events(draw: st.DrawFn) -> tuple[list[int], list[Result], dict[int, int]]:
    count = draw(st.integers(min_value=2, max_value=8))
    players = list(range(1, count + 1))
    pairs = list(itertools.combinations(players, 2))
    played = draw(st.lists(st.sampled_from(pairs), max_size=12))
    results = []
    for a, b in played:
        a_points, b_points = draw(st.integers(0, 3)), draw(st.integers(0, 3))  # small: many ties
        winner = draw(st.sampled_from([a, b, None]))
        results.append(Result(a, b, a_points, b_points, winner))
    byes = {p: draw(st.integers(0, 1)) for p in players}
    return players, results, byes


def brute_force(players, results, byes, swiss):
    """Each player's figures from scratch, then a pairwise comparison in the documented order."""

    def score(p):
        total = Fraction(byes[p])
        for r in results:
            if p in (r.first, r.second):
                total += Fraction(1, 2) if r.winner is None else (1 if r.winner == p else 0)
        return total

    def against(p, q):  # what p took from q, in match points
        total = Fraction(0)
        for r in results:
            if {r.first, r.second} == {p, q}:
                total += Fraction(1, 2) if r.winner is None else (1 if r.winner == p else 0)
        return total

    def difference(p):
        return sum(
            (r.first_points - r.second_points) * (1 if r.first == p else -1)
            for r in results
            if p in (r.first, r.second)
        )

    def opponents(p):
        return [r.second if r.first == p else r.first for r in results if p in (r.first, r.second)]

    def tiebreak(p):
        if swiss:
            return sum(score(q) for q in opponents(p))
        total = Fraction(0)
        for r in results:
            if p in (r.first, r.second):
                q = r.second if r.first == p else r.first
                won = Fraction(1, 2) if r.winner is None else (1 if r.winner == p else 0)
                total += won * score(q)
        return total

    def mutual(p):
        tied = [q for q in players if score(q) == score(p) and difference(q) == difference(p) and q != p]
        return sum(against(p, q) for q in tied)

    def compare(p, q):
        for left, right in [
            (score(q), score(p)),
            (difference(q), difference(p)),
            (mutual(q), mutual(p)),
            (tiebreak(q), tiebreak(p)),
            (p, q),  # the seed: player n is seed n
        ]:
            if left != right:
                return -1 if left < right else 1
        return 0

    ordered = sorted(players, key=functools.cmp_to_key(compare))
    return [(p, score(p), difference(p), mutual(p), tiebreak(p)) for p in ordered]


def figures(table: list[Standing], swiss: bool):
    scale = 2 if swiss else 4
    return [
        (s.player, s.match_points, s.difference, Fraction(s.head_to_head, 2), Fraction(s.tiebreak, scale))
        for s in table
    ]


@given(events(), st.booleans(), st.randoms())
def test_standings_and_every_tiebreak_match_a_recomputation(event, swiss, shuffler):
    players, results, byes = event
    seeds = {p: p for p in players}
    table = standings(players, results, seeds, byes, swiss=swiss)
    assert figures(table, swiss) == brute_force(players, results, byes, swiss)
    shuffled = list(results)
    shuffler.shuffle(shuffled)
    assert standings(list(reversed(players)), shuffled, seeds, byes, swiss=swiss) == table


@st.composite
def stages(draw: st.DrawFn) -> list[list[Standing]]:
    sizes = draw(st.lists(st.integers(min_value=2, max_value=6), min_size=1, max_size=5))
    seed = itertools.count(1)
    groups = []
    for size in sizes:
        group = []
        for _ in range(size):
            played = draw(st.integers(1, 5))
            group.append(
                Standing(
                    next(seed), played, draw(st.integers(0, 2 * played)), draw(st.integers(-9, 9)), 0, 0, 0
                )
            )
        group = [Standing(s.player, s.played, s.half_points, s.difference, 0, 0, s.player) for s in group]
        groups.append(group)  # the order given is the group's standings
    return groups


@given(stages(), st.integers(min_value=1, max_value=5), st.integers(min_value=0, max_value=4))
def test_advancement_is_exactly_as_configured(groups, per_group, runners_up):
    chosen = advancing(groups, per_group, runners_up)
    field = sum(len(group) for group in groups)
    straight = {s.player for group in groups for s in group[: min(per_group, len(group) - 1)]}
    assert straight <= set(chosen)
    below = [group[min(per_group, len(group) - 1)] for group in groups]
    extra = set(chosen) - straight
    wanted = min(runners_up, len(below), field - 1 - len(straight))  # one runner-up a group at most
    assert len(extra) == max(0, wanted) and len(chosen) < field
    best = sorted(
        below, key=lambda s: (-Fraction(s.half_points, s.played), -Fraction(s.difference, s.played), s.seed)
    )
    assert extra == {s.player for s in best[: len(extra)]}
    assert chosen == sorted(chosen)
