import dataclasses

import pytest

from rules.errors import InvalidRuleset
from rules.ruleset import RULESETS, Ruleset


def test_the_three_presets_match_the_rules_table():
    playgridia, classic, reino = RULESETS["playgridia"], RULESETS["classic"], RULESETS["reino"]
    assert [r.knock_limit for r in (playgridia, classic, reino)] == [10, 10, 10]
    assert [r.gin_bonus for r in (playgridia, classic, reino)] == [25, 20, 25]
    assert [r.big_gin_bonus for r in (playgridia, classic, reino)] == [None, None, 31]
    assert [r.undercut_bonus for r in (playgridia, classic, reino)] == [25, 10, 25]
    assert [r.offer_round for r in (playgridia, classic, reino)] == [False, True, True]
    assert [r.next_dealer for r in (playgridia, classic, reino)] == ["alternate", "winner", "winner"]
    assert [r.target for r in (playgridia, classic, reino)] == [None, 100, 100]
    assert [r.game_bonus for r in (playgridia, classic, reino)] == [0, 100, 100]
    assert [r.shutout_bonus for r in (playgridia, classic, reino)] == [0, 200, 200]
    assert [r.per_deal_bonus for r in (playgridia, classic, reino)] == [0, 20, 25]
    assert [r.knock_face_down for r in (playgridia, classic, reino)] == [False, True, False]


def test_to_100_option_is_a_replace():
    to_100 = dataclasses.replace(RULESETS["playgridia"], target=100)
    assert to_100.target == 100 and not to_100.single_deal
    assert RULESETS["playgridia"].single_deal


@pytest.mark.parametrize(
    ("option", "value", "message"),
    [
        ("gin_bonus", -1, "gin_bonus must be an integer from 0 to 1000"),
        ("knock_limit", 11, "knock_limit must be an integer from 0 to 10"),
        ("knock_limit", "10", "knock_limit must be an integer"),
        ("target", 0, "target must be null"),
        ("next_dealer", "loser", "next_dealer must be 'alternate' or 'winner'"),
        ("offer_round", 1, "offer_round must be true or false"),
        ("big_gin_bonus", -5, "big_gin_bonus must be null or an integer"),
    ],
)
def test_nonsense_values_are_refused_with_a_clear_message(option, value, message):
    with pytest.raises(InvalidRuleset, match=message):
        dataclasses.replace(RULESETS["playgridia"], **{option: value})


def test_dict_round_trip_and_unknown_options():
    for ruleset in RULESETS.values():
        assert Ruleset.from_dict(ruleset.to_dict()) == ruleset
    with pytest.raises(InvalidRuleset, match="unknown rule set option"):
        Ruleset.from_dict({"name": "x", "jokers": 2})
    with pytest.raises(InvalidRuleset, match="needs a name"):
        Ruleset.from_dict({"knock_limit": 5})
