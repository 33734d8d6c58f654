"""Three players, winner stays: rotation, dealing, scores and bonuses, replay, refusals.

Seats A = 0, B = 1, C = 2. A deal's result is given in table seats (`DealResult`); the random
tests give it relative to the two playing (which of `who_plays` wins, or a dead deal), so that
every sequence of results is a legal match.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules import (
    CARDS,
    RULESETS,
    WINNER_STAYS_TARGET,
    DealResult,
    IllegalMove,
    InvalidRuleset,
    InvalidState,
    RulesError,
    Ruleset,
    SeatScore,
    UnsupportedVariant,
    WinnerStays,
)
from tests.rules.test_properties import choose

CLASSIC, PLAYGRIDIA = RULESETS["classic"], RULESETS["playgridia"]
A, B, C = 0, 1, 2
DEAD = DealResult("dead", None, 0)


def won(seat: int, points: int, outcome: str = "knock") -> DealResult:
    return DealResult(outcome, seat, points, seat if outcome != "undercut" else None)


def rows(match: WinnerStays) -> list[tuple[tuple[int, int], int, int, tuple[int, int, int]]]:
    """(players, dealer, waiting, totals) of each row."""
    return [(r.players, r.dealer, r.waiting, r.totals) for r in match.records]


# -- worked examples --------------------------------------------------------------------------


def test_worked_example_classic():
    """Classic (the winner deals; to 100; game 100, 20 a deal won). C waits first, A deals.

    1. A–B, A deals: B goes gin, 20 + 25 = 45. A lost: A waits; B, the winner, deals to C.
    2. B–C, B deals: dead. The same two play again and B deals again; A waits on.
    3. B–C, B deals: C undercuts for 17. B waits; C deals to A.
    4. A–C, C deals: A knocks for 30. C waits; A deals to B.
    5. A–B, A deals: B goes gin, 20 + 40 = 60: B has 105, over 100, and wins.
    B: 105 + 100 + 2 × 20 = 245; A: 30 + 20 = 50; C: 17 + 20 = 37.
    """
    match = WinnerStays.new(CLASSIC, first_waiting=C, first_dealer=A)
    assert match.target == 100 and match.who_plays == (A, B) and match.who_waits == C
    match = match.record_all(
        [won(B, 45, "gin"), DEAD, DealResult("undercut", C, 17, B), won(A, 30), won(B, 60, "gin")]
    )
    assert rows(match) == [
        ((A, B), A, C, (0, 45, 0)),
        ((B, C), B, A, (0, 45, 0)),
        ((B, C), B, A, (0, 45, 17)),
        ((A, C), C, B, (30, 45, 17)),
        ((A, B), A, C, (30, 105, 17)),
    ]
    assert match.is_over and match.winner == B
    assert match.deals_won == (1, 2, 1)
    assert match.final_scores == (
        SeatScore(30, 0, 20, 1),
        SeatScore(105, 100, 40, 2),
        SeatScore(17, 0, 20, 1),
    )
    assert [score.total for score in match.final_scores] == [50, 245, 37]
    with pytest.raises(IllegalMove, match="over"):
        match.record_score(DEAD)


def test_worked_example_playgridia_the_returning_player_deals():
    """Playgridia to 100 (the deal alternates, no match bonuses): the same results as above,
    but each deal after a scored one is dealt by the player coming back from waiting; a dead
    deal is dealt again by the same dealer. B ends on 105 with no bonus."""
    match = WinnerStays.new(PLAYGRIDIA, first_waiting=C, first_dealer=A)
    assert match.target == WINNER_STAYS_TARGET == 100  # playgridia plays a single deal for two
    match = match.record_all(
        [won(B, 45, "gin"), DEAD, DealResult("undercut", C, 17, B), won(A, 30), won(B, 60, "gin")]
    )
    assert [(r.players, r.dealer, r.waiting) for r in match.records] == [
        ((A, B), A, C),
        ((B, C), C, A),
        ((B, C), C, A),
        ((A, C), A, B),
        ((A, B), B, C),
    ]
    assert [score.total for score in match.final_scores or ()] == [30, 105, 17]


@pytest.mark.parametrize(
    ("c_scores", "game_bonus"), [(False, 200), (True, 100)], ids=["shutout", "one-opponent-scored"]
)
def test_the_shutout_bonus_needs_both_other_players_on_nothing(c_scores, game_bonus):
    """Classic: A beats B (60), then C (waiting) comes in; if C wins, A waits and B–C play on.
    A game ends with B at 105: a shutout (200) only if neither A nor C scored."""
    match = WinnerStays.new(CLASSIC, first_waiting=A, first_dealer=B)
    match = match.record_score(won(B, 60))  # B–C: B wins; C waits, A comes in
    if c_scores:
        match = match.record_score(won(A, 10))  # A–B: A wins; B waits
        match = match.record_score(won(C, 5))  # A–C: C wins; A waits
        match = match.record_score(won(B, 45))  # B–C: B wins, 105
        assert match.totals == (10, 105, 5)
    else:
        match = match.record_score(won(B, 45))  # A–B: B wins, 105
        assert match.totals == (0, 105, 0)
    assert match.winner == B
    scores = match.final_scores
    assert scores is not None and scores[B].game_bonus == game_bonus


def test_the_target_is_the_rule_sets_or_an_option():
    assert WinnerStays.new(CLASSIC, 0, 1).target == 100
    assert WinnerStays.new(CLASSIC, 0, 1, target=250).target == 250
    assert WinnerStays.new(Ruleset(name="short", target=50), 0, 1).target == 50
    with pytest.raises(InvalidRuleset, match="target"):
        WinnerStays.new(CLASSIC, 0, 1, target=0)


# -- refusals ---------------------------------------------------------------------------------


def test_hollywood_does_not_combine():
    with pytest.raises(UnsupportedVariant, match="Hollywood"):
        WinnerStays.new(dataclasses.replace(CLASSIC, hollywood=True))
    assert issubclass(UnsupportedVariant, ValueError)


def test_only_the_two_playing_can_win_and_the_dealer_must_play():
    match = WinnerStays.new(CLASSIC, first_waiting=C, first_dealer=A)
    with pytest.raises(IllegalMove, match="winner"):
        match.record_score(won(C, 10))
    with pytest.raises(RulesError, match="points"):
        match.record_score(DealResult("knock", A, -3, A))
    with pytest.raises(InvalidState, match="first dealer"):
        WinnerStays.new(CLASSIC, first_waiting=C, first_dealer=C)
    with pytest.raises(InvalidState, match="waiting"):
        WinnerStays.new(CLASSIC, first_waiting=3)


def test_a_deal_dealt_by_the_wrong_seat_is_refused():
    match = WinnerStays.new(CLASSIC, first_waiting=C, first_dealer=A)
    deal = match.next_deal()
    assert deal.dealer == 0  # A is deal seat 0 of A–B
    wrong = WinnerStays.new(CLASSIC, first_waiting=C, first_dealer=B)
    rng = random.Random(5)
    while not deal.is_over:
        deal, _ = deal.apply(choose(deal, rng))
    with pytest.raises(IllegalMove, match="deals this deal"):
        wrong.record(deal)
    assert match.record(deal).records[0].dealer == A


# -- random sequences of results --------------------------------------------------------------

RELATIVE = st.one_of(st.none(), st.tuples(st.integers(0, 1), st.integers(1, 80)))  # None: dead


def play_relative(match: WinnerStays, specs: list[tuple[int, int] | None]) -> WinnerStays:
    """Record each spec (which of the two playing wins, and the points; None: a dead deal)."""
    for spec in specs:
        if match.is_over:
            break
        match = match.record_score(DEAD if spec is None else won(match.who_plays[spec[0]], spec[1]))
    return match


def brute_force(
    ruleset: Ruleset, target: int, waiting: int, dealer: int, specs: list[tuple[int, int] | None]
):
    """The score sheet recomputed from the rules as written: rows of (players, dealer, waiting,
    winner, points), the totals, the deals won, and the winner of the match."""
    out, totals, won_count, winner = [], [0, 0, 0], [0, 0, 0], None
    for spec in specs:
        if winner is not None:
            break
        players = tuple(seat for seat in (A, B, C) if seat != waiting)
        if spec is None:
            out.append((players, dealer, waiting, None, 0))
            continue
        deal_winner, points = players[spec[0]], spec[1]
        out.append((players, dealer, waiting, deal_winner, points))
        totals[deal_winner] += points
        won_count[deal_winner] += 1
        dealer = deal_winner if ruleset.next_dealer == "winner" else waiting
        waiting = players[1 - spec[0]]
        if totals[deal_winner] >= target:
            winner = deal_winner
    return out, tuple(totals), tuple(won_count), winner


@settings(max_examples=300)
@given(
    ruleset=st.sampled_from([CLASSIC, PLAYGRIDIA, RULESETS["reino"], RULESETS["oklahoma"]]),
    first_waiting=st.integers(0, 2),
    dealer_pick=st.integers(0, 1),
    target=st.sampled_from([None, 40, 150]),
    specs=st.lists(RELATIVE, max_size=40),
)
def test_rotation_and_scores_over_random_results(ruleset, first_waiting, dealer_pick, target, specs):
    first_dealer = [seat for seat in (A, B, C) if seat != first_waiting][dealer_pick]
    match = play_relative(WinnerStays.new(ruleset, first_waiting, first_dealer, target), specs)
    records = match.records

    # the rotation, deal by deal
    for before, after in itertools.pairwise(records):
        if before.winner is None:  # dead: the same two, the same dealer, the same one waits
            assert (after.players, after.dealer, after.waiting) == (
                before.players,
                before.dealer,
                before.waiting,
            )
        else:
            assert set(after.players) == {before.winner, before.waiting}
            assert after.waiting == before.loser
            assert after.waiting != before.waiting  # nobody waits twice in a row after a scored deal
            assert after.dealer == (before.winner if ruleset.next_dealer == "winner" else before.waiting)
    for record in records:
        assert record.dealer in record.players and record.waiting not in record.players

    # against the brute force
    expected, totals, won_count, winner = brute_force(
        ruleset, match.target, first_waiting, first_dealer, specs
    )
    assert [(r.players, r.dealer, r.waiting, r.winner, r.result.points) for r in records] == expected
    assert match.totals == totals and match.deals_won == won_count and match.winner == winner
    assert match.is_over == (winner is not None)
    assert all(r.totals[r.winner] < match.target for r in records[:-1] if r.winner is not None)

    # the end of the game and the bonuses, per player
    if winner is None:
        assert match.final_scores is None
    else:
        shutout = all(totals[seat] == 0 for seat in (A, B, C) if seat != winner)
        game_bonus = max(ruleset.game_bonus, ruleset.shutout_bonus) if shutout else ruleset.game_bonus
        assert match.final_scores == tuple(
            SeatScore(
                totals[seat],
                game_bonus if seat == winner else 0,
                ruleset.per_deal_bonus * won_count[seat],
                won_count[seat],
            )
            for seat in (A, B, C)
        )

    # a whole match replays from its records, and from its stored form
    start = WinnerStays.new(ruleset, first_waiting, first_dealer, target)
    assert start.record_all(record.result for record in records) == match
    assert WinnerStays.from_dict(json.loads(json.dumps(match.to_dict()))) == match


# -- real deals -------------------------------------------------------------------------------


@settings(max_examples=12)
@given(seed=st.integers(0, 2**32 - 1), name=st.sampled_from(["classic", "playgridia", "reino", "oklahoma"]))
def test_a_match_of_real_deals_records_each_deals_points(seed, name):
    rng = random.Random(seed)
    match = WinnerStays.new(RULESETS[name], rng.randrange(3), None, target=60)
    for _ in range(12):
        if match.is_over:
            break
        players, dealer = match.who_plays, match.dealer
        deal = match.next_deal(rng.sample(CARDS, 52))
        assert players[deal.dealer] == dealer
        while not deal.is_over:
            deal, _ = deal.apply(choose(deal, rng))
        match = match.record(deal)
        row = match.records[-1]
        assert row.result.points == deal.points and row.result.outcome == deal.outcome
        assert row.winner == (None if deal.winner is None else players[deal.winner])
    assert WinnerStays.from_dict(match.to_dict()) == match


def test_a_stored_match_with_a_wrong_row_is_refused():
    match = WinnerStays.new(CLASSIC, C, A).record_all([won(B, 45), DEAD])
    data = match.to_dict()
    data["deals"][1]["totals"] = [0, 50, 0]
    with pytest.raises(InvalidState, match="totals"):
        WinnerStays.from_dict(data)
    data = match.to_dict()
    data["deals"][1]["winner"] = A
    with pytest.raises(InvalidState, match="winner-stays"):
        WinnerStays.from_dict(data)


# -- resigning --------------------------------------------------------------------------------


def test_a_resignation_ends_the_game_and_the_better_placed_of_the_two_who_stayed_wins():
    """The worked example's first four deals (A 30, B 45, C 17; A–B to play, C waiting); then
    B, ahead, resigns. A, on 30 against C's 17, wins: A 30 + 100 + 20 = 150; B keeps 45 and
    20 for the deal won, 65; C 17 + 20 = 37."""
    match = WinnerStays.new(CLASSIC, first_waiting=C, first_dealer=A)
    match = match.record_all([won(B, 45, "gin"), DEAD, DealResult("undercut", C, 17, B), won(A, 30)])
    resigned = match.resign(B)
    assert (resigned.is_over, resigned.winner, resigned.leaver, resigned.ended_by) == (True, A, B, "resign")
    assert resigned.final_scores == (
        SeatScore(30, 100, 20, 1),
        SeatScore(45, 0, 20, 1),
        SeatScore(17, 0, 20, 1),
    )
    assert [score.total for score in resigned.final_scores] == [150, 65, 37]
    for attempt in (
        lambda: resigned.record_score(won(A, 10)),
        lambda: resigned.next_deal(),
        lambda: resigned.resign(A),
        lambda: resigned.resign(B, "forfeit"),
    ):
        with pytest.raises(IllegalMove, match="the game is over"):
            attempt()
    stored = json.loads(json.dumps(resigned.to_dict()))
    assert (stored["ended_by"], stored["leaver"]) == ("resign", B)
    assert WinnerStays.from_dict(stored) == resigned


@pytest.mark.parametrize(
    ("results", "leaver", "winner", "why"),
    [
        # A knocks for 20 (B waits), C knocks for 10 twice (A waits, then B): A 20 and C 20
        ([won(A, 20), won(C, 10), won(C, 10)], B, C, "equal totals: C won more deals"),
        # A knocks for 20 (B waits), C knocks for 20 (A waits): A 20 and C 20, one deal each
        ([won(A, 20), won(C, 20)], B, C, "equal totals and deals: A waits, C plays on"),
        ([won(A, 20), won(C, 20)], C, A, "A's 20 against B's 0"),
        ([], C, A, "nothing scored, neither waits: the lower seat"),
        ([], B, A, "nothing scored: C waits, A plays on"),
        ([], A, B, "nothing scored: C waits, B plays on"),
        ([DEAD, DEAD], A, B, "dead deals: C still waits"),
    ],
)
def test_who_wins_after_a_resignation(results, leaver, winner, why):
    match = WinnerStays.new(CLASSIC, first_waiting=C, first_dealer=A).record_all(results).resign(leaver)
    assert match.winner == winner, why
    scores = match.final_scores
    assert scores is not None
    shutout = all(total == 0 for seat, total in enumerate(match.totals) if seat != winner)
    assert scores[winner].game_bonus == (200 if shutout else 100)
    assert [score.deal_bonus for score in scores] == [20 * count for count in match.deals_won]


def test_a_resignation_is_checked():
    match = WinnerStays.new(CLASSIC, first_waiting=C, first_dealer=A)
    for seat in (3, -1, "0", None):
        with pytest.raises(IllegalMove, match="resigning seat"):
            match.resign(seat)  # type: ignore[arg-type]
    with pytest.raises(RulesError, match="reason"):
        match.resign(A, "bored")
    over = match.record_all([won(B, 60), won(B, 45)])
    assert over.is_over and over.winner == B
    with pytest.raises(IllegalMove, match="the game is over"):
        over.resign(A)
    forfeited = match.resign(A, "forfeit")
    assert (forfeited.ended_by, forfeited.winner) == ("forfeit", B)  # C waits: B plays on


def test_a_stored_game_from_before_resignations_still_loads():
    match = WinnerStays.new(CLASSIC, C, A).record_all([won(B, 45), DEAD])
    data = match.to_dict()
    assert (data.pop("ended_by"), data.pop("leaver")) == (None, None)
    assert WinnerStays.from_dict(data) == match
    data = match.resign(A).to_dict()
    data["leaver"] = 5
    with pytest.raises(InvalidState, match="resigning seat"):
        WinnerStays.from_dict(data)
    data["leaver"], data["ended_by"] = A, "bored"
    with pytest.raises(InvalidState, match="reason"):
        WinnerStays.from_dict(data)


@settings(max_examples=200)
@given(
    ruleset=st.sampled_from([CLASSIC, PLAYGRIDIA, RULESETS["reino"]]),
    first_waiting=st.integers(0, 2),
    dealer_pick=st.integers(0, 1),
    specs=st.lists(RELATIVE, max_size=20),
    leaver=st.integers(0, 2),
    reason=st.sampled_from(["resign", "forfeit"]),
)
def test_resigning_over_random_results(ruleset, first_waiting, dealer_pick, specs, leaver, reason):
    first_dealer = [seat for seat in (A, B, C) if seat != first_waiting][dealer_pick]
    match = play_relative(WinnerStays.new(ruleset, first_waiting, first_dealer, 5000), specs)
    assert not match.is_over
    waiting, totals, won_count = match.who_waits, match.totals, match.deals_won
    resigned = match.resign(leaver, reason)
    stayed = [seat for seat in (A, B, C) if seat != leaver]
    best = max(stayed, key=lambda seat: (totals[seat], won_count[seat], seat != waiting, -seat))
    assert resigned.is_over and resigned.winner == best and resigned.records == match.records
    assert resigned.totals == totals and resigned.who_waits == waiting
    shutout = all(totals[seat] == 0 for seat in (A, B, C) if seat != best)
    game_bonus = max(ruleset.game_bonus, ruleset.shutout_bonus) if shutout else ruleset.game_bonus
    assert resigned.final_scores == tuple(
        SeatScore(
            totals[seat],
            game_bonus if seat == best else 0,
            ruleset.per_deal_bonus * won_count[seat],
            won_count[seat],
        )
        for seat in (A, B, C)
    )
    assert WinnerStays.from_dict(json.loads(json.dumps(resigned.to_dict()))) == resigned
    with pytest.raises(IllegalMove, match="the game is over"):
        resigned.record_score(DEAD)
