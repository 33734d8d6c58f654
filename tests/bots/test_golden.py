"""Golden play: every bot, seeded, makes the very moves it made when this file was written.

A refactoring of the bots must not change how they play. Each case is one deal of a fixed
shuffle between two bots with fixed seeds at a fixed match score; the expected moves were
recorded once from the code of the time and are never regenerated. LUNA also gives its move at
the positions of the other bots' deals where the player to move could knock, and at every eighth
position, so that its knock decisions are covered more than its own deals alone reach.

One case changed once, on purpose, after the restructuring it guarded: when the play-outs came
to score a knock exactly as the engine does (case 1, LUNA's knock in classic).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import pytest

from bots import ARENA_BOTS, Luna, MatchContext
from bots.knowledge import Knowledge
from rules import CARDS, RULESETS, Deal


@dataclass(frozen=True, slots=True)
class Case:
    ruleset: str
    bots: tuple[str, str]  # seat 0, seat 1
    score: tuple[int, int, int | None]  # seat 0's total, seat 1's total, the target


CASES = (
    Case("playgridia", ("luna", "carmen"), (0, 0, None)),
    Case("classic", ("luna", "carmen"), (40, 60, 100)),
    Case("reino", ("luna", "carmen"), (80, 85, 100)),
    Case("classic", ("luna", "simple"), (0, 0, 100)),
    Case("playgridia", ("carmen", "tito"), (0, 0, 100)),
    Case("classic", ("tito", "simple"), (0, 0, 100)),
    Case("reino", ("simple", "carmen"), (50, 90, 100)),
    Case("reino", ("tito", "carmen"), (0, 0, 100)),
)


def context(case: Case, seat: int) -> MatchContext:
    first, second, target = case.score
    return MatchContext(first, second, target) if seat == 0 else MatchContext(second, first, target)


def initial_deal(number: int) -> Deal:
    deck = list(CARDS)
    random.Random(f"golden:{number}").shuffle(deck)
    return Deal.new(RULESETS[CASES[number].ruleset], number % 2, deck)


def played(number: int) -> tuple[list[Deal], str]:
    """Every position of case ``number``'s deal (the finished deal last) and its moves."""
    case = CASES[number]
    bots = [ARENA_BOTS[name]() for name in case.bots]
    rngs = [random.Random(f"golden:{number}:{seat}") for seat in (0, 1)]
    deal = initial_deal(number)
    positions, actions = [deal], []
    while not deal.is_over:
        seat = deal.to_play
        assert seat is not None
        action = bots[seat].choose(deal.view(seat), rngs[seat], context(case, seat))
        deal, _ = deal.apply(action, seat)
        positions.append(deal)
        actions.append(str(action))
    return positions, ", ".join(actions)


def luna_opinions(number: int, positions: list[Deal]) -> str:
    """LUNA's move, seeded by the position's number, where the player to move may knock or at
    every eighth position with a choice: ``index:move`` items (none in LUNA's own deals)."""
    case = CASES[number]
    if "luna" in case.bots:
        return ""
    luna = Luna()
    opinions = []
    for index, deal in enumerate(positions[:-1]):
        seat = deal.to_play
        assert seat is not None
        view = deal.view(seat)
        if len(view.legal_actions) > 1 and (Knowledge.from_view(view).may_knock or index % 8 == 0):
            action = luna.choose(view, random.Random(f"golden-luna:{number}:{index}"), context(case, seat))
            opinions.append(f"{index}:{action}")
    return ", ".join(opinions)


GOLDEN_MOVES = (
    # 0: playgridia, luna against carmen: undercut
    (
        "take_discard, discard KH, draw_stock, discard TS, take_discard, discard KC, draw_stock, "
        "discard QH, draw_stock, discard 9C, take_discard, discard QD, draw_stock, discard 8H, "
        "take_discard, discard JD, draw_stock, discard 5D, draw_stock, discard QC, draw_stock, "
        "discard 5C, draw_stock, discard 6S, draw_stock, discard QS, draw_stock, discard 8C, "
        "draw_stock, discard KS, draw_stock, discard 7S, draw_stock, discard 7C, draw_stock, "
        "discard KD, draw_stock, discard 3H, take_discard, discard 8H, draw_stock, discard JC, "
        "draw_stock, discard 7H, draw_stock, knock 2D"
    ),
    # 1: classic, luna against carmen: knock (its knock since the play-outs score the arrangement
    # the engine shows, tests/bots/test_playout_scoring.py)
    (
        "pass, pass, draw_stock, discard 9H, draw_stock, discard QS, draw_stock, discard KS, "
        "draw_stock, discard QC, draw_stock, discard 9C, draw_stock, discard JS, draw_stock, "
        "discard QD, draw_stock, discard TD, take_discard, discard 8H, draw_stock, discard 8C, "
        "draw_stock, discard 7C, draw_stock, discard JC, draw_stock, discard TS, draw_stock, "
        "discard 7D, take_discard, discard 7S, draw_stock, discard 6H, draw_stock, discard 9S, "
        "draw_stock, discard 5S, take_discard, discard 6S, draw_stock, discard KC, draw_stock, "
        "discard TH, draw_stock, discard 4H, draw_stock, knock 8S"
    ),
    # 2: reino, luna against carmen: knock
    (
        "take_upcard, discard 8S, draw_stock, discard KH, draw_stock, discard 6S, draw_stock, "
        "discard 7C, draw_stock, discard JS, take_discard, discard 6C, draw_stock, discard 9D, "
        "draw_stock, discard 7S, draw_stock, discard 5S, take_discard, discard 5H, draw_stock, "
        "discard 9C, draw_stock, discard 4D, draw_stock, knock 2D"
    ),
    # 3: classic, luna against simple: gin
    (
        "pass, pass, draw_stock, discard QC, take_discard, discard KS, draw_stock, discard KH, "
        "draw_stock, discard TC, draw_stock, discard JH, draw_stock, discard KD, draw_stock, "
        "discard JS, draw_stock, discard TD, draw_stock, discard 9H, take_discard, discard 7H, "
        "draw_stock, discard TS, draw_stock, discard 7D, draw_stock, discard QS, take_discard, "
        "discard 6D, draw_stock, discard 6C, draw_stock, discard TH, draw_stock, discard 5D, "
        "draw_stock, discard 6S, draw_stock, knock 4C"
    ),
    # 4: playgridia, carmen against tito: knock
    (
        "draw_stock, discard QC, draw_stock, discard QD, draw_stock, discard 9S, draw_stock, "
        "discard JC, draw_stock, discard JH, draw_stock, discard JS, draw_stock, discard AH, "
        "draw_stock, discard 9D, draw_stock, knock 6S"
    ),
    # 5: classic, tito against simple: knock
    (
        "pass, pass, draw_stock, discard QC, draw_stock, discard KD, draw_stock, discard KH, "
        "draw_stock, discard JC, take_discard, discard QS, draw_stock, discard QH, draw_stock, "
        "discard 8S, draw_stock, discard 7H, draw_stock, discard AS, draw_stock, knock 4S"
    ),
    # 6: reino, simple against carmen: knock
    (
        "pass, pass, draw_stock, discard KH, draw_stock, discard JC, take_discard, discard 7H, "
        "draw_stock, discard TD, draw_stock, discard TH, draw_stock, discard JH, take_discard, "
        "discard 7C, draw_stock, discard KD, draw_stock, discard 6H, draw_stock, discard 9C, "
        "draw_stock, discard QC, draw_stock, discard 8H, draw_stock, discard 9H, draw_stock, "
        "discard 8D, draw_stock, discard QH, draw_stock, discard 7S, draw_stock, discard JH, "
        "draw_stock, discard 7D, draw_stock, discard 2S, take_discard, knock 4H"
    ),
    # 7: reino, tito against carmen: knock
    (
        "pass, pass, draw_stock, discard JC, draw_stock, discard KS, draw_stock, discard QS, "
        "draw_stock, discard KC, draw_stock, discard QH, draw_stock, discard JH, draw_stock, "
        "discard 9D, draw_stock, discard QD, draw_stock, discard 8C, draw_stock, discard 8D, "
        "draw_stock, knock 7H"
    ),
)

# by case: LUNA's move at the positions of the other bots' deals
LUNA_OPINIONS = {
    4: ("0:take_discard, 8:draw_stock, 13:knock 6S, 16:draw_stock, 17:discard 6S"),
    5: ("0:pass, 8:draw_stock, 16:draw_stock, 21:knock 4S"),
    6: ("0:pass, 8:draw_stock, 16:draw_stock, 24:draw_stock, 32:draw_stock, 40:take_discard, 41:discard 4H"),
    7: ("0:pass, 8:draw_stock, 16:take_discard, 23:knock 7H"),
}


# The cases whose LUNA opinions take some 4 to 7 s each run with the slow tests.
SLOW_CASES = {0, 1, 2, 3}


@pytest.mark.parametrize(
    "number",
    [
        pytest.param(number, marks=pytest.mark.slow) if number in SLOW_CASES else number
        for number in range(len(CASES))
    ],
)
def test_the_bots_play_the_golden_moves(number: int) -> None:
    positions, actions = played(number)
    assert actions == GOLDEN_MOVES[number]
    assert luna_opinions(number, positions) == LUNA_OPINIONS.get(number, "")
