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
    arrangement_of,
    best_arrangement_mask,
    hand_mask,
    index_by_lowest_card,
    max_melded,
    meld_candidates_mask,
    melding_from_masks,
    points_mask,
)
from .ruleset import Ruleset
from .scoring import BIG_GIN, GIN, OUTCOMES, Outcome, deal_points, knock_end

Winner = Literal["knocker", "defender"]
WINNERS: tuple[Winner, ...] = ("knocker", "defender")

HAND = 10
_RANK_SPREAD = 1 | 1 << 13 | 1 << 26 | 1 << 39


@dataclass(frozen=True, slots=True)
class Layoff:
    """A defender's card laid onto one of the knocker's melds."""

    card: Card
    meld: tuple[Card, ...]  # the knocker's meld (as shown) the card went onto


@dataclass(frozen=True, slots=True)
class Showdown:
    """Both hands as shown at the end of a knocked deal, and who scores what."""

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


Target = tuple[int, int, int]  # where a knocker's meld takes cards: (fourth, below, above) bits, 0 for none

_ACES = 1 | 1 << 13 | 1 << 26 | 1 << 39
_KINGS = _ACES << 12


def _target(meld: int) -> Target:
    """A set of three takes its missing suit; a run takes the cards just below and above it."""
    low = meld & -meld
    start = (low.bit_length() - 1) % 13
    whole_rank = (1 << start) * _RANK_SPREAD
    if meld & whole_rank == meld:  # a set
        return (whole_rank & ~meld if meld.bit_count() == 3 else 0), 0, 0
    high = 1 << (meld.bit_length() - 1)
    return 0, (0 if low & _ACES else low >> 1), (0 if high & _KINGS else high << 1)


def _lay_off(targets: Sequence[Target], spare: int, record: list[tuple[int, int]] | None = None) -> int:
    """Mask of every card of ``spare`` that can be laid off onto ``targets``.

    Laying off never blocks another layoff, so all that can go, goes. Runs are
    served first: a card fitting both a set and a run goes to the run, where it
    can let another card follow (8 then 9 onto 5-6-7). ``record`` receives
    (target position, card bit) in an order the cards can be laid in.
    """
    laid = 0
    for position, (_, below, above) in enumerate(targets):
        bit = above
        while bit & spare:
            laid |= bit
            spare ^= bit
            if record is not None:
                record.append((position, bit))
            bit = 0 if bit & _KINGS else bit << 1
        bit = below
        while bit & spare:
            laid |= bit
            spare ^= bit
            if record is not None:
                record.append((position, bit))
            bit = 0 if bit & _ACES else bit >> 1
    for position, (fourth, _, _) in enumerate(targets):
        if fourth & spare:
            laid |= fourth
            if record is not None:
                record.append((position, fourth))
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

    Exact over every collection of the defender's own melds (non-maximal ones
    included: a card may be worth more laid off). Only melds holding a card that
    could be laid off ("contested") interact with the layoffs: for each
    collection of contested melds, all that can be laid off is, and the other
    melds are arranged as usual. Among equal deadwood the defence with the most
    points in the defender's own melds is kept.
    """
    targets = [_target(meld) for meld in knocker_melds]
    reachable = _lay_off(targets, defender)
    total = points_mask(defender)
    melds = meld_candidates_mask(defender)
    contested = [meld for meld in melds if meld[0] & reachable]
    by_low, union = index_by_lowest_card(meld for meld in melds if not meld[0] & reachable)
    memo: dict[int, int] = {}
    best = (total + 1, 0, 0, 0)  # (deadwood, -own points, contested melds, laid)
    for chosen, chosen_points in _collections(contested, defender):
        rest = defender & ~chosen
        laid = _lay_off(targets, rest) if reachable else 0
        own_points = chosen_points + max_melded(union & rest, by_low, memo)
        candidate = (total - own_points - points_mask(laid), -own_points, chosen, laid)
        if candidate[:2] < best[:2]:
            best = candidate
    deadwood, _, chosen, laid = best
    own = chosen
    for meld in arrangement_of(union & defender & ~chosen, by_low, memo):
        own |= meld
    return Defence(deadwood, own, laid)


def shown_arrangement_mask(
    arrangements: Sequence[Sequence[int]], defender: int
) -> tuple[Sequence[int], Defence]:
    """The knocker's least-deadwood arrangement that is shown, the one worst for the defender
    (the first on a tie), and the defender's best defence against it."""
    chosen, defence = arrangements[0], best_defence_mask(arrangements[0], defender)
    for melds in arrangements[1:]:
        other = best_defence_mask(melds, defender)
        if other.deadwood > defence.deadwood:
            chosen, defence = melds, other
    return chosen, defence


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
        return _gin(ruleset, GIN, knocker, arrangements[0], defender, multiplier)
    return _knock(ruleset, knocker, arrangements, knocker_deadwood, defender, multiplier)


def _big_gin(ruleset: Ruleset, knocker: int, defender: int, multiplier: int) -> Showdown:
    if ruleset.big_gin_bonus is None:
        raise IllegalMove(f"big gin is not played in the {ruleset.name} rule set: the knocker shows 10 cards")
    melds, deadwood = best_arrangement_mask(knocker)
    if deadwood:
        raise IllegalMove(f"big gin needs all 11 cards melded, but {deadwood} points of deadwood remain")
    return _gin(ruleset, BIG_GIN, knocker, melds, defender, multiplier)


def _gin(
    ruleset: Ruleset,
    outcome: Outcome,
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
        points=deal_points(ruleset, outcome, 0, defender_deadwood, multiplier),
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
    chosen, defence = shown_arrangement_mask(arrangements, defender)
    shown = melding_from_masks(knocker, chosen)
    own_melds, _ = best_arrangement_mask(defence.own_melds)
    own = melding_from_masks(defender & ~defence.laid, own_melds)
    layoffs = _layoff_list(chosen, shown.melds, defender & ~defence.own_melds)
    outcome, knocker_wins, points = knock_end(ruleset, knocker_deadwood, defence.deadwood, multiplier)
    return Showdown(
        outcome=outcome,
        winner="knocker" if knocker_wins else "defender",
        points=points,
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
    record: list[tuple[int, int]] = []
    _lay_off([_target(meld) for meld in knocker_melds], spare, record)
    return tuple(Layoff(CARDS[bit.bit_length() - 1], shown[position]) for position, bit in record)
