"""What the three- and four-player variants share (rules/winner_stays.py, rules/partnership.py).

Every deal inside a variant is an ordinary two-handed `Deal` of the table's rule set, between two
of the table's seats: deal seat 0 is the lower table seat of the two, deal seat 1 the higher. Its
points come from the deal itself (rules/scoring.py: the rule set's gin, big gin and undercut
bonuses, the Oklahoma multiplier); a variant only decides who plays whom, who deals, and how the
deals' points add up. Hollywood scoring does not combine with either variant.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from .cards import Card
from .deal import Deal, as_ruleset, check_format
from .errors import IllegalMove, InvalidRuleset, InvalidState, RulesError, UnsupportedVariant
from .match import END_REASONS, _check_row
from .ruleset import Ruleset
from .scoring import DEAD

WINNER_STAYS_TARGET = 100  # three players, when the rule set plays a single deal
PARTNERSHIP_TARGET = 125  # four players: Hoyle's and Bicycle's partnership game
FORMAT = 1  # version of the variants' to_dict layouts
T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class DealResult:
    """How one two-handed deal inside a variant ended, in table seats."""

    outcome: str  # one of rules.scoring.ALL_OUTCOMES
    winner: int | None  # None for a dead deal
    points: int  # to the winner
    knocker: int | None = None

    @property
    def is_dead(self) -> bool:
        return self.outcome == DEAD

    def to_dict(self) -> dict[str, Any]:
        return {
            "outcome": self.outcome,
            "winner": self.winner,
            "points": self.points,
            "knocker": self.knocker,
        }

    @classmethod
    def from_dict(cls, data: object) -> DealResult:
        if not isinstance(data, dict):
            raise InvalidState("a deal's result must be an object")
        return cls(data["outcome"], data["winner"], data["points"], data.get("knocker"))


def variant_ruleset(ruleset: Ruleset | str, variant: str) -> Ruleset:
    """The rule set of the deals inside ``variant``; Hollywood scoring is refused."""
    rules = as_ruleset(ruleset)
    if rules.hollywood:
        raise UnsupportedVariant(
            f"Hollywood scoring does not combine with {variant}: it scores three games between two "
            "players; play the rule set without it"
        )
    return rules


def variant_target(target: object, default: int) -> int:
    """The points a player (or team) needs to win the game: ``target``, or ``default``."""
    value = default if target is None else target
    if type(value) is not int or not 1 <= value <= 10000:
        raise InvalidRuleset(f"target must be an integer from 1 to 10000, not {value!r}")
    return value


def check_players(players: Sequence[object], count: int, what: str) -> tuple[int, ...]:
    """``players`` as distinct table seats of a table of ``count``, or InvalidState."""
    seats = [seat for seat in players if type(seat) is int and 0 <= seat < count]
    if len(seats) != len(players) or len(set(seats)) != len(seats):
        raise InvalidState(f"{what} must be distinct seats from 0 to {count - 1}, not {list(players)!r}")
    return tuple(seats)


def new_deal(
    ruleset: Ruleset, players: tuple[int, int], dealer: int, deck: Sequence[Card | str] | None
) -> Deal:
    """The two-handed deal between ``players`` (seat order) dealt by the table seat ``dealer``."""
    return Deal.new(ruleset, players.index(dealer), deck)


def result_of(deal: Deal, ruleset: Ruleset, players: tuple[int, int], dealer: int) -> DealResult:
    """A finished deal between ``players`` (seat order), dealt by ``dealer``, in table seats."""
    if not deal.is_over:
        raise IllegalMove("the deal is not over yet")
    if deal.ruleset != ruleset:
        raise IllegalMove(f"the deal was played under the {deal.ruleset.name} rules, not this match's")
    if players[deal.dealer] != dealer:
        raise IllegalMove(f"seat {dealer} deals this deal, but seat {players[deal.dealer]} dealt it")
    winner, knocker = deal.winner, deal.knocker
    return DealResult(
        deal.outcome or DEAD,
        None if winner is None else players[winner],
        deal.points,
        None if knocker is None else players[knocker],
    )


def checked_result(result: DealResult, players: tuple[int, int]) -> DealResult:
    """``result`` if it can end a deal between ``players``, else a RulesError saying why."""
    for role in ("winner", "knocker"):
        seat = getattr(result, role)
        if seat is not None and (type(seat) is not int or seat not in players):
            raise IllegalMove(
                f"the {role} must be one of the seats playing this deal, {list(players)}, not {seat!r}"
            )

    def deal_seat(seat: int | None) -> int | None:
        return None if seat is None else players.index(seat)

    _check_row(result.outcome, deal_seat(result.winner), result.points, deal_seat(result.knocker))
    return result


def check_leaver(seat: object, count: int, reason: object) -> int:
    """``seat`` as a table seat of a table of ``count`` that can resign (``reason`` "resign") or
    forfeit (``reason`` "forfeit"); IllegalMove for another seat, RulesError for another reason."""
    if type(seat) is not int or not 0 <= seat < count:
        raise IllegalMove(f"the resigning seat must be a seat from 0 to {count - 1}, not {seat!r}")
    if reason not in END_REASONS:
        raise RulesError(f"reason must be one of {', '.join(END_REASONS)}, not {reason!r}")
    return seat


def ended(match: T, data: dict[str, Any], resign: Callable[[T, int, str], T]) -> T:
    """``match`` resigned as a stored variant says (its "ended_by" and "leaver"; a form stored
    before resignations were recorded has neither)."""
    if data.get("ended_by") is None:
        return match
    return resign(match, data["leaver"], data["ended_by"])


def read_stored(data: object, what: str, build: Callable[[dict[str, Any]], T]) -> T:
    """``build`` applied to a stored ``what`` (a `to_dict` form, replayed row by row); anything
    wrong with it is an InvalidState that names it."""
    checked = check_format(data, what, FORMAT)
    try:
        return build(checked)
    except InvalidState:
        raise
    except (RulesError, KeyError, TypeError) as error:
        raise InvalidState(f"not a {what}: {error}") from None


class ScoreRow(Protocol):
    """A row of a variant's score sheet: who won it (a seat or a team) and the running totals."""

    @property
    def winner(self) -> int | None: ...

    @property
    def totals(self) -> tuple[int, ...]: ...


def sheet_totals(rows: Sequence[ScoreRow], sides: int) -> tuple[int, ...]:
    """The running totals after the last row, by side (seat or team)."""
    return rows[-1].totals if rows else (0,) * sides


def sheet_wins(rows: Sequence[ScoreRow], sides: int) -> tuple[int, ...]:
    """The rows each side won (deals, or partnership rounds): one box each."""
    won = [0] * sides
    for row in rows:
        if row.winner is not None:
            won[row.winner] += 1
    return tuple(won)


def sheet_winner(rows: Sequence[ScoreRow], target: int) -> int | None:
    """The side whose won row took it to ``target``: the game is over."""
    last = rows[-1].winner if rows else None
    if last is None or rows[-1].totals[last] < target:
        return None
    return last
