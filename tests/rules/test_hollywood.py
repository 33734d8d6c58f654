"""Hollywood scoring and the Oklahoma preset: worked examples, properties and random matches.

The Hollywood examples are written out by hand from the standard description (Hoyle's
"Hollywood Gin", Morehead & Mott-Smith; the same on pagat.com): a seat's first won deal goes in
game 1, its second in games 1 and 2, every later one in all three; each game closes at the
target with its own bonuses; later deals count only in games still open, and a seat shut out
of a closed game enters its next won deal as its first score in the next open game.
"""

from __future__ import annotations

import dataclasses
import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules import (
    CARDS,
    RULESETS,
    Deal,
    Game,
    IllegalMove,
    InvalidRuleset,
    InvalidState,
    Match,
    Ruleset,
    SeatScore,
)
from rules.hollywood import counting_games, new_games, score_win
from tests.rules.crafting import crafted_deck, play, start
from tests.rules.test_properties import choose

CLASSIC = RULESETS["classic"]
HOLLYWOOD = dataclasses.replace(CLASSIC, hollywood=True)  # game 100, shutout 200, 20 a deal won
BARE = Ruleset(name="bare", target=100, hollywood=True)  # playgridia to 100: no bonuses at all
A, B = 0, 1


def won(match: Match, *deals: tuple[int, int]) -> Match:
    """Record each (winner, points) as a won knock."""
    for winner, points in deals:
        match = match.record_score("knock", winner, points, winner)
    return match


def columns(match: Match) -> list[tuple[int, int]]:
    return [game.totals for game in match.games]


def closed_by(match: Match) -> list[int | None]:
    return [game.winner for game in match.games]


# -- worked examples --------------------------------------------------------------------------


def test_worked_example_three_games_under_classic_bonuses():
    match = Match.new(HOLLYWOOD, first_dealer=A)
    match = won(match, (A, 25))
    assert columns(match) == [(25, 0), (0, 0), (0, 0)]  # A's first win: game 1 only
    match = won(match, (A, 18))
    assert columns(match) == [(43, 0), (18, 0), (0, 0)]  # second: games 1 and 2
    match = won(match, (A, 36))
    assert columns(match) == [(79, 0), (54, 0), (36, 0)]  # third: all three
    match = won(match, (B, 30), (B, 20))  # B's first win in game 1, the second in games 1 and 2
    assert columns(match) == [(79, 50), (54, 20), (36, 0)]
    match = won(match, (A, 30))
    assert columns(match) == [(109, 50), (84, 20), (66, 0)] and closed_by(match) == [A, None, None]
    assert match.totals == (84, 20) and not match.is_over  # game 2 is now the game in play
    match = won(match, (B, 40))  # game 1 is closed: B's third win goes in games 2 and 3
    assert columns(match) == [(109, 50), (84, 60), (66, 40)]
    match = won(match, (A, 20))
    assert columns(match) == [(109, 50), (104, 60), (86, 40)] and closed_by(match) == [A, A, None]
    assert not match.is_over
    match = won(match, (B, 65))
    assert columns(match) == [(109, 50), (104, 60), (86, 105)] and closed_by(match) == [A, A, B]
    assert match.is_over
    # game 1: A 109 + 100 + 4 deals x 20 = 289, B 50 + 2 x 20 = 90
    # game 2: A 104 + 100 + 4 x 20 = 284,        B 60 + 2 x 20 = 100
    # game 3: A 86 + 3 x 20 = 146,                B 105 + 100 + 2 x 20 = 245
    assert [game.deals_won for game in match.games] == [(4, 2), (4, 2), (3, 2)]
    assert [tuple(score.total for score in scores) for scores in match.game_scores] == [
        (289, 90),
        (284, 100),
        (146, 245),
    ]
    assert match.final_scores == (SeatScore(299, 200, 220, 5), SeatScore(215, 100, 120, 4))
    assert match.winner == A and [score.total for score in match.final_scores] == [719, 435]
    with pytest.raises(IllegalMove, match="the match is over"):
        won(match, (B, 10))


def test_worked_example_a_shut_out_seat_starts_in_the_next_open_game():
    match = won(Match.new(HOLLYWOOD, first_dealer=A), (A, 60), (A, 50))
    assert columns(match) == [(110, 0), (50, 0), (0, 0)] and closed_by(match) == [A, None, None]
    match = won(match, (B, 30))  # B's first win: game 1 is closed, so it is B's first score in game 2
    assert columns(match) == [(110, 0), (50, 30), (0, 0)]
    match = won(match, (B, 25))
    assert columns(match) == [(110, 0), (50, 55), (0, 25)]
    match = won(match, (A, 50))  # A's third win: games 2 and 3
    assert columns(match) == [(110, 0), (100, 55), (50, 25)] and closed_by(match) == [A, A, None]
    match = won(match, (B, 80))
    assert columns(match) == [(110, 0), (100, 55), (50, 105)] and match.is_over
    # game 1 is a shutout: 110 + 200 + 2 x 20 = 350 to A, nothing to B
    assert [tuple(score.total for score in scores) for scores in match.game_scores] == [
        (350, 0),
        (240, 95),
        (70, 245),
    ]
    assert match.winner == A and [score.total for score in match.final_scores] == [660, 340]


def test_worked_example_equal_sums_go_to_the_seat_that_won_two_games():
    match = won(Match.new(BARE, first_dealer=A), (A, 100))  # closes game 1 in one deal
    match = won(match, (B, 150))  # B's first win: its first score in game 2, which it closes
    assert columns(match) == [(100, 0), (0, 150), (0, 0)] and closed_by(match) == [A, B, None]
    match = won(match, (B, 50), (A, 100))  # A's second win: its first score in game 3
    assert columns(match) == [(100, 0), (0, 150), (100, 50)] and match.is_over
    assert [score.total for score in match.final_scores] == [200, 200]
    assert match.winner == A  # games 1 and 3


def test_one_deal_may_close_two_games_and_a_dead_deal_counts_nowhere():
    match = won(Match.new(BARE, first_dealer=A), (A, 60), (A, 45))
    match = match.record_score("dead", None, 0)
    assert columns(match) == [(105, 0), (45, 0), (0, 0)] and match.dealer == A
    match = won(match, (A, 55))
    assert columns(match) == [(105, 0), (100, 0), (55, 0)] and closed_by(match) == [A, A, None]
    assert match.score_sheet[-1].games == ((105, 0), (100, 0), (55, 0))
    assert match.score_sheet[-1].totals == (160, 0)  # the row's plain running sum of points won


def test_a_resignation_gives_the_open_games_to_the_other_seat():
    match = won(Match.new(HOLLYWOOD, first_dealer=A), (A, 60), (A, 50), (B, 30)).resign(A)
    assert match.is_over and match.winner == B
    g1, g2, g3 = match.game_scores
    assert (g1[0].game_bonus, g1[1].game_bonus) == (200, 0)  # closed before: A's shutout stands
    assert (g2[0].total, g2[1].total) == (50 + 20, 30 + 100 + 20)
    assert (g3[0].total, g3[1].total) == (0, 200)  # nothing scored: a shutout for B


# -- the counting rule ---------------------------------------------------------------------------


def test_the_games_a_win_counts_in():
    games = new_games()
    assert counting_games(games, A) == (1,)
    games = score_win(games, A, 10, 100)
    assert counting_games(games, A) == (1, 2) and counting_games(games, B) == (1,)
    games = score_win(games, A, 10, 100)
    assert counting_games(games, A) == (1, 2, 3)
    closed = score_win(games, A, 85, 100)  # game 1 at 105, game 2 at 95
    assert [game.is_closed for game in closed] == [True, False, False]
    assert counting_games(closed, B) == (2,) and counting_games(closed, A) == (2, 3)
    assert Game(2, (5, 0), (1, 0)).to_dict() == {
        "number": 2,
        "totals": [5, 0],
        "deals_won": [1, 0],
        "closed": False,
        "winner": None,
    }


# -- the rule set and the record ----------------------------------------------------------------


def test_hollywood_needs_a_target_and_a_true_or_false_flag():
    with pytest.raises(InvalidRuleset, match="hollywood scoring plays three games to a target"):
        Ruleset(name="one-deal", hollywood=True)
    with pytest.raises(InvalidRuleset, match="hollywood must be true or false"):
        Ruleset(name="x", target=100, hollywood=1)  # type: ignore[arg-type]
    assert not any(ruleset.hollywood for ruleset in RULESETS.values())
    assert Ruleset.from_dict({**HOLLYWOOD.to_dict()}) == HOLLYWOOD
    old = {key: value for key, value in CLASSIC.to_dict().items() if key != "hollywood"}
    assert Ruleset.from_dict(old) == CLASSIC  # rule sets stored before the option read as before


def test_a_plain_match_is_unchanged():
    match = won(Match.new(CLASSIC, first_dealer=A), (A, 60), (B, 30))
    assert match.games == () and match.game_scores == ()
    assert match.totals == (60, 30) and match.score_sheet[-1].to_dict()["games"] == []


def test_the_record_round_trips_and_refuses_wrong_game_totals():
    match = won(Match.new(HOLLYWOOD, first_dealer=A), (A, 60), (B, 30), (A, 50))
    data = json.loads(json.dumps(match.to_dict()))
    assert data["deals"][2]["games"] == [[110, 30], [50, 0], [0, 0]]
    assert Match.from_dict(data) == match
    data["deals"][1]["games"] = [[60, 30], [0, 30], [0, 0]]
    with pytest.raises(InvalidState, match=r"deal 2: the games' totals should be \[\[60, 30\], \[0, 0\]"):
        Match.from_dict(data)


# -- properties ---------------------------------------------------------------------------------

wins = st.lists(st.tuples(st.sampled_from([A, B]), st.integers(0, 140)), max_size=40)


@settings(max_examples=300, deadline=None)
@given(deals=wins, target=st.integers(1, 300))
def test_properties_of_any_sequence_of_won_deals(deals, target):
    ruleset = Ruleset(
        name="h", target=target, hollywood=True, game_bonus=100, shutout_bonus=200, per_deal_bonus=20
    )
    match = Match.new(ruleset, first_dealer=A)
    entries = [0, 0]
    for winner, points in deals:
        if match.is_over:
            break
        before = match.games
        # A model of the rule: the seat's next step is one game past the later of its last game
        # and the last closed game; every open game up to that step counts.
        closed = sum(game.is_closed for game in before)
        step = max(entries[winner], closed) + 1
        expected = [game.number for game in before if not game.is_closed and game.number <= step]
        match = won(match, (winner, points))
        entries[winner] = max([entries[winner], *expected])
        changed = [old.number for old, new in zip(before, match.games, strict=True) if old != new]
        assert changed == expected
        for old, new in zip(before, match.games, strict=True):
            assert new.totals[1 - winner] == old.totals[1 - winner]
    for seat in (A, B):
        for earlier, later in zip(match.games, match.games[1:], strict=False):
            if not earlier.is_closed:  # a later game never leads an earlier open one
                assert later.totals[seat] <= earlier.totals[seat] and not later.is_closed
        assert sum(game.deals_won[seat] for game in match.games) <= 3 * match.deals_won[seat]
    for game in match.games:
        assert game.is_closed == (max(game.totals) >= target)
        if game.winner is not None:
            assert game.totals[game.winner] >= target > game.totals[1 - game.winner]
    assert match.is_over == all(game.is_closed for game in match.games)
    if match.is_over:
        totals = [score.total for score in match.final_scores]
        assert totals == [sum(scores[seat].total for scores in match.game_scores) for seat in (A, B)]
        assert match.winner is not None and totals[match.winner] >= totals[1 - match.winner]
    assert Match.from_dict(json.loads(json.dumps(match.to_dict()))) == match


@pytest.mark.parametrize("name", ["classic", "reino", "oklahoma", "playgridia"])
def test_random_hollywood_matches_run_clean_to_the_end(name):
    ruleset = dataclasses.replace(RULESETS[name], target=RULESETS[name].target or 100, hollywood=True)
    rng = random.Random(name)
    for _ in range(3):
        match = Match.new(ruleset, first_dealer=rng.randrange(2))
        while not match.is_over:
            deal = match.next_deal(rng.sample(CARDS, 52))
            while not deal.is_over:
                deal, _ = deal.apply(choose(deal, rng))
            match = match.record(deal)
            assert Match.from_dict(json.loads(json.dumps(match.to_dict()))) == match
        assert all(game.is_closed for game in match.games) and match.winner in (A, B)
        assert len(match.score_sheet) < 200


# -- Oklahoma -------------------------------------------------------------------------------------


def test_the_oklahoma_preset_is_classic_with_the_upcard_rules():
    oklahoma = RULESETS["oklahoma"]
    assert oklahoma.oklahoma and not oklahoma.hollywood
    assert dataclasses.replace(oklahoma, name="classic", oklahoma=False) == CLASSIC


def test_oklahoma_worked_example_a_spade_upcard_gin_wins_the_match_in_one_deal():
    # 7S up: the knock limit is 7 and the deal counts double. Seat 1 draws 7D and goes gin
    # against 45 deadwood: (20 + 45) x 2 = 130, over 100 at once, the loser on nothing.
    oklahoma = RULESETS["oklahoma"]
    hands = {1: "AS 2S 3S 4S 8H 8D 8C JD QD KD", 0: "9C 9H 9D KC QH TS 7C 5H 2C AH"}
    deal = start(oklahoma, Deal.new(oklahoma, 0, crafted_deck(0, hands, "7S", "7D")))
    assert (deal.knock_limit, deal.multiplier) == (7, 2)
    deal = play(deal, "draw_stock", "knock 7D")
    assert (deal.outcome, deal.points) == ("gin", 130)
    match = Match.new(oklahoma, first_dealer=0).record(deal)
    assert match.is_over and match.winner == 1
    assert match.final_scores[1] == SeatScore(130, 200, 20, 1)  # shutout bonus, one deal won
