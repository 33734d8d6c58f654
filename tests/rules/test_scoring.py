"""The one points function (rules.scoring) against examples worked by hand from RULES.md,
for every rule set, with the Oklahoma multiplier and Hollywood's three games."""

from __future__ import annotations

import dataclasses

import pytest

from rules import RULESETS, Card, parse_cards, showdown
from rules.hollywood import new_games, score_win
from rules.scoring import (
    ALL_OUTCOMES,
    BIG_GIN,
    DEAD,
    GIN,
    KNOCK,
    OUTCOMES,
    UNDERCUT,
    deal_points,
    deal_terms,
    knock_end,
)

PLAYGRIDIA, CLASSIC, REINO, OKLAHOMA = (
    RULESETS[name] for name in ("playgridia", "classic", "reino", "oklahoma")
)
HOLLYWOOD = dataclasses.replace(CLASSIC, name="hollywood", hollywood=True)

# RULES.md's worked example: K = 3; 7C and 3C lay off, D = 15.
KNOCKER = "7S 7H 7D 4C 5C 6C JH QH KH 3D"
DEFENDER = "9S 9H 9D 2H 3H 4H 7C 3C QS 5D"


def test_the_outcomes_are_named_once():
    assert OUTCOMES == (KNOCK, GIN, BIG_GIN, UNDERCUT) == ("knock", "gin", "big_gin", "undercut")
    assert (*OUTCOMES, DEAD) == ALL_OUTCOMES


@pytest.mark.parametrize(
    ("ruleset", "outcome", "knocker", "defender", "points"),
    [
        # playgridia, RULES.md's worked examples
        (PLAYGRIDIA, KNOCK, 3, 15, 12),
        (PLAYGRIDIA, GIN, 0, 45, 70),  # 25 + 45
        (PLAYGRIDIA, UNDERCUT, 10, 2, 33),  # (10 - 2) + 25
        (PLAYGRIDIA, UNDERCUT, 5, 5, 25),  # a tie is an undercut
        (PLAYGRIDIA, GIN, 0, 22, 47),  # the score sheet's 25 + 22
        # classic: gin 20, undercut 10
        (CLASSIC, KNOCK, 3, 15, 12),
        (CLASSIC, GIN, 0, 45, 65),
        (CLASSIC, UNDERCUT, 10, 2, 18),
        (CLASSIC, UNDERCUT, 5, 5, 10),
        # reino: big gin 31 + D
        (REINO, BIG_GIN, 0, 40, 71),
        (REINO, GIN, 0, 40, 65),
        (REINO, UNDERCUT, 8, 6, 27),
        # a dead deal scores nothing anywhere
        (PLAYGRIDIA, DEAD, 0, 0, 0),
        (REINO, DEAD, 0, 0, 0),
    ],
)
def test_deal_points_of_worked_examples(ruleset, outcome, knocker, defender, points):
    assert deal_points(ruleset, outcome, knocker, defender) == points


def test_oklahoma_a_spade_upcard_doubles_the_deal():
    # classic's bonuses; 7S up: knock limit 7, double. Gin against 45: (20 + 45) x 2 = 130
    # (tests/rules/test_hollywood.py plays this deal through).
    assert deal_terms(OKLAHOMA, Card.parse("7S")) == (7, 2)
    assert deal_points(OKLAHOMA, GIN, 0, 45, 2) == 130
    # the undercut of a tie under a spade: 10 x 2; a won knock 15 - 3 under a spade: 24
    assert deal_points(OKLAHOMA, UNDERCUT, 5, 5, 2) == 20
    assert deal_points(OKLAHOMA, KNOCK, 3, 15, 2) == 24
    # another upcard: its value is the limit (an ace: gin only, a face card 10), single score
    assert deal_terms(OKLAHOMA, Card.parse("AH")) == (0, 1)
    assert deal_terms(OKLAHOMA, Card.parse("KD")) == (10, 1)
    assert deal_points(OKLAHOMA, KNOCK, 3, 15, 1) == 12
    # the other rule sets keep their own limit and never double
    assert deal_terms(CLASSIC, Card.parse("7S")) == (10, 1)


def test_the_engine_scores_a_knock_with_the_same_function():
    shown = showdown(PLAYGRIDIA, parse_cards(KNOCKER), parse_cards(DEFENDER))
    assert (shown.outcome, shown.points, shown.knocker_deadwood, shown.defender_deadwood) == (
        "knock",
        12,
        3,
        15,
    )
    assert knock_end(PLAYGRIDIA, 3, 15) == (KNOCK, True, 12)
    doubled = showdown(OKLAHOMA, parse_cards(KNOCKER), parse_cards(DEFENDER), knock_limit=7, multiplier=2)
    assert doubled.points == 24 == knock_end(OKLAHOMA, 3, 15, 2)[2]


def test_knock_end_decides_gin_knock_and_undercut():
    assert knock_end(PLAYGRIDIA, 0, 45) == (GIN, True, 70)
    assert knock_end(PLAYGRIDIA, 10, 2) == (UNDERCUT, False, 33)
    assert knock_end(PLAYGRIDIA, 5, 5) == (UNDERCUT, False, 25)
    assert knock_end(CLASSIC, 4, 9) == (KNOCK, True, 5)


def test_hollywood_scores_each_deal_as_its_rule_set_and_enters_it_in_several_games():
    # Hollywood changes no deal's points (classic's here) ...
    for outcome, knocker, defender in ((KNOCK, 3, 15), (GIN, 0, 45), (UNDERCUT, 10, 2)):
        assert deal_points(HOLLYWOOD, outcome, knocker, defender) == deal_points(
            CLASSIC, outcome, knocker, defender
        )
    # ... it enters them: seat 0's first win (knock, 12) in game 1, its second (gin, 65) in
    # games 1 and 2, its third (undercut, 18) in all three.
    games = new_games()
    for outcome, knocker, defender in ((KNOCK, 3, 15), (GIN, 0, 45), (UNDERCUT, 10, 2)):
        games = score_win(games, 0, deal_points(HOLLYWOOD, outcome, knocker, defender), 100)
    assert [game.totals for game in games] == [(95, 0), (83, 0), (18, 0)]


def test_an_unknown_outcome_is_refused():
    with pytest.raises(ValueError, match="outcome must be one of"):
        deal_points(PLAYGRIDIA, "schneider", 0, 0)
