"""A compact deal simulator for LUNA's play-outs: hands as masks, no Deal objects.

Both seats follow one informed policy: take the face-up card when it lowers the
deadwood clearly, otherwise draw; knock (or declare big gin) as soon as the hand
allows; otherwise throw the card leaving the least deadwood, or, for the seat
``SimDeal.keeper`` (LUNA's own), the loose card least likely to be melded
(keeping_discard). The rules are the engine's: the
exact least-deadwood arrangement, the exact best defence with layoffs, the
dead-deal stock limit.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from rules.melding import (
    all_best_arrangements_mask,
    best_arrangement_mask,
    best_discard_mask,
    min_deadwood_mask,
)
from rules.ruleset import Ruleset
from rules.scoring import BIG_GIN, GIN, deal_points, knock_end
from rules.showdown import shown_arrangement_mask

from .handeval import RANK_SPREAD, VALUE

T = TypeVar("T")
TAKE_GAIN = 4  # deadwood points the face-up card must save to be worth taking
DEAD = -1  # the "winner" of a dead deal


@dataclass(frozen=True, slots=True)
class SimRules:
    """The deal's terms: its rule set (scored by rules.scoring), knock limit and multiplier."""

    ruleset: Ruleset
    knock_limit: int
    multiplier: int
    big_gin: bool  # the rule set plays big gin
    dead_stock: int

    @staticmethod
    def of(ruleset: Ruleset, knock_limit: int, multiplier: int = 1) -> SimRules:
        return SimRules(ruleset, knock_limit, multiplier, ruleset.has_big_gin, ruleset.dead_stock)


@dataclass(slots=True)
class SimDeal:
    """A deal in progress: ``stock`` and ``pile`` have their top card last."""

    rules: SimRules
    hands: list[int]
    stock: list[int]
    pile: list[int]
    keeper: int = -1  # the seat that keeps cards with outs (keeping_discard); -1: neither

    def copy(self) -> SimDeal:
        return SimDeal(self.rules, self.hands.copy(), self.stock.copy(), self.pile.copy(), self.keeper)


_ARRANGED: dict[int, tuple[int, int]] = {}  # hand mask -> (melded cards, deadwood points)
_ARRANGED_LIMIT = 400_000  # entries kept before the memo starts afresh


def arranged(hand: int) -> tuple[int, int]:
    """(cards inside melds, deadwood) of the least-deadwood arrangement, memoised:
    the same hands come back again and again across play-outs."""
    known = _ARRANGED.get(hand)
    if known is not None:
        return known
    melds, deadwood = best_arrangement_mask(hand)
    melded = 0
    for meld in melds:
        melded |= meld
    if len(_ARRANGED) >= _ARRANGED_LIMIT:
        _ARRANGED.clear()
    _ARRANGED[hand] = melded, deadwood
    return melded, deadwood


_DISCARDS: dict[int, tuple[int, int]] = {}  # hand mask and excluded card -> policy_discard


def policy_discard(hand: int, exclude: int) -> tuple[int, int]:
    """(card, deadwood left): the highest unmelded card; the exact search only when all are melded.

    Throwing an unmelded card of value v leaves exactly deadwood - v: the arrangement
    stays valid, and a better one would have been better with the card too.
    """
    return _recall(_DISCARDS, _policy_discard, hand, exclude)


def _recall(table: dict[int, T], compute: Callable[[int, int], T], hand: int, exclude: int) -> T:
    """``compute(hand, exclude)``, remembered in ``table`` (emptied once it is full)."""
    key = hand << 6 | (exclude + 1)
    known = table.get(key)
    if known is None:
        if len(table) >= _ARRANGED_LIMIT:
            table.clear()
        known = table[key] = compute(hand, exclude)
    return known


def _loose(hand: int, exclude: int) -> tuple[int, int]:
    """(cards outside the least-deadwood arrangement's melds but ``exclude``, deadwood)."""
    melded, deadwood = arranged(hand)
    loose = hand & ~melded
    if exclude >= 0:
        loose &= ~(1 << exclude)
    return loose, deadwood


def _policy_discard(hand: int, exclude: int) -> tuple[int, int]:
    loose, deadwood = _loose(hand, exclude)
    if not loose:
        return best_discard_mask(hand, exclude)
    best = -1
    while loose:
        low = loose & -loose
        card = low.bit_length() - 1
        if best < 0 or VALUE[card] >= VALUE[best]:
            best = card
        loose ^= low
    return best, deadwood - VALUE[best]


OUT_WEIGHT = 0.25  # share of a loose card's value that each card able to meld it saves
_KEEPING: dict[int, int] = {}  # hand mask and excluded card -> keeping_discard


def keeping_discard(hand: int, exclude: int) -> int:
    """The loose card to throw when the hand cannot knock: the highest value discounted by
    its outs (cards not in the hand that would meld it with one that is), so pairs and
    near-runs of low cards stay."""
    return _recall(_KEEPING, _keeping_discard, hand, exclude)


def _keeping_discard(hand: int, exclude: int) -> int:
    loose, _ = _loose(hand, exclude)
    if not loose:
        return best_discard_mask(hand, exclude)[0]
    best, best_score = -1, -1.0
    while loose:
        low = loose & -loose
        card = low.bit_length() - 1
        score = VALUE[card] * max(0.0, 1.0 - OUT_WEIGHT * outs(hand, card))
        if score > best_score or (score == best_score and VALUE[card] > VALUE[best]):
            best, best_score = card, score
        loose ^= low
    return best


# (offset of a same-suit card in the hand, offsets of the cards that would make a run with both)
RUN_PARTNERS = ((1, (-1, 2)), (-1, (1, -2)), (2, (1,)), (-2, (-1,)))


def outs(hand: int, card: int) -> int:
    """Cards outside ``hand`` that would put ``card`` in a meld with a card of the hand."""
    rank, base = card % 13, card - card % 13
    same_rank = (RANK_SPREAD << rank) & ~(1 << card)
    wanted = same_rank if hand & same_rank else 0
    for partner, fillers in RUN_PARTNERS:
        if 0 <= rank + partner <= 12 and hand >> (base + rank + partner) & 1:
            for filler in fillers:
                if 0 <= rank + filler <= 12:
                    wanted |= 1 << (base + rank + filler)
    return (wanted & ~hand).bit_count()


def wants_face_up(hand: int, card: int) -> bool:
    """The play-out policy's draw: take ``card`` if it saves TAKE_GAIN points of deadwood."""
    return policy_discard(hand | 1 << card, card)[1] + TAKE_GAIN <= arranged(hand)[1]


def settle(sim: SimDeal, knocker: int) -> tuple[int, int]:
    """(scoring seat, points) of a knock by ``knocker`` holding its 10 cards, as rules.showdown
    scores it (the arrangement shown is the engine's choice: tests/bots/test_playout_scoring.py)."""
    rules = sim.rules
    hand, defender = sim.hands[knocker], sim.hands[1 - knocker]
    arrangements, deadwood = all_best_arrangements_mask(hand)
    if deadwood == 0:
        return knocker, deal_points(rules.ruleset, GIN, 0, min_deadwood_mask(defender), rules.multiplier)
    defence = shown_arrangement_mask(arrangements, defender)[1].deadwood
    _, knocker_scores, points = knock_end(rules.ruleset, deadwood, defence, rules.multiplier)
    return (knocker if knocker_scores else 1 - knocker), points


def finish_turn(sim: SimDeal, player: int, just_taken: int) -> tuple[int, int] | None:
    """The policy's discard step for ``player`` holding 11 cards; the result if the deal ends."""
    rules = sim.rules
    hand = sim.hands[player]
    if rules.big_gin and arranged(hand)[1] == 0:
        return big_gin(sim, player)
    card, deadwood = policy_discard(hand, just_taken)
    if deadwood <= rules.knock_limit:
        return discard(sim, player, card, knock=True)
    if player == sim.keeper:
        card = keeping_discard(hand, just_taken)
    return discard(sim, player, card, knock=False)


def big_gin(sim: SimDeal, player: int) -> tuple[int, int]:
    """(scoring seat, points) of big gin declared by ``player`` holding 11 melded cards."""
    rules = sim.rules
    defender = min_deadwood_mask(sim.hands[1 - player])
    return player, deal_points(rules.ruleset, BIG_GIN, 0, defender, rules.multiplier)


def discard(sim: SimDeal, player: int, card: int, knock: bool) -> tuple[int, int] | None:
    """Throw ``card`` (a knock if asked); the result if that ends the deal."""
    sim.hands[player] ^= 1 << card
    if knock:
        return settle(sim, player)
    sim.pile.append(card)
    if len(sim.stock) <= sim.rules.dead_stock:
        return DEAD, 0
    return None


def draw(sim: SimDeal, player: int, take: bool) -> int:
    """Take the top discard or the top of the stock; returns the card if it came from the pile."""
    if take:
        card = sim.pile.pop()
        sim.hands[player] |= 1 << card
        return card
    sim.hands[player] |= 1 << sim.stock.pop()
    return -1


def play_out(sim: SimDeal, player: int) -> tuple[int, int]:
    """Play from ``player``'s draw to the end of the deal: (scoring seat or DEAD, points)."""
    while True:
        pile = sim.pile
        take = bool(pile) and wants_face_up(sim.hands[player], pile[-1])
        taken = draw(sim, player, take)
        result = finish_turn(sim, player, taken)
        if result is not None:
            return result
        player = 1 - player
