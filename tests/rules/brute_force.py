"""Deliberately simple reference answers for the engine's tests: slow and obviously right.

Nothing here is shared with rules/melding.py or rules/showdown.py: melds are
found by checking subsets against the definition, arrangements by trying every
collection of disjoint melds, layoffs by trying every order.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from functools import cache
from itertools import combinations

from rules.cards import SUITS, Card

Meld = frozenset[Card]
Arrangement = frozenset[Meld]


def points(cards: Iterable[Card]) -> int:
    return sum(card.points for card in cards)


def is_meld(cards: Iterable[Card]) -> bool:
    """3-4 cards of one rank in distinct suits, or 3+ consecutive cards of one suit (ace low)."""
    cards = list(cards)
    if len(cards) < 3:
        return False
    if len({card.rank for card in cards}) == 1:
        return len({card.suit for card in cards}) == len(cards)
    if len({card.suit for card in cards}) != 1:
        return False
    ranks = sorted(card.rank for card in cards)
    return ranks == list(range(ranks[0], ranks[0] + len(ranks)))


def all_melds(cards: Sequence[Card]) -> list[Meld]:
    """Every meld inside ``cards``; a meld of 5 or more cards can only be a run of one suit."""
    found = [frozenset(combo) for size in (3, 4) for combo in combinations(cards, size) if is_meld(combo)]
    for suit in SUITS:
        same_suit = [card for card in cards if card.suit == suit]
        for size in range(5, len(same_suit) + 1):
            found += [frozenset(combo) for combo in combinations(same_suit, size) if is_meld(combo)]
    return found


def collections(
    melds: Sequence[Meld], start: int = 0, used: frozenset[Card] = frozenset()
) -> Iterator[list[Meld]]:
    """Every collection of pairwise disjoint melds, the empty one included."""
    yield []
    for position in range(start, len(melds)):
        if not melds[position] & used:
            for rest in collections(melds, position + 1, used | melds[position]):
                yield [melds[position], *rest]


def min_deadwood(cards: Sequence[Card], melds: Sequence[Meld] | None = None) -> int:
    """Least deadwood; ``melds``, when given, are the melds inside ``cards``."""
    melds = all_melds(cards) if melds is None else melds
    best_melded = max(sum(points(meld) for meld in chosen) for chosen in collections(melds))
    return points(cards) - best_melded


def best_arrangements(cards: Sequence[Card]) -> set[Arrangement]:
    """Every collection of disjoint melds leaving the least deadwood."""
    scored = [
        (points(cards) - sum(points(m) for m in chosen), frozenset(chosen))
        for chosen in collections(all_melds(cards))
    ]
    least = min(deadwood for deadwood, _ in scored)
    return {chosen for deadwood, chosen in scored if deadwood == least}


def discard_results(cards: Sequence[Card], exclude: Card | None = None) -> dict[Card, int]:
    """Deadwood left by each allowed discard (the melds of the rest: those without the discard)."""
    melds = all_melds(cards)
    return {
        card: min_deadwood([c for c in cards if c != card], [meld for meld in melds if card not in meld])
        for card in cards
        if card != exclude
    }


def best_discard(cards: Sequence[Card], exclude: Card | None = None) -> tuple[Card, int]:
    """Least deadwood; among equals the highest card (rank, then suit order)."""
    results = discard_results(cards, exclude)
    least = min(results.values())
    card = max((c for c, left in results.items() if left == least), key=lambda c: (c.rank, c.suit_order))
    return card, least


def _least_after_layoffs(spare: frozenset[Card], targets: tuple[Meld, ...]) -> int:
    @cache  # per call: the states of one defender hand
    def search(spare: frozenset[Card], targets: tuple[Meld, ...]) -> int:
        best = points(spare)
        for card in spare:
            for position, meld in enumerate(targets):
                if is_meld(meld | {card}):
                    grown = (*targets[:position], meld | {card}, *targets[position + 1 :])
                    best = min(best, search(spare - {card}, grown))
        return best

    return search(spare, targets)


def defender_deadwood(knocker_melds: Iterable[Iterable[Card]], defender: Sequence[Card]) -> int:
    """The defender's least deadwood: every collection of own melds, then every order of layoffs."""
    targets = tuple(frozenset(meld) for meld in knocker_melds)
    best = points(defender)
    for own in collections(all_melds(defender)):
        spare = frozenset(defender).difference(*own)
        best = min(best, _least_after_layoffs(spare, targets))
    return best
