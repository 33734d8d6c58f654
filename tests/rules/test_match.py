"""The match: score sheet, dealer rotation, end of the match and final scores with bonuses."""

from __future__ import annotations

import dataclasses
import json

import pytest

from rules import (
    CARDS,
    RULESETS,
    DealRecord,
    IllegalMove,
    InvalidState,
    Match,
    RulesError,
    Ruleset,
    SeatScore,
)
from tests.rules.crafting import dead_deal, knock_deal

PLAYGRIDIA, CLASSIC, REINO = RULESETS["playgridia"], RULESETS["classic"], RULESETS["reino"]
TO_100 = Ruleset(name="playgridia-100", target=100)

GIN_HAND = "AS 2S 3S 4S 8H 8D 8C JD QD KD"
BIG_GIN_HAND = "AS 2S 3S 4S 8H 8D 8C JD QD KD"  # + the 5S drawn makes 11 melded cards
KNOCK_5_HAND = "AS 2S 3S 8H 8D 8C JD QD KD 5H"
AGAINST_KNOCK_5 = {  # defender hands against KNOCK_5_HAND, by the defender's deadwood
    10: "2C 3C 4C 6S 6H 6D 9C TC JC KC",
    5: "2C 3C 4C 6S 6H 6D 9C TC JC 5S",
}
AGAINST_GIN = {  # defender hands against GIN_HAND, by the defender's deadwood
    22: "2C 3C 4C 5C 6S 6H 6D KC 9C 3H",
    40: "2C 3C 4C 7S 7H 7D KC QH TS JH",
    45: "9S 9H 9D KC QH TS 7C 5H 2C AH",
}


def knock(
    match: Match, knocker: int, knocker_hand: str, defender_hand: str, *, big_gin: bool = False
) -> Match:
    """Play and record a deal dealt by the match's next dealer in which ``knocker`` knocks."""
    deal = knock_deal(match.ruleset, match.dealer, knocker, knocker_hand, defender_hand, big_gin=big_gin)
    return match.record(deal)


def gin(match: Match, seat: int, defender_deadwood: int) -> Match:
    return knock(match, seat, GIN_HAND, AGAINST_GIN[defender_deadwood])


def knock_5(match: Match, seat: int, defender_deadwood: int) -> Match:
    return knock(match, seat, KNOCK_5_HAND, AGAINST_KNOCK_5[defender_deadwood])


def dead(match: Match) -> Match:
    return match.record(dead_deal(match.ruleset, match.dealer))


def sheet(match: Match) -> list[tuple[int, int]]:
    return [record.totals for record in match.score_sheet]


def test_the_worked_score_sheet_to_100():
    match = Match.new(TO_100, first_dealer=1)
    match = knock(match, 0, "7S 7H 7D 4C 5C 6C JH QH KH 3D", "9S 9H 9D 2H 3H 4H 7C 3C QS 5D")  # 12
    match = knock_5(match, 1, 10)  # 5
    match = dead(match)
    match = knock_5(match, 1, 5)  # tie: seat 0 undercuts for 25
    match = gin(match, 1, 22)  # 25 + 22
    assert not match.is_over and match.winner is None and match.final_scores is None
    match = gin(match, 0, 40)  # 25 + 40
    assert sheet(match) == [(12, 0), (12, 5), (12, 5), (37, 5), (37, 52), (102, 52)]
    outcomes = [(r.outcome, r.winner, r.points) for r in match.score_sheet]
    assert outcomes == [
        ("knock", 0, 12),
        ("knock", 1, 5),
        ("dead", None, 0),
        ("undercut", 0, 25),
        ("gin", 1, 47),
        ("gin", 0, 65),
    ]
    assert [r.dealer for r in match.score_sheet] == [1, 0, 1, 1, 0, 1]
    assert (match.is_over, match.winner, match.totals, match.deals_won) == (True, 0, (102, 52), (3, 2))
    assert match.final_scores == (SeatScore(102, 0, 0, 3), SeatScore(52, 0, 0, 2))
    with pytest.raises(IllegalMove, match="the match is over"):
        dead(match)
    with pytest.raises(IllegalMove, match="the match is over"):
        match.next_deal()


def test_playgridia_is_a_single_deal_by_default():
    match = Match.new(PLAYGRIDIA, first_dealer=0)
    match = dead(match)
    assert not match.is_over and match.dealer == 0
    match = knock_5(match, 0, 10)
    assert (match.is_over, match.winner, match.totals) == (True, 0, (5, 0))
    scores = match.final_scores
    assert scores is not None and [score.total for score in scores] == list(match.totals)


def test_a_single_deal_match_is_won_even_by_a_small_knock():
    match = knock_5(Match.new(PLAYGRIDIA, first_dealer=1), 0, 10)
    assert (match.is_over, match.winner, match.totals) == (True, 0, (5, 0))


# -- who deals ------------------------------------------------------------------------------


def test_playgridia_alternates_the_dealer_after_a_scored_deal():
    match = Match.new(TO_100, first_dealer=0)
    match = knock_5(match, 0, 10)  # the dealer wins: the other seat deals next anyway
    assert match.dealer == 1
    match = knock_5(match, 0, 10)
    assert match.dealer == 0


@pytest.mark.parametrize("ruleset", [CLASSIC, REINO])
def test_classic_and_reino_the_winner_deals_next(ruleset):
    match = Match.new(ruleset, first_dealer=0)
    match = knock_5(match, 0, 10)  # the dealer wins and deals again
    assert match.dealer == 0
    match = knock_5(match, 0, 5)  # undercut: seat 1 wins and deals
    assert match.dealer == 1
    assert match.next_deal(CARDS).dealer == 1


@pytest.mark.parametrize("ruleset", list(RULESETS.values()))
def test_after_a_dead_deal_the_same_dealer_deals_again(ruleset):
    for first in (0, 1):
        match = dead(Match.new(ruleset, first_dealer=first))
        assert match.dealer == first and match.totals == (0, 0) and not match.is_over
        assert match.score_sheet[0].is_dead


def test_the_first_dealer_is_drawn_at_random_when_not_given():
    dealers = {Match.new(PLAYGRIDIA).first_dealer for _ in range(200)}
    assert dealers == {0, 1}


# -- final scores -----------------------------------------------------------------------------


def test_classic_shutout_200_and_20_per_deal_won():
    match = Match.new(CLASSIC, first_dealer=0)
    match = gin(match, 1, 40)  # 20 + 40
    assert match.dealer == 1
    match = gin(match, 1, 40)
    assert (match.is_over, match.winner, match.totals) == (True, 1, (0, 120))
    assert match.final_scores == (SeatScore(0, 0, 0, 0), SeatScore(120, 200, 40, 2))
    assert [score.total for score in match.final_scores] == [0, 360]


def test_classic_game_bonus_100_when_the_loser_scored():
    match = Match.new(CLASSIC, first_dealer=1)
    match = knock_5(match, 0, 10)  # 5 to seat 0
    match = gin(match, 1, 40)
    match = gin(match, 1, 40)
    assert (match.winner, match.totals) == (1, (5, 120))
    assert match.final_scores == (SeatScore(5, 0, 20, 1), SeatScore(120, 100, 40, 2))
    assert [score.total for score in match.final_scores] == [25, 260]


def test_reino_big_gin_and_25_per_deal_won():
    match = Match.new(REINO, first_dealer=0)
    deal = knock_deal(REINO, 0, 1, BIG_GIN_HAND, AGAINST_GIN[45], big_gin=True, stock="5S")
    assert deal.outcome == "big_gin"
    match = match.record(deal)  # 31 + 45
    match = knock_5(match, 0, 10)  # 5
    match = gin(match, 1, 40)  # 25 + 40
    assert [r.outcome for r in match.score_sheet] == ["big_gin", "knock", "gin"]
    assert (match.is_over, match.winner, match.totals) == (True, 1, (5, 141))
    assert match.final_scores == (SeatScore(5, 0, 25, 1), SeatScore(141, 100, 50, 2))


def test_per_deal_bonus_does_not_count_toward_the_target():
    ruleset = Ruleset(name="short", target=30, per_deal_bonus=25, next_dealer="winner")
    match = knock_5(Match.new(ruleset, first_dealer=0), 0, 10)
    match = knock_5(match, 0, 10)
    assert match.totals == (10, 0) and not match.is_over


@pytest.mark.parametrize(("target", "gins"), [(50, 2), (100, 3), (150, 4), (250, 6)])
def test_any_target_ends_the_match_at_the_first_total_reaching_it(target, gins):
    """A table may play to any target: each gin here scores 25 + 22 = 47."""
    match = Match.new(dataclasses.replace(PLAYGRIDIA, target=target), first_dealer=0)
    for _ in range(gins - 1):
        match = gin(match, 0, 22)
    assert not match.is_over and match.totals[0] == 47 * (gins - 1) < target
    match = gin(match, 0, 22)
    assert (match.is_over, match.winner, match.totals) == (True, 0, (47 * gins, 0))


# -- recording ------------------------------------------------------------------------------


def test_record_refuses_an_unfinished_deal_or_the_wrong_dealer_or_rules():
    match = Match.new(CLASSIC, first_dealer=0)
    with pytest.raises(IllegalMove, match="not over"):
        match.record(match.next_deal())
    with pytest.raises(IllegalMove, match="seat 0 deals"):
        match.record(dead_deal(CLASSIC, 1))
    with pytest.raises(IllegalMove, match="reino rules"):
        match.record(dead_deal(REINO, 0))


def test_record_score_checks_the_row():
    match = Match.new(TO_100, first_dealer=0)
    for row in [
        ("dead", 0, 0),
        ("dead", None, 3),
        ("gin", None, 10),
        ("knock", 2, 3),
        ("win", 0, 3),
        ("knock", 0, -1),
    ]:
        with pytest.raises(RulesError):
            match.record_score(*row)
    assert match.record_score("gin", 1, 40, knocker=1).totals == (0, 40)


def test_resign_and_forfeit_end_the_match():
    match = gin(Match.new(CLASSIC, first_dealer=0), 1, 40)
    resigned = match.resign(1)
    assert (resigned.is_over, resigned.winner, resigned.ended_by, resigned.leaver) == (True, 0, "resign", 1)
    assert resigned.final_scores == (SeatScore(0, 100, 0, 0), SeatScore(60, 0, 20, 1))
    forfeited = match.resign(0, "forfeit")
    assert (forfeited.winner, forfeited.ended_by) == (1, "forfeit")
    with pytest.raises(IllegalMove, match="the match is over"):
        resigned.resign(0)
    with pytest.raises(RulesError):
        match.resign(0, "bored")
    with pytest.raises(ValueError, match="seat"):
        match.resign(2)


def test_a_match_is_an_immutable_value():
    match = Match.new(CLASSIC, first_dealer=0)
    after = dead(match)
    assert match.score_sheet == () and len(after.score_sheet) == 1
    with pytest.raises(AttributeError):
        match.first_dealer = 1  # type: ignore[misc]


# -- serialization ----------------------------------------------------------------------------


def _played_match() -> Match:
    match = Match.new(TO_100, first_dealer=1)
    match = knock(match, 0, "7S 7H 7D 4C 5C 6C JH QH KH 3D", "9S 9H 9D 2H 3H 4H 7C 3C QS 5D")
    return knock_5(dead(match), 0, 10)


def test_to_dict_round_trips_through_json():
    for match in (Match.new(CLASSIC, 0), _played_match(), _played_match().resign(1, "forfeit")):
        data = json.loads(json.dumps(match.to_dict()))
        assert Match.from_dict(data) == match
    row = _played_match().to_dict()["deals"][0]
    assert row == {
        "dealer": 1,
        "outcome": "knock",
        "winner": 0,
        "points": 12,
        "knocker": 0,
        "totals": [12, 0],
        "games": [],  # Hollywood scoring's three games only
    }
    assert DealRecord(1, "knock", 0, 12, 0, (12, 0)).to_dict() == row


def _tampered(path: tuple[str | int, ...], value: object) -> dict[str, object]:
    data = _played_match().to_dict()
    target = data
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return data


@pytest.mark.parametrize(
    ("data", "problem"),
    [
        ("match", "must be a JSON object"),
        ({"format": 7}, "unsupported match format 7"),
        (_tampered(("deals", 0, "totals"), [13, 0]), "deal 1: the totals should be \\[12, 0\\]"),
        (_tampered(("deals", 1, "dealer"), 1), "deal 2: seat 0 dealt it"),
        (_tampered(("deals", 1, "outcome"), "win"), "outcome"),
        (_tampered(("deals", 1), "row"), "deal 2: a row must be an object"),
        (_tampered(("ruleset", "target"), -5), "target"),
        (_tampered(("first_dealer",), 5), "first_dealer"),
        (_tampered(("ended_by",), "resign"), "the resigning seat must be seat 0 or 1"),
        (_tampered(("deals",), None), "not a match"),
    ],
)
def test_from_dict_refuses_a_tampered_record(data, problem):
    with pytest.raises(InvalidState, match=problem):
        Match.from_dict(data)


def test_from_dict_refuses_rows_after_the_end():
    data = _played_match().to_dict()
    single = Ruleset(name="single").to_dict()
    data["ruleset"] = single
    with pytest.raises(InvalidState, match="the match is over"):
        Match.from_dict(data)
