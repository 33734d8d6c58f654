"""Hand judgement shared by the bots, on 52-bit masks (bit = `Card.index`)."""

from __future__ import annotations

from collections.abc import Iterator

from rules.melding import best_arrangement_mask, best_discard_mask, min_deadwood_mask

from .knowledge import Knowledge

RANK_SPREAD = 1 | 1 << 13 | 1 << 26 | 1 << 39  # a rank's bit in all four suits
VALUE = tuple(min(index % 13 + 1, 10) for index in range(52))


def bits(mask: int) -> Iterator[int]:
    """Card indexes of a mask, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def melded_cards(mask: int) -> int:
    """The cards inside the least-deadwood arrangement's melds."""
    melds, _ = best_arrangement_mask(mask)
    union = 0
    for meld in melds:
        union |= meld
    return union


def makes_meld(hand: int, card: int) -> bool:
    """Whether ``card`` would sit in a meld of the hand's best arrangement once added."""
    return bool(melded_cards(hand | 1 << card) >> card & 1)


def highest_deadwood(hand: int, exclude: int = -1) -> int:
    """The highest-valued unmelded card (ties: the highest index); -1 if all are melded."""
    loose = hand & ~melded_cards(hand)
    if exclude >= 0:
        loose &= ~(1 << exclude)
    best = -1
    for index in bits(loose):
        if best < 0 or VALUE[index] >= VALUE[best]:
            best = index
    return best


def expected_after_draw(hand: int, unseen: int) -> float:
    """Mean deadwood after a stock draw (every unseen card equally likely next),
    keeping the hand when the drawn card is no use."""
    now = min_deadwood_mask(hand)
    count = unseen.bit_count()
    if not count:
        return float(now)
    total = 0
    for card in bits(unseen):
        total += min(now, best_discard_mask(hand | 1 << card, card)[1])
    return total / count


def neighbours(card: int) -> tuple[int, ...]:
    """Same-suit cards one and two ranks away (those a run through ``card`` needs)."""
    rank = card % 13
    return tuple(card + step for step in (-2, -1, 1, 2) if 0 <= rank + step < 13)


def related(card: int) -> int:
    """Mask of the cards that can share a meld with ``card``: its rank and near same-suit cards."""
    mask = (RANK_SPREAD << (card % 13)) & ~(1 << card)
    for other in neighbours(card):
        mask |= 1 << other
    return mask


def opponent_holds(know: Knowledge) -> list[float]:
    """Per card, the chance that the opponent holds it, from what this seat has seen."""
    unseen = know.unseen
    share = know.opponent_hidden_count / max(1, unseen.bit_count())
    chance = [0.0] * 52
    for card in bits(unseen):
        chance[card] = share
    for card in bits(know.opponent_known):
        chance[card] = 1.0
    return chance


def feeding_chance(card: int, know: Knowledge, holds: list[float]) -> float:
    """Chance that ``card`` would complete or extend a meld for the opponent.

    Independent-card approximation; halved when the opponent has thrown or declined
    a card that melds with it (a sign it is not collecting there).
    """
    rank, suit_base = card % 13, card - card % 13
    others = [holds[suit * 13 + rank] for suit in range(4) if suit * 13 + rank != card]
    pairs = others[0] * others[1] + others[0] * others[2] + others[1] * others[2]
    set_chance = min(1.0, pairs)
    run_miss = 1.0
    for low in (rank - 2, rank - 1, rank + 1):
        high = low + 1 if low != rank - 1 else rank + 1
        if low >= 0 and high <= 12:
            first = holds[suit_base + low]
            second = holds[suit_base + high]
            run_miss *= 1.0 - first * second
    chance = 1.0 - (1.0 - set_chance) * run_miss
    if (know.opponent_discards | know.opponent_refused) & related(card):
        chance *= 0.5
    return chance
