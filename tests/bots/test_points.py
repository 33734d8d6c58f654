"""The bots score a deal with the engine's points function (rules.scoring); where they keep an
estimate on purpose, this shows where and why."""

from __future__ import annotations

import pytest

from bots.carmen import least_undercut
from bots.matchodds import GIN_DEADWOOD, KNOCK_POINTS, UNDERCUT_MARGIN, deal_spread, match_chance
from rules import RULESETS, Card, Deal
from rules.scoring import GIN, KNOCK, UNDERCUT, deal_points
from tests.rules.crafting import crafted_deck


def test_the_match_odds_score_their_typical_deals_with_the_engines_function():
    # The estimate (kept for speed: the table of chances is built once per rule set and target,
    # for every decision, and cannot play deals out) is in the ranges of deadwood, not the points.
    classic = RULESETS["classic"]
    spread = deal_spread(classic.gin_bonus, classic.undercut_bonus)
    expected = [
        *(deal_points(classic, KNOCK, 0, difference) for difference in KNOCK_POINTS),
        *(deal_points(classic, GIN, 0, deadwood) for deadwood in GIN_DEADWOOD),
        *(deal_points(classic, UNDERCUT, margin, 0) for margin in UNDERCUT_MARGIN),
    ]
    assert [points for _, points in spread] == expected
    assert sum(chance for chance, _ in spread) == pytest.approx(1.0)


def test_the_match_odds_count_the_oklahoma_multiplier():
    classic = RULESETS["classic"]
    plain = deal_spread(classic.gin_bonus, classic.undercut_bonus)
    oklahoma = deal_spread(classic.gin_bonus, classic.undercut_bonus, True)
    single, doubled = oklahoma[: len(plain)], oklahoma[len(plain) :]
    assert [points for _, points in single] == [points for _, points in plain]
    assert [points for _, points in doubled] == [2 * points for _, points in plain]
    # a spade upcard: a quarter of the deals count double
    assert sum(chance for chance, _ in doubled) == pytest.approx(13 / 52)
    assert sum(chance for chance, _ in oklahoma) == pytest.approx(1.0)
    # doubled deals bring the target nearer: a lead is worth less than in plain classic
    assert match_chance(80, 0, 100, 20, 10, oklahoma=True) < match_chance(80, 0, 100, 20, 10)


@pytest.mark.parametrize(("upcard", "points"), [("7S", 20), ("7H", 10)])
def test_the_undercut_a_bot_fears_is_the_engines_least_one(upcard, points):
    oklahoma = RULESETS["oklahoma"]
    hands = {1: "AS 2S 3S 4S 8H 8D 8C JD QD KD", 0: "9C 9H 9D KC QH TS 7C 5H 2C AH"}
    deal = Deal.new(oklahoma, 0, crafted_deck(0, hands, upcard, "7D"))
    assert Card.parse(upcard) == deal.view(1).discard_pile[-1]
    assert least_undercut(deal.view(1)) == points  # classic's 10, doubled under a spade
