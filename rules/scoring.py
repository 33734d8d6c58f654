"""How a deal ends and what it scores: the outcome names and the one points function.

The engine's showdown scores a knock with `knock_end`, and the bots' play-outs and estimates
call the same functions, so a rule set's bonuses and the Oklahoma multiplier count the same
everywhere. Hollywood scoring changes no deal's points: the points `deal_points` gives are
entered in up to three games at once (rules/hollywood.py).
"""

from __future__ import annotations

from typing import Final, Literal

from .cards import Card
from .ruleset import Ruleset

Outcome = Literal["knock", "gin", "big_gin", "undercut"]  # a scored deal (OUTCOMES)
DealOutcome = Literal[Outcome, "dead"]  # any deal's end (ALL_OUTCOMES)
KNOCK: Final = "knock"  # the knocker had less deadwood than the defender after layoffs
GIN: Final = "gin"  # a knock with no deadwood
BIG_GIN: Final = "big_gin"  # all 11 cards melded, no discard (where the rule set plays it)
UNDERCUT: Final = "undercut"  # the defender had as little deadwood as the knocker, or less
DEAD: Final = "dead"  # the stock ran out: nobody scores
OUTCOMES: tuple[Outcome, ...] = (KNOCK, GIN, BIG_GIN, UNDERCUT)  # a scored deal
ALL_OUTCOMES: tuple[str, ...] = (*OUTCOMES, DEAD)


def deal_points(
    ruleset: Ruleset, outcome: str, knocker_deadwood: int, defender_deadwood: int, multiplier: int = 1
) -> int:
    """The points the winner of a deal scores (RULES.md): a won knock D − K, gin the gin bonus
    + D, big gin its bonus + D, an undercut (K − D) + the undercut bonus; all times the deal's
    multiplier (Oklahoma: 2 under a spade upcard). K and D are the knocker's and the defender's
    deadwood, D after layoffs for a knock or an undercut, before any for gin or big gin.
    A dead deal scores 0."""
    if outcome == KNOCK:
        points = defender_deadwood - knocker_deadwood
    elif outcome == GIN:
        points = ruleset.gin_bonus + defender_deadwood
    elif outcome == BIG_GIN:
        points = (ruleset.big_gin_bonus or 0) + defender_deadwood
    elif outcome == UNDERCUT:
        points = knocker_deadwood - defender_deadwood + ruleset.undercut_bonus
    elif outcome == DEAD:
        return 0
    else:
        raise ValueError(f"outcome must be one of {', '.join(ALL_OUTCOMES)}, not {outcome!r}")
    return points * multiplier


def knock_outcome(knocker_deadwood: int, defender_deadwood: int) -> Outcome:
    """How a knock of 10 cards ends: gin without deadwood, else a knock won when the defender
    keeps more deadwood after layoffs, else an undercut (a tie is one)."""
    if knocker_deadwood == 0:
        return GIN
    return KNOCK if defender_deadwood > knocker_deadwood else UNDERCUT


def knock_end(
    ruleset: Ruleset, knocker_deadwood: int, defender_deadwood: int, multiplier: int = 1
) -> tuple[Outcome, bool, int]:
    """(outcome, whether the knocker scores, points) of a knock of 10 cards."""
    outcome = knock_outcome(knocker_deadwood, defender_deadwood)
    points = deal_points(ruleset, outcome, knocker_deadwood, defender_deadwood, multiplier)
    return outcome, outcome != UNDERCUT, points


def deal_terms(ruleset: Ruleset, upcard: Card) -> tuple[int, int]:
    """(knock limit, score multiplier) of a deal: Oklahoma takes them from the first upcard
    (an ace: gin only; a spade doubles the deal), other rule sets use their own limit, 1."""
    if not ruleset.oklahoma:
        return ruleset.knock_limit, 1
    limit = 0 if upcard.rank == 1 else upcard.points
    return limit, 2 if upcard.suit == "S" else 1
