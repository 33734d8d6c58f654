"""Swiss pairing on plain values.

Players are taken in standings order (score, then seed). The highest unpaired player meets the
nearest-scored opponent below who keeps the rest of the round pairable; on ties of score the
next one in standings order. That is the lexicographically first pairing in that order, found
by depth-first search with backtracking and a memo of sub-fields that cannot be paired.

What is avoided, most important first:
1. a repeated pair (only allowed when no pairing of the round avoids it);
2. a second bye (the bye goes to the lowest-standing player among those with the fewest byes,
   unless that leaves the round without a pairing free of repeats).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

Pair = tuple[int, int]


@dataclass(frozen=True)
class SwissField:
    """One round's input. ``order`` is the players in standings order (best first); ``scores``
    are match points doubled (so a dead heat is a whole number); ``met`` holds each pair already
    played, as a frozenset; ``byes`` counts each player's byes so far."""

    order: Sequence[int]
    scores: Mapping[int, int]
    met: frozenset[frozenset[int]]
    byes: Mapping[int, int]


@dataclass(frozen=True)
class SwissRound:
    pairs: tuple[Pair, ...]  # (higher placed, lower placed)
    bye: int | None
    repeats: int  # pairs that had met before: zero unless unavoidable


def pair_round(field: SwissField) -> SwissRound:
    order = list(field.order)
    for bye_choices, allow_repeats in _relaxations(field, order):
        for bye in bye_choices:
            rest = [player for player in order if player != bye]
            pairs = _first_pairing(rest, field, allow_repeats)
            if pairs is not None:
                repeats = sum(1 for pair in pairs if frozenset(pair) in field.met)
                return SwissRound(tuple(pairs), bye, repeats)
    raise AssertionError("a field with repeats allowed always pairs")  # pragma: no cover


def _relaxations(field: SwissField, order: list[int]) -> list[tuple[list[int | None], bool]]:
    """The bye candidates (lowest standing first) and whether repeats are allowed, in the order
    tried: fewest byes and no repeats, then any bye and no repeats, then repeats."""
    if len(order) % 2 == 0:
        return [([None], False), ([None], True)]
    fewest = min(field.byes.get(player, 0) for player in order)
    rotating: list[int | None] = [p for p in reversed(order) if field.byes.get(p, 0) == fewest]
    anyone: list[int | None] = [p for p in reversed(order) if field.byes.get(p, 0) != fewest]
    return [(rotating, False), (anyone, False), (rotating, True)]


def _first_pairing(players: list[int], field: SwissField, allow_repeats: bool) -> list[Pair] | None:
    rank = {player: index for index, player in enumerate(players)}
    failed: set[int] = set()  # bitmasks (over ``rank``) of sub-fields known to be unpairable

    def candidates(first: int, remaining: list[int]) -> list[int]:
        score = field.scores.get(first, 0)
        allowed = [p for p in remaining if allow_repeats or frozenset((first, p)) not in field.met]
        # nearest score first; with repeats allowed, a new opponent before an old one
        return sorted(
            allowed,
            key=lambda p: (frozenset((first, p)) in field.met, abs(score - field.scores.get(p, 0)), rank[p]),
        )

    def search(remaining: list[int], mask: int) -> list[Pair] | None:
        if not remaining:
            return []
        if mask in failed:
            return None
        first, others = remaining[0], remaining[1:]
        for opponent in candidates(first, others):
            rest = [p for p in others if p != opponent]
            found = search(rest, mask & ~(1 << rank[first]) & ~(1 << rank[opponent]))
            if found is not None:
                return [(first, opponent), *found]
        failed.add(mask)
        return None

    return search(players, (1 << len(players)) - 1)


def standings_order(players: Sequence[int], scores: Mapping[int, int], seeds: Mapping[int, int]) -> list[int]:
    """Players by score (highest first), then by seed (1 is the best), as pairing takes them."""
    return sorted(players, key=lambda player: (-scores.get(player, 0), seeds[player]))
