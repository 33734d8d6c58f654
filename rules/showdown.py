"""The end of a knocked deal: both hands shown, layoffs, and the score.

RULES.md decisions implemented here:
- the defender's deadwood D is the exact optimum over the defender's own melds
  and layoffs together (any collection of own melds, then every card that can
  be laid off is);
- among the knocker's least-deadwood arrangements the one shown is the one that
  leaves the defender the most deadwood (first in ``all_best_meldings`` order
  on a tie, so usually exactly ``best_melding``'s).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from .cards import CARDS, Card
from .errors import IllegalMove, InvalidHand, InvalidState, RulesError
from .melding import (
    CardsLike,
    all_best_arrangements_mask,
    best_arrangement_mask,
    hand_mask,
    meld_candidates_mask,
    melding_from_masks,
    points_mask,
)
from .ruleset import Ruleset

Outcome = Literal["knock", "gin", "big_gin", "undercut"]
Winner = Literal["knocker", "defender"]
OUTCOMES: tuple[Outcome, ...] = ("knock", "gin", "big_gin", "undercut")
WINNERS: tuple[Winner, ...] = ("knocker", "defender")

HAND = 10
_SUIT = 0x1FFF
_RANK_SPREAD = 1 | 1 << 13 | 1 << 26 | 1 << 39


@dataclass(frozen=True, slots=True)
class Layoff:
    card: Card
    meld: tuple[Card, ...]  # the knocker's meld (as shown) the card went onto


@dataclass(frozen=True, slots=True)
class Showdown:
    outcome: Outcome
    winner: Winner
    points: int  # to the winner, already multiplied
    knocker_melds: tuple[tuple[Card, ...], ...]
    knocker_deadwood: int
    knocker_deadwood_cards: tuple[Card, ...]
    defender_melds: tuple[tuple[Card, ...], ...]
    defender_deadwood_cards: tuple[Card, ...]  # after own melds and layoffs
    layoffs: tuple[Layoff, ...]  # in the order laid
    defender_deadwood: int  # after layoffs (none after gin or big gin)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-able form; cards as text such as ``"7H"``."""
        return {
            "outcome": self.outcome,
            "winner": self.winner,
            "points": self.points,
            "knocker_melds": [_texts(meld) for meld in self.knocker_melds],
            "knocker_deadwood": self.knocker_deadwood,
            "knocker_deadwood_cards": _texts(self.knocker_deadwood_cards),
            "defender_melds": [_texts(meld) for meld in self.defender_melds],
            "defender_deadwood_cards": _texts(self.defender_deadwood_cards),
            "layoffs": [{"card": str(lay.card), "meld": _texts(lay.meld)} for lay in self.layoffs],
            "defender_deadwood": self.defender_deadwood,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Showdown:
        """Read back ``to_dict``'s form; InvalidState when it is not one."""
        try:
            return _showdown_from_dict(data)
        except (KeyError, TypeError, AttributeError, RulesError) as error:
            if isinstance(error, InvalidState):
                raise
            raise InvalidState(f"not a showdown: {error!r}") from error


def _texts(cards: Sequence[Card]) -> list[str]:
    return [str(card) for card in cards]


def _read_cards(value: Any) -> tuple[Card, ...]:
    if not isinstance(value, list):
        raise InvalidState(f"expected a list of cards, got {value!r}")
    return tuple(Card.parse(text) for text in value)


def _read_int(data: dict[str, Any], key: str) -> int:
    value = data[key]
    if type(value) is not int:
        raise InvalidState(f"{key} must be an integer, not {value!r}")
    return value


def _showdown_from_dict(data: dict[str, Any]) -> Showdown:
    if not isinstance(data, dict):
        raise InvalidState("a showdown must be an object")
    outcome, winner = data["outcome"], data["winner"]
    if outcome not in OUTCOMES or winner not in WINNERS:
        raise InvalidState(f"unknown outcome or winner: {outcome!r}, {winner!r}")
    return Showdown(
        outcome=outcome,
        winner=winner,
        points=_read_int(data, "points"),
        knocker_melds=tuple(_read_cards(meld) for meld in data["knocker_melds"]),
        knocker_deadwood=_read_int(data, "knocker_deadwood"),
        knocker_deadwood_cards=_read_cards(data["knocker_deadwood_cards"]),
        defender_melds=tuple(_read_cards(meld) for meld in data["defender_melds"]),
        defender_deadwood_cards=_read_cards(data["defender_deadwood_cards"]),
        layoffs=tuple(Layoff(Card.parse(lay["card"]), _read_cards(lay["meld"])) for lay in data["layoffs"]),
        defender_deadwood=_read_int(data, "defender_deadwood"),
    )


# ---------------------------------------------------------------- layoffs (mask level)


@dataclass(frozen=True, slots=True)
class _Target:
    """Where a knocker's meld accepts cards: a set's missing suit, a run's two ends."""

    fourth: int  # bit of the card completing a set of three (0: none)
    below: int  # bit just under a run's lowest card (0: none)
    above: int  # bit just over a run's highest card (0: none)


def _target(meld: int) -> _Target:
    low = meld & -meld
    start = (low.bit_length() - 1) % 13
    whole_rank = (1 << start) * _RANK_SPREAD
    if meld & whole_rank == meld:  # a set
        return _Target(whole_rank & ~meld if meld.bit_count() == 3 else 0, 0, 0)
    high = 1 << (meld.bit_length() - 1)
    return _Target(0, low >> 1 if start > 0 else 0, high << 1 if start + meld.bit_count() < 13 else 0)


def _layoffs(targets: Sequence[_Target], spare: int) -> list[list[int]]:
    """Per knocker meld, the bits of ``spare`` laid on it, in the order laid.

    Laying off never blocks another layoff, so all that can go, goes. Runs are
    served first: a card fitting both a set and a run goes to the run, where it
    can let another card follow (8 then 9 onto 5-6-7).
    """
    laid: list[list[int]] = []
    for target in targets:
        chain = []
        bit = target.above
        while bit & spare:
            chain.append(bit)
            spare ^= bit
            bit = bit << 1 if (bit.bit_length() - 1) % 13 != 12 else 0
        bit = target.below
        while bit & spare:
            chain.append(bit)
            spare ^= bit
            bit = bit >> 1 if (bit.bit_length() - 1) % 13 != 0 else 0
        laid.append(chain)
    for target, chain in zip(targets, laid, strict=True):
        if target.fourth & spare:
            chain.append(target.fourth)
            spare ^= target.fourth
    return laid


def _laid_mask(targets: Sequence[_Target], spare: int) -> int:
    laid = 0
    for chain in _layoffs(targets, spare):
        for bit in chain:
            laid |= bit
    return laid


def _collections(melds: Sequence[tuple[int, int]], free: int, start: int = 0) -> Iterator[tuple[int, int]]:
    """Every collection of disjoint melds (the empty one too) as (cards mask, points)."""
    yield 0, 0
    for position in range(start, len(melds)):
        meld, points = melds[position]
        if meld & free == meld:
            for cards, more in _collections(melds, free ^ meld, position + 1):
                yield meld | cards, points + more


@dataclass(frozen=True, slots=True)
class Defence:
    """The defender's best answer to a knock (masks of cards)."""

    deadwood: int
    own_melds: int  # mask of the cards in the defender's own melds
    laid: int  # mask of the cards laid off


def best_defence_mask(knocker_melds: Sequence[int], defender: int) -> Defence:
    """The defender's least deadwood after own melds and layoffs onto ``knocker_melds``.

    Exact: tries every collection of the defender's own melds (non-maximal ones
    included, since a card may be worth more laid off), then lays off all it can.
    Among equal deadwood it keeps the most points in the defender's own melds.
    """
    targets = [_target(meld) for meld in knocker_melds]
    total = points_mask(defender)
    best: Defence | None = None
    best_own = -1
    for own, own_points in _collections(meld_candidates_mask(defender), defender):
        laid = _laid_mask(targets, defender & ~own)
        deadwood = total - own_points - points_mask(laid)
        if best is None or deadwood < best.deadwood or (deadwood == best.deadwood and own_points > best_own):
            best, best_own = Defence(deadwood, own, laid), own_points
    assert best is not None  # the empty collection always exists
    return best


# ---------------------------------------------------------------- the showdown


def _check_hands(knocker_cards: CardsLike, defender_cards: CardsLike) -> tuple[int, int, int]:
    knocker, knocker_count = hand_mask(knocker_cards)
    defender, defender_count = hand_mask(defender_cards)
    if knocker_count not in (HAND, HAND + 1):
        raise InvalidHand(f"the knocker must show {HAND} cards (11 for big gin), got {knocker_count}")
    if defender_count != HAND:
        raise InvalidHand(f"the defender must show {HAND} cards, got {defender_count}")
    shared = knocker & defender
    if shared:
        names = " ".join(str(CARDS[bit.bit_length() - 1]) for bit in _bits(shared))
        raise InvalidHand(f"cards in both hands: {names}")
    return knocker, defender, knocker_count


def _bits(mask: int) -> Iterator[int]:
    while mask:
        low = mask & -mask
        yield low
        mask ^= low


def _check_options(ruleset: Ruleset, knock_limit: int | None, multiplier: int) -> int:
    limit = ruleset.knock_limit if knock_limit is None else knock_limit
    if type(limit) is not int or not 0 <= limit <= 10:
        raise RulesError(f"knock_limit must be an integer from 0 to 10, not {limit!r}")
    if type(multiplier) is not int or multiplier < 1:
        raise RulesError(f"multiplier must be a positive integer, not {multiplier!r}")
    return limit


def showdown(
    ruleset: Ruleset,
    knocker_cards: CardsLike,
    defender_cards: CardsLike,
    *,
    knock_limit: int | None = None,
    multiplier: int = 1,
) -> Showdown:
    """Score a knock: ``knocker_cards`` are the 10 cards kept after the knock
    discard (11 for big gin, where the rule set plays it), ``defender_cards``
    the defender's 10. ``knock_limit`` overrides the rule set's (Oklahoma);
    the points are multiplied by ``multiplier``.
    """
    knocker, defender, knocker_count = _check_hands(knocker_cards, defender_cards)
    limit = _check_options(ruleset, knock_limit, multiplier)
    if knocker_count == HAND + 1:
        return _big_gin(ruleset, knocker, defender, multiplier)
    arrangements, knocker_deadwood = all_best_arrangements_mask(knocker)
    if knocker_deadwood > limit:
        raise IllegalMove(
            f"cannot knock with {knocker_deadwood} points of deadwood: the knock limit is {limit}"
        )
    if knocker_deadwood == 0:
        return _gin(ruleset, "gin", ruleset.gin_bonus, knocker, arrangements[0], defender, multiplier)
    return _knock(ruleset, knocker, arrangements, knocker_deadwood, defender, multiplier)


def _big_gin(ruleset: Ruleset, knocker: int, defender: int, multiplier: int) -> Showdown:
    if ruleset.big_gin_bonus is None:
        raise IllegalMove(f"big gin is not played in the {ruleset.name} rule set: the knocker shows 10 cards")
    melds, deadwood = best_arrangement_mask(knocker)
    if deadwood:
        raise IllegalMove(f"big gin needs all 11 cards melded, but {deadwood} points of deadwood remain")
    return _gin(ruleset, "big_gin", ruleset.big_gin_bonus, knocker, melds, defender, multiplier)


def _gin(
    ruleset: Ruleset,
    outcome: Outcome,
    bonus: int,
    knocker: int,
    knocker_melds: tuple[int, ...],
    defender: int,
    multiplier: int,
) -> Showdown:
    """Gin or big gin: the defender lays nothing off."""
    defender_melds, defender_deadwood = best_arrangement_mask(defender)
    shown = melding_from_masks(knocker, knocker_melds)
    own = melding_from_masks(defender, defender_melds)
    return Showdown(
        outcome=outcome,
        winner="knocker",
        points=(bonus + defender_deadwood) * multiplier,
        knocker_melds=shown.melds,
        knocker_deadwood=0,
        knocker_deadwood_cards=(),
        defender_melds=own.melds,
        defender_deadwood_cards=own.deadwood,
        layoffs=(),
        defender_deadwood=defender_deadwood,
    )


def _knock(
    ruleset: Ruleset,
    knocker: int,
    arrangements: Sequence[tuple[int, ...]],
    knocker_deadwood: int,
    defender: int,
    multiplier: int,
) -> Showdown:
    # The knocker's arrangement that is worst for the defender; the first on a tie.
    chosen, defence = arrangements[0], best_defence_mask(arrangements[0], defender)
    for melds in arrangements[1:]:
        other = best_defence_mask(melds, defender)
        if other.deadwood > defence.deadwood:
            chosen, defence = melds, other
    shown = melding_from_masks(knocker, chosen)
    own_melds, _ = best_arrangement_mask(defence.own_melds)
    own = melding_from_masks(defender & ~defence.laid, own_melds)
    layoffs = _layoff_list(chosen, shown.melds, defender & ~defence.own_melds)
    if defence.deadwood > knocker_deadwood:
        outcome: Outcome = "knock"
        winner: Winner = "knocker"
        points = defence.deadwood - knocker_deadwood
    else:
        outcome, winner = "undercut", "defender"
        points = knocker_deadwood - defence.deadwood + ruleset.undercut_bonus
    return Showdown(
        outcome=outcome,
        winner=winner,
        points=points * multiplier,
        knocker_melds=shown.melds,
        knocker_deadwood=knocker_deadwood,
        knocker_deadwood_cards=shown.deadwood,
        defender_melds=own.melds,
        defender_deadwood_cards=own.deadwood,
        layoffs=layoffs,
        defender_deadwood=defence.deadwood,
    )


def _layoff_list(
    knocker_melds: Sequence[int], shown: Sequence[tuple[Card, ...]], spare: int
) -> tuple[Layoff, ...]:
    targets = [_target(meld) for meld in knocker_melds]
    laid = _layoffs(targets, spare)
    return tuple(
        Layoff(CARDS[bit.bit_length() - 1], meld_cards)
        for meld_cards, chain in zip(shown, laid, strict=True)
        for bit in chain
    )
