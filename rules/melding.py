"""Melds and deadwood: the least-deadwood arrangement of a hand, and the best discard.

Card level (validate input, answer with frozen values of Cards):
    best_melding(cards) -> Melding            0-11 cards
    all_best_meldings(cards) -> (Melding, ...) every least-deadwood arrangement
    best_discard(cards, exclude=None) -> DiscardChoice   exactly 11 cards
Mask level (no validation, no Card objects; for bots and the deal engine):
    min_deadwood_mask, best_arrangement_mask, all_best_arrangements_mask,
    best_discard_mask, meld_candidates_mask, points_mask, hand_mask

Hands are 52-bit masks of ``Card.index`` bits (suit-major, S H D C, ace lowest).
Answers depend only on which cards are held, never on their order. Ties between
equally good arrangements follow a fixed search order: the lowest card is left
unmelded if that costs nothing, else it goes in the first of its melds (runs
before sets, longer before shorter). The best discard among equals is the
highest card (rank, then suit S<H<D<C).

How it is fast: the candidate melds of a hand come from tables built at import
(every run inside each 13-bit suit pattern; every set for each rank's suit
pattern), then a memoised search over the cards still free picks the disjoint
melds worth the most points. The search branches on the lowest free card (left
unmelded, or in one of the melds whose lowest card it is), so each arrangement
is reached once and the memo is keyed by the free cards alone.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .cards import CARDS, Card, mask_to_cards, parse_cards
from .errors import InvalidHand

CardsLike = str | Iterable[Card | str]
Meld = tuple[int, int]  # (mask of the meld's cards, their points)

MAX_HAND = 11
_SUIT = 0x1FFF  # the 13 bits of one suit
_RANK_SPREAD = 1 | 1 << 13 | 1 << 26 | 1 << 39  # times a rank's bit: that rank in all four suits
_SUIT_OFFSET = {"S": -1, "H": 12, "D": 25, "C": 38}  # + rank = card index
_NO_MELDS: tuple[Meld, ...] = ()

_VALUE = tuple(min(index % 13 + 1, 10) for index in range(52))
_ORDER = tuple((index % 13) * 4 + index // 13 for index in range(52))  # Card order: rank, then suit


def _build_suit_points() -> tuple[int, ...]:
    points = [0] * 8192
    for pattern in range(1, 8192):
        low = pattern & -pattern
        points[pattern] = points[pattern ^ low] + min(low.bit_length(), 10)
    return tuple(points)


_SUIT_POINTS = _build_suit_points()


def _build_run_table(suit: int) -> tuple[tuple[Meld, ...], ...]:
    """For every 13-bit pattern of one suit, all the runs it contains.

    Built by adding the top card: the runs of a pattern are the runs ending on
    its top card plus those without it. Equal runs share one tuple object.
    """
    shift = 13 * suit
    melds: dict[int, Meld] = {}
    table: list[tuple[Meld, ...]] = [_NO_MELDS] * 8192
    for pattern in range(1, 8192):
        top = pattern.bit_length() - 1
        ending_here = []
        segment = 1 << top
        for rank in range(top - 1, -1, -1):
            if not pattern >> rank & 1:
                break
            segment |= 1 << rank
            if top - rank >= 2:
                meld = melds.setdefault(segment, (segment << shift, _SUIT_POINTS[segment]))
                ending_here.append(meld)
        # Longer runs first, so that ties prefer one long run to several short ones.
        table[pattern] = tuple(ending_here) + table[pattern ^ 1 << top]
    return tuple(table)


_RUNS = tuple(_build_run_table(suit) for suit in range(4))
_RUNS_S, _RUNS_H, _RUNS_D, _RUNS_C = _RUNS


def _build_set_table() -> dict[int, tuple[Meld, ...]]:
    """Key: a hand masked to one rank (3 or 4 suits present); value: its sets."""
    table: dict[int, tuple[Meld, ...]] = {}
    for rank in range(13):
        points = min(rank + 1, 10)
        for pattern in range(16):
            suits = [suit for suit in range(4) if pattern >> suit & 1]
            if len(suits) < 3:
                continue
            bits = [1 << (13 * suit + rank) for suit in suits]
            full = sum(bits)
            sets = [(full ^ bit, 3 * points) for bit in bits] if len(bits) == 4 else []
            table[full] = ((full, len(bits) * points), *sets)
    return table


_SETS = _build_set_table()


def _build_meld_cards() -> dict[int, tuple[Card, ...]]:
    every = [meld for table in _RUNS for meld in table[_SUIT]]
    every += [meld for sets in _SETS.values() for meld in sets]
    # mask_to_cards orders by index: a run by rank, a set by suit.
    return {mask: tuple(mask_to_cards(mask)) for mask, _ in every}


_MELD_CARDS = _build_meld_cards()


# ---------------------------------------------------------------- mask level


def points_mask(mask: int) -> int:
    """Deadwood points of all the cards of a mask."""
    return (
        _SUIT_POINTS[mask & _SUIT]
        + _SUIT_POINTS[mask >> 13 & _SUIT]
        + _SUIT_POINTS[mask >> 26 & _SUIT]
        + _SUIT_POINTS[mask >> 39]
    )


def _analyse(mask: int) -> tuple[int, tuple[Meld, ...] | list[Meld]]:
    """(points of the hand, candidate melds inside it)."""
    spades = mask & _SUIT
    hearts = mask >> 13 & _SUIT
    diamonds = mask >> 26 & _SUIT
    clubs = mask >> 39
    total = _SUIT_POINTS[spades] + _SUIT_POINTS[hearts] + _SUIT_POINTS[diamonds] + _SUIT_POINTS[clubs]
    melds: tuple[Meld, ...] | list[Meld] = (
        _RUNS_S[spades] + _RUNS_H[hearts] + _RUNS_D[diamonds] + _RUNS_C[clubs]
    )
    three_suits = (spades & hearts & (diamonds | clubs)) | (diamonds & clubs & (spades | hearts))
    if three_suits:
        melds = list(melds)
        while three_suits:
            low = three_suits & -three_suits
            melds += _SETS[mask & low * _RANK_SPREAD]
            three_suits ^= low
    return total, melds


def meld_candidates_mask(mask: int) -> list[Meld]:
    """Every meld inside the hand (overlapping ones included), as (mask, points)."""
    return list(_analyse(mask)[1])


def index_by_lowest_card(melds: Iterable[Meld]) -> tuple[dict[int, list[Meld]], int]:
    """Melds grouped by their lowest card's bit, and the union of all melds."""
    by_low: dict[int, list[Meld]] = {}
    union = 0
    for meld in melds:
        by_low.setdefault(meld[0] & -meld[0], []).append(meld)
        union |= meld[0]
    return by_low, union


def max_melded(free: int, by_low: dict[int, list[Meld]], memo: dict[int, int]) -> int:
    """Most points that disjoint melds drawn from the ``free`` cards can hold.

    Branches on the lowest free card: unmelded, or in a meld it starts. The memo
    is looked up before each recursive call: calls are what cost most here.
    """
    asked = free
    low = free & -free
    while low not in by_low:  # starts no meld: stays unmelded
        if not free:
            return 0
        free ^= low
        low = free & -free
    best = memo.get(free)
    if best is None:
        rest = free ^ low
        best = memo.get(rest)
        if best is None:
            best = max_melded(rest, by_low, memo)
        for meld, points in by_low[low]:
            if meld & free == meld:
                rest = free ^ meld
                value = memo.get(rest)
                if value is None:
                    value = max_melded(rest, by_low, memo)
                if value + points > best:
                    best = value + points
        memo[free] = best
    memo[asked] = best
    return best


def arrangement_of(free: int, by_low: dict[int, list[Meld]], memo: dict[int, int]) -> list[int]:
    """One best arrangement: replays the search, taking the first optimal branch."""
    chosen = []
    while free:
        target = max_melded(free, by_low, memo)
        if not target:
            break
        low = free & -free
        if max_melded(free ^ low, by_low, memo) == target:
            free ^= low
            continue
        for meld, points in by_low[low]:
            if meld & free == meld and points + max_melded(free ^ meld, by_low, memo) == target:
                chosen.append(meld)
                free ^= meld
                break
    return chosen


def _all_arrangements(
    free: int, by_low: dict[int, list[Meld]], memo: dict[int, int]
) -> list[tuple[int, ...]]:
    """Every best arrangement of the free cards, each as a tuple of meld masks."""
    target = max_melded(free, by_low, memo)
    if not target:
        return [()]
    low = free & -free
    found = []
    if max_melded(free ^ low, by_low, memo) == target:
        found += _all_arrangements(free ^ low, by_low, memo)
    for meld, points in by_low.get(low, _NO_MELDS):
        if meld & free == meld and points + max_melded(free ^ meld, by_low, memo) == target:
            found += [(meld, *rest) for rest in _all_arrangements(free ^ meld, by_low, memo)]
    return found


def min_deadwood_mask(mask: int) -> int:
    """Least deadwood points of a hand given as a mask."""
    total, melds = _analyse(mask)
    if not melds:
        return total
    if len(melds) == 1:
        return total - melds[0][1]
    by_low, union = index_by_lowest_card(melds)
    return total - max_melded(union, by_low, {})


def best_arrangement_mask(mask: int) -> tuple[tuple[int, ...], int]:
    """(meld masks of the chosen least-deadwood arrangement, its deadwood points)."""
    total, melds = _analyse(mask)
    if not melds:
        return (), total
    if len(melds) == 1:
        return (melds[0][0],), total - melds[0][1]
    by_low, union = index_by_lowest_card(melds)
    memo: dict[int, int] = {}
    return tuple(arrangement_of(union, by_low, memo)), total - max_melded(union, by_low, memo)


def all_best_arrangements_mask(mask: int) -> tuple[tuple[tuple[int, ...], ...], int]:
    """(every least-deadwood arrangement as a tuple of meld masks, the deadwood points).

    The first arrangement is the one ``best_arrangement_mask`` chooses.
    """
    total, melds = _analyse(mask)
    by_low, union = index_by_lowest_card(melds)
    memo: dict[int, int] = {}
    return tuple(_all_arrangements(union, by_low, memo)), total - max_melded(union, by_low, memo)


def _top_card(mask: int) -> int:
    """Index of the highest card of a non-empty mask in Card order (rank, then suit)."""
    spades = mask & _SUIT
    hearts = mask >> 13 & _SUIT
    diamonds = mask >> 26 & _SUIT
    clubs = mask >> 39
    rank = (spades | hearts | diamonds | clubs).bit_length() - 1
    bit = 1 << rank
    if clubs & bit:
        return rank + 39
    if diamonds & bit:
        return rank + 26
    if hearts & bit:
        return rank + 13
    return rank


@dataclass(frozen=True, slots=True)
class _Search:
    """What one hand's search has learnt, kept to arrange the ten cards after a discard."""

    by_low: dict[int, list[Meld]]
    union: int
    memo: dict[int, int]

    def arrangement_without(self, bit: int) -> list[int]:
        # Melds holding the discard no longer fit, so this is the kept cards' own best arrangement.
        return arrangement_of(self.union & ~bit, self.by_low, self.memo)


def best_discard_mask(mask: int, exclude_index: int = -1) -> tuple[int, int]:
    """(index of the discard leaving least deadwood, that deadwood) for a hand mask.

    ``exclude_index`` is a card that may not be discarded (-1: none). Among
    equally good discards the highest card (rank, then suit S<H<D<C) goes.
    """
    index, points, _ = _best_discard(mask, exclude_index)
    return index, points


def _best_discard(mask: int, exclude_index: int) -> tuple[int, int, _Search | None]:
    """A card in no meld costs the same to keep whatever else happens, so only
    the cards inside candidate melds need a search of their own; those are tried
    highest first, and a card is skipped once even keeping every meld could not
    make it better than the discard already found."""
    eligible = mask & ~(1 << exclude_index) if exclude_index >= 0 else mask
    if not eligible:
        raise InvalidHand("no card may be discarded")
    total, melds = _analyse(mask)
    if not melds:
        top = _top_card(eligible)
        return top, total - _VALUE[top], None
    by_low, union = index_by_lowest_card(melds)
    memo: dict[int, int] = {}
    floor = total - max_melded(union, by_low, memo)  # least deadwood of all the cards
    best_card, best_points = -1, 1 << 30
    outside = eligible & ~union
    if outside:
        best_card = _top_card(outside)
        best_points = floor - _VALUE[best_card]
    for card in sorted(_indexes(eligible & union), key=_ORDER.__getitem__, reverse=True):
        at_best = max(floor - _VALUE[card], 0)  # values only fall from here on, bounds only rise
        if at_best > best_points or (at_best == best_points and _ORDER[card] < _ORDER[best_card]):
            break
        points = total - _VALUE[card] - max_melded(union ^ 1 << card, by_low, memo)
        if points < best_points or (points == best_points and _ORDER[card] > _ORDER[best_card]):
            best_card, best_points = card, points
    return best_card, best_points, _Search(by_low, union, memo)


def _indexes(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


# ---------------------------------------------------------------- card level


def hand_mask(cards: CardsLike, max_cards: int = MAX_HAND) -> tuple[int, int]:
    """(mask, number of cards) of a hand; InvalidHand on a repeat or too many cards."""
    # Iterable[object], not of Card | str: compiled, each item would be checked, a TypeError before
    # Card.parse's InvalidCard
    items: Iterable[object] = parse_cards(cards) if isinstance(cards, str) else cards
    mask = count = 0
    for item in items:
        card = item if isinstance(item, Card) else Card.parse(item)
        bit = 1 << (_SUIT_OFFSET[card.suit] + card.rank)
        if mask & bit:
            raise InvalidHand(f"{card} appears twice")
        mask |= bit
        count += 1
    if count > max_cards:
        raise InvalidHand(f"a hand has at most {max_cards} cards, got {count}")
    return mask, count


@dataclass(frozen=True, slots=True)
class Melding:
    """An arrangement of a hand: melds (each sorted: runs by rank, sets by suit),
    the cards left over (index order) and their points."""

    melds: tuple[tuple[Card, ...], ...]
    deadwood: tuple[Card, ...]
    points: int


@dataclass(frozen=True, slots=True)
class DiscardChoice:
    card: Card
    points: int  # deadwood of the ten cards kept
    melding: Melding  # of the ten cards kept


def melding_from_masks(mask: int, melds: Iterable[int]) -> Melding:
    """The Melding value of a hand mask arranged into the given meld masks."""
    meld_cards = tuple(_MELD_CARDS[meld] for meld in melds)
    deadwood = mask
    for meld in melds:
        deadwood &= ~meld
    return Melding(meld_cards, tuple(mask_to_cards(deadwood)), points_mask(deadwood))


def best_melding(cards: CardsLike) -> Melding:
    """The least-deadwood arrangement of 0 to 11 cards.

    Ties are broken deterministically: the answer depends only on which cards
    are in the hand, never on the order they were given in.
    """
    mask, _ = hand_mask(cards)
    melds, _ = best_arrangement_mask(mask)
    return melding_from_masks(mask, melds)


def all_best_meldings(cards: CardsLike) -> tuple[Melding, ...]:
    """Every least-deadwood arrangement; the first is ``best_melding``'s."""
    mask, _ = hand_mask(cards)
    arrangements, _ = all_best_arrangements_mask(mask)
    return tuple(melding_from_masks(mask, melds) for melds in arrangements)


def deadwood_after_each_discard(cards: CardsLike, exclude: Card | str | None = None) -> dict[Card, int]:
    """For each card of the hand but ``exclude``, in the hand's order: the least deadwood of the
    cards kept once it is discarded (``best_melding(kept).points``, without building meldings)."""
    listed = parse_cards(cards) if isinstance(cards, str) else cards
    items = [card if isinstance(card, Card) else Card.parse(card) for card in listed]
    mask, _ = hand_mask(items)
    excluded = Card.parse(exclude) if isinstance(exclude, str) else exclude
    return {
        card: min_deadwood_mask(mask & ~(1 << (_SUIT_OFFSET[card.suit] + card.rank)))
        for card in items
        if card != excluded
    }


def best_discard(cards: CardsLike, exclude: Card | str | None = None) -> DiscardChoice:
    """The discard from 11 cards that leaves the least deadwood.

    ``exclude`` (the card just taken from the discard pile) may not be discarded.
    Among equally good discards the highest card goes (rank, then suit S<H<D<C).
    """
    mask, count = hand_mask(cards)
    if count != MAX_HAND:
        raise InvalidHand(f"choosing a discard needs exactly {MAX_HAND} cards, got {count}")
    exclude_index = -1
    if exclude is not None:
        excluded = exclude if isinstance(exclude, Card) else Card.parse(exclude)
        exclude_index = _SUIT_OFFSET[excluded.suit] + excluded.rank
        if not mask >> exclude_index & 1:
            raise InvalidHand(f"the excluded card {excluded} is not in the hand")
    index, points, search = _best_discard(mask, exclude_index)
    melds = search.arrangement_without(1 << index) if search else []
    kept = mask ^ 1 << index
    return DiscardChoice(CARDS[index], points, melding_from_masks(kept, melds))
