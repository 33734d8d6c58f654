"""Whole matches through the HTTP API, one per rule set, watched by a spectator whose every
payload (and the opponent's) is scanned for hidden cards."""

from __future__ import annotations

import pytest

from rules import RULESETS
from tests.tables.helpers import ApiClient, play_match, seated_table


def _players(owner: ApiClient, other: ApiClient, owner_seat: int) -> dict[int, ApiClient]:
    return {owner_seat: owner, 1 - owner_seat: other}


def _check_final_scores(match: dict, ruleset) -> None:
    sheet = match["score_sheet"]
    totals = [0, 0]
    for row in sheet:
        if row["winner"] is not None:
            totals[row["winner"]] += row["points"]
        assert row["totals"] == totals
    assert match["totals"] == totals
    winner = match["winner"]
    assert winner == sheet[-1]["winner"]
    if ruleset.target is None:
        assert [row["outcome"] for row in sheet][-1] != "dead"
    else:
        assert (
            totals[winner]
            >= ruleset.target
            > max(row["totals"][winner] for row in sheet[:-1] or [{"totals": [0, 0]}])
        )
    loser_scored = totals[1 - winner] > 0
    game_bonus = ruleset.game_bonus if loser_scored else max(ruleset.game_bonus, ruleset.shutout_bonus)
    for seat, score in enumerate(match["final_scores"]):
        won = sum(1 for row in sheet if row["winner"] == seat)
        assert score["deal_points"] == totals[seat]
        assert score["deals_won"] == won
        assert score["deal_bonus"] == ruleset.per_deal_bonus * won
        assert score["game_bonus"] == (game_bonus if seat == winner else 0)
        assert score["total"] == totals[seat] + score["deal_bonus"] + score["game_bonus"]


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("ruleset", "target"),
    [
        # whole matches of random deals: 1 to 5 s for playgridia's one deal, 2 to 20 s to 100
        pytest.param("playgridia", None, marks=pytest.mark.slow),
        pytest.param("playgridia", 100, marks=pytest.mark.slow),
        pytest.param("classic", None, marks=pytest.mark.slow),
        pytest.param("reino", None, marks=pytest.mark.slow),
    ],
    ids=["playgridia-single", "playgridia-100", "classic-100", "reino-100"],
)
def test_full_match_between_two_accounts(alice, bob, ruleset, target):
    spectator = ApiClient(name="spectator")
    token = seated_table(alice, bob, ruleset=ruleset, target=target)
    started = alice.ok("post", f"/tables/{token}/start", {})
    assert spectator.state(token)["you"]["seat"] is None

    final = play_match(token, _players(alice, bob, started["you"]["seat"]), [spectator])

    match = final["match"]
    assert final["status"] == "match_over" and match["outcome"] == "completed"
    expected = (
        RULESETS[ruleset]
        if target is None
        else RULESETS[ruleset].__class__(**{**RULESETS[ruleset].to_dict(), "target": target})
    )
    _check_final_scores(match, expected)
    assert match["final_scores"] == bob.state(token)["match"]["final_scores"]
    if expected.target is None:
        assert len([row for row in match["score_sheet"] if row["outcome"] != "dead"]) == 1
