"""Swiss pairing (tables/tournaments/engine/pairing.py) against a brute-force search of every
pairing of small fields."""

from __future__ import annotations

from collections.abc import Iterator

from hypothesis import given
from hypothesis import strategies as st

from tables.tournaments.engine.pairing import SwissField, SwissRound, pair_round, standings_order

Pairing = list[tuple[int, int]]


def every_pairing(players: list[int]) -> Iterator[Pairing]:
    if not players:
        yield []
        return
    first, rest = players[0], players[1:]
    for index, opponent in enumerate(rest):
        for tail in every_pairing(rest[:index] + rest[index + 1 :]):
            yield [(first, opponent), *tail]


def every_round(order: list[int]) -> Iterator[tuple[int | None, Pairing]]:
    """Every bye (None for an even field) with every pairing of the others, pairs written
    (higher placed, lower placed) and listed in standings order of their higher player."""
    byes: list[int | None] = list(order) if len(order) % 2 else [None]
    for bye in byes:
        for pairing in every_pairing([p for p in order if p != bye]):
            yield bye, pairing


def repeats(field: SwissField, pairing: Pairing) -> int:
    return sum(1 for pair in pairing if frozenset(pair) in field.met)


def choice_key(field: SwissField, order: list[int], pairing: Pairing) -> list[tuple[bool, int, int]]:
    """What the documented rule minimises, choice by choice in standings order: an old
    opponent last, then the score gap, then the opponent's place."""
    rest = [p for p in order if any(p in pair for pair in pairing)]
    place = {p: i for i, p in enumerate(rest)}
    return [
        (frozenset((a, b)) in field.met, abs(field.scores[a] - field.scores[b]), place[b])
        for a, b in sorted(pairing, key=lambda pair: place[pair[0]])
    ]


@st.composite
def fields(draw: st.DrawFn) -> SwissField:
    count = draw(st.integers(min_value=2, max_value=9))
    players = list(range(1, count + 1))
    scores = {p: draw(st.integers(min_value=0, max_value=4)) for p in players}
    all_pairs = [frozenset((a, b)) for a in players for b in players if a < b]
    met = frozenset(draw(st.lists(st.sampled_from(all_pairs), max_size=len(all_pairs))))
    byes = {p: draw(st.integers(min_value=0, max_value=2)) for p in players}
    seeds = {p: p for p in players}
    return SwissField(standings_order(players, scores, seeds), scores, met, byes)


def check_shape(field: SwissField, found: SwissRound) -> None:
    seated = [p for pair in found.pairs for p in pair]
    everyone = seated + ([found.bye] if found.bye is not None else [])
    assert sorted(everyone) == sorted(field.order)
    assert (found.bye is None) == (len(field.order) % 2 == 0)
    place = {p: i for i, p in enumerate(field.order)}
    assert all(place[a] < place[b] for a, b in found.pairs)


@given(fields())
def test_no_repeat_and_no_second_bye_while_a_pairing_avoids_them(field):
    found = pair_round(field)
    check_shape(field, found)
    fewest = min(field.byes[p] for p in field.order)
    rounds = list(every_round(list(field.order)))
    clean = [(bye, pairing) for bye, pairing in rounds if repeats(field, pairing) == 0]
    rotating = [(bye, pairing) for bye, pairing in clean if bye is None or field.byes[bye] == fewest]
    if rotating:
        assert found.repeats == 0 and (found.bye is None or field.byes[found.bye] == fewest)
    elif clean:
        assert found.repeats == 0
    else:
        assert found.repeats > 0 and (found.bye is None or field.byes[found.bye] == fewest)
    assert found.repeats == repeats(field, list(found.pairs))


@given(fields())
def test_each_player_takes_the_nearest_score_that_leaves_the_round_pairable(field):
    """With the bye it chose, the pairing is the lexicographically first of the brute force's,
    choice by choice in standings order: score groups are paired inside first."""
    found = pair_round(field)
    order = list(field.order)
    allowed = [
        pairing
        for bye, pairing in every_round(order)
        if bye == found.bye and (found.repeats > 0 or repeats(field, pairing) == 0)
    ]
    best = min(choice_key(field, order, pairing) for pairing in allowed)
    assert choice_key(field, order, list(found.pairs)) == best


@given(fields())
def test_the_bye_goes_to_the_lowest_placed_who_can_take_it(field):
    found = pair_round(field)
    fewest = min(field.byes[p] for p in field.order)
    if found.bye is None or found.repeats or field.byes[found.bye] != fewest:
        return
    fits = [
        bye
        for bye, pairing in every_round(list(field.order))
        if bye is not None and field.byes[bye] == fewest and repeats(field, pairing) == 0
    ]
    assert found.bye == max(fits, key=list(field.order).index)


def test_a_nine_player_swiss_of_four_rounds_never_repeats_and_rotates_the_bye():
    players = list(range(1, 10))
    seeds = {p: p for p in players}
    scores = dict.fromkeys(players, 0)
    met: set[frozenset[int]] = set()
    byes = dict.fromkeys(players, 0)
    for _ in range(4):
        order = standings_order(players, scores, seeds)
        found = pair_round(SwissField(order, scores, frozenset(met), byes))
        assert found.repeats == 0
        assert found.bye is not None and byes[found.bye] == 0
        byes[found.bye] += 1
        scores[found.bye] += 2
        for a, b in found.pairs:
            met.add(frozenset((a, b)))
            scores[min(a, b)] += 2  # the better seed wins
    assert max(byes.values()) == 1


def test_a_256_player_round_pairs_inside_score_groups():
    players = list(range(1, 257))
    scores = {p: (p % 5) * 2 for p in players}
    seeds = {p: p for p in players}
    order = standings_order(players, scores, seeds)
    found = pair_round(SwissField(order, scores, frozenset(), {}))
    assert len(found.pairs) == 128 and found.repeats == 0
    assert sum(1 for a, b in found.pairs if scores[a] != scores[b]) <= 4
