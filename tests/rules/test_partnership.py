"""Four players, partnership gin: boards and rotation, netting, dealing, the end and the bonuses.

Seats A = 0, B = 1, C = 2, D = 3; the default teams are A & C (team 0) against B & D (team 1).
Round 1 is A–B (board 0) and C–D (board 1); round 2 is A–D and C–B; and so on, alternating.
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
    PARTNERSHIP_TARGET,
    RULESETS,
    TEAMS,
    DealResult,
    IllegalMove,
    InvalidState,
    Partnership,
    SeatScore,
    UnsupportedVariant,
    round_nets,
)
from tests.rules.test_properties import choose

CLASSIC, PLAYGRIDIA = RULESETS["classic"], RULESETS["playgridia"]
A, B, C, D = 0, 1, 2, 3
DEAD = DealResult("dead", None, 0)


def won(seat: int, points: int, outcome: str = "knock") -> DealResult:
    return DealResult(outcome, seat, points, seat if outcome != "undercut" else None)


def team_scores(ruleset, totals, boxes, winner) -> tuple[SeatScore, SeatScore]:
    """Both teams' final scores worked by hand: the game (or shutout) bonus, a box per round won."""
    shutout = totals[1 - winner] == 0
    game_bonus = max(ruleset.game_bonus, ruleset.shutout_bonus) if shutout else ruleset.game_bonus
    first, second = (
        SeatScore(
            totals[team],
            game_bonus if team == winner else 0,
            ruleset.per_deal_bonus * boxes[team],
            boxes[team],
        )
        for team in (0, 1)
    )
    return first, second


def play_round(match: Partnership, first: DealResult, second: DealResult, order=(0, 1)) -> Partnership:
    results = (first, second)
    return match.record_all((board, results[board]) for board in order)


# -- hand-worked examples ---------------------------------------------------------------------


def test_both_deals_won_by_one_team_add_up():
    """rummy-games.com's example: A beats B by 16 and C beats D by 12. A & C: +16 + 12 = +28,
    B & D: −28; A & C score 28."""
    match = play_round(Partnership.new(CLASSIC, first_dealer_team=0), won(A, 16), won(C, 12))
    record = match.records[0]
    assert record.nets == (28, -28) and record.winner == 0 and record.points == 28
    assert match.totals == (28, 0)


def test_a_split_round_nets_to_the_difference():
    """Round 2 of the same example, opponents switched: A beats D by 7, B beats C by 13.
    A & C: +7 − 13 = −6; B & D: +13 − 7 = +6: B & D score 6. Running totals 28–6."""
    match = play_round(Partnership.new(CLASSIC, first_dealer_team=0), won(A, 16), won(C, 12))
    assert [board.players for board in match.boards] == [(A, D), (B, C)]
    match = play_round(match, won(A, 7), won(B, 13))
    record = match.records[1]
    assert record.nets == (-6, 6) and record.winner == 1 and record.points == 6
    assert match.totals == (28, 6)


def test_bicycles_example_won_by_12_lost_by_10():
    """Bicycle's Partnership Rummy: one partner wins his deal by 12, the other loses his by 10:
    12 − 10 = 2 to their side, which also counts a box for the round."""
    match = play_round(Partnership.new(CLASSIC, first_dealer_team=1), won(B, 12), won(C, 10))
    assert match.records[0].nets == (-2, 2) and match.totals == (0, 2) and match.rounds_won == (0, 1)


def test_dead_deals_count_nothing_and_level_nets_score_nothing():
    """Round 1: A–B dead; C–D: D goes gin against 31, 20 + 31 = 51: B & D score 51.
    Round 2: both deals dead: nets 0–0, nobody scores. Round 3: A beats B by 15 and D beats C by
    15: level again. After a round nobody won, the same team deals again."""
    match = play_round(Partnership.new(CLASSIC, first_dealer_team=0), DEAD, won(D, 51, "gin"))
    assert match.records[0].nets == (-51, 51) and match.totals == (0, 51)
    assert match.dealer_team == 1  # classic: the round's winners deal
    match = play_round(match, DEAD, DEAD)
    match = play_round(match, won(A, 15), won(D, 15))
    assert [(r.nets, r.winner, r.points, r.dealer_team) for r in match.records[1:]] == [
        ((0, 0), None, 0, 1),
        ((0, 0), None, 0, 1),
    ]
    assert match.totals == (0, 51) and match.rounds_won == (0, 1) and match.dealer_team == 1


def test_a_game_to_125_under_classic_bonuses():
    """Classic deals, the game to 125 (the default); A & C deal first.
    R1 (A–B, C–D; A and C deal): A gin 20 + 25 = 45, C knocks for 20: A & C +65. 65–0.
    R2 (A–D, C–B; A & C won, so they deal again): D undercuts for 16, C knocks for 14:
       A & C 14 − 16 = −2: B & D score 2. 65–2.
    R3 (A–B, C–D; B and D deal): A–B dead, C gin 20 + 45 = 65: A & C 130–2, over 125.
    A & C: 130 + 100 + 2 rounds × 20 = 270. B & D: 2 + 1 × 20 = 22."""
    match = Partnership.new(CLASSIC, first_dealer_team=0)
    assert match.target == PARTNERSHIP_TARGET == 125
    dealers = []
    for first, second in [
        (won(A, 45, "gin"), won(C, 20)),
        (DealResult("undercut", D, 16, A), won(C, 14)),
        (DEAD, won(C, 65, "gin")),
    ]:
        dealers.append([board.dealer for board in match.boards])
        match = play_round(match, first, second)
    assert dealers == [[A, C], [A, C], [B, D]]
    assert [r.totals for r in match.records] == [(65, 0), (65, 2), (130, 2)]
    assert match.is_over and match.winner == 0
    assert match.final_scores == (SeatScore(130, 100, 40, 2), SeatScore(2, 0, 20, 1))
    assert [score.total for score in match.final_scores] == [270, 22]
    with pytest.raises(IllegalMove, match="over"):
        match.record_score(0, DEAD)


def test_a_shutout_game_and_the_target_option():
    """Target 100 (a table option). A & C win both rounds, 65 and 40: 105–0, a shutout:
    105 + 200 + 2 × 20 = 345."""
    match = Partnership.new(CLASSIC, first_dealer_team=0, target=100)
    match = play_round(match, won(A, 45, "gin"), won(C, 20))
    match = play_round(match, won(A, 30), won(C, 10))
    assert match.winner == 0 and match.final_scores is not None
    assert match.final_scores[0] == SeatScore(105, 200, 40, 2) and match.final_scores[0].total == 345


def test_playgridia_alternates_the_dealing_team():
    """Playgridia (the deal alternates): after a round won, the team that did not deal deals,
    whoever won; after a round nobody won, the same team deals again. No match bonuses."""
    match = Partnership.new(PLAYGRIDIA, first_dealer_team=0)
    match = play_round(match, won(B, 10), won(C, 4))  # B & D win, A & C dealt
    assert match.dealer_team == 1
    match = play_round(match, DEAD, DEAD)
    assert match.dealer_team == 1
    match = play_round(match, won(B, 10), DEAD)  # B & D win again, and dealt
    assert match.dealer_team == 0
    assert match.totals == (0, 16) and match.rounds_won == (0, 2)


# -- arrival order, refusals ------------------------------------------------------------------


def test_either_deal_may_end_first_and_the_round_nets_once():
    start = Partnership.new(CLASSIC, first_dealer_team=0)
    first_in = start.record_score(1, won(D, 30))
    assert first_in.records == () and first_in.open_boards == (0,)
    assert first_in.boards == start.boards  # the round goes on
    with pytest.raises(IllegalMove, match="already recorded"):
        first_in.record_score(1, won(C, 5))
    both = first_in.record_score(0, won(A, 12))
    assert len(both.records) == 1 and both.open_boards == (0, 1) and both.totals == (0, 18)
    assert both == start.record_score(0, won(A, 12)).record_score(1, won(D, 30))


def test_results_must_fit_their_board():
    match = Partnership.new(CLASSIC, first_dealer_team=0)
    with pytest.raises(IllegalMove, match="winner"):
        match.record_score(0, won(C, 10))  # C plays board 1
    with pytest.raises(IllegalMove, match="board"):
        match.record_score(2, DEAD)
    with pytest.raises(InvalidState, match="teams"):
        Partnership.new(CLASSIC, teams=((0, 1), (1, 3)))
    with pytest.raises(InvalidState, match="dealing team"):
        Partnership.new(CLASSIC, first_dealer_team=2)


def test_hollywood_does_not_combine():
    with pytest.raises(UnsupportedVariant, match="Hollywood"):
        Partnership.new(dataclasses.replace(CLASSIC, hollywood=True))


# -- random results against a brute force ------------------------------------------------------

RELATIVE = st.one_of(st.none(), st.tuples(st.integers(0, 1), st.integers(1, 80)))  # None: dead
ROUND = st.tuples(RELATIVE, RELATIVE, st.booleans())  # board 0's, board 1's, board 1 first?


def brute_force(teams, dealer_team, ruleset, target, rounds):
    """The score sheet recomputed from the rules as written: per round the boards (as pairs of
    seats), the points each team won, the team ahead and by how much, and the totals."""
    (a0, a1), (b0, b1) = teams
    totals, boxes, out = [0, 0], [0, 0], []
    for number, specs in enumerate(rounds, 1):
        pairs = [(a0, b0), (a1, b1)] if number % 2 else [(a0, b1), (a1, b0)]
        team_won = [0, 0]
        for pair, spec in zip(pairs, specs, strict=True):
            if spec is not None:
                seat = sorted(pair)[spec[0]]
                team_won[0 if seat in teams[0] else 1] += spec[1]
        ahead = None if team_won[0] == team_won[1] else (0 if team_won[0] > team_won[1] else 1)
        points = abs(team_won[0] - team_won[1])
        out.append((tuple(sorted(pair) for pair in pairs), dealer_team, ahead, points))
        if ahead is not None:
            totals[ahead] += points
            boxes[ahead] += 1
            dealer_team = ahead if ruleset.next_dealer == "winner" else 1 - dealer_team
            if totals[ahead] >= target:
                return out, tuple(totals), tuple(boxes), ahead
    return out, tuple(totals), tuple(boxes), None


@settings(max_examples=300)
@given(
    ruleset=st.sampled_from([CLASSIC, PLAYGRIDIA, RULESETS["reino"], RULESETS["oklahoma"]]),
    seats=st.permutations([A, B, C, D]),
    first_dealer_team=st.integers(0, 1),
    target=st.sampled_from([None, 60, 200]),
    rounds=st.lists(ROUND, max_size=25),
)
def test_netting_over_random_results_in_both_arrival_orders(
    ruleset, seats, first_dealer_team, target, rounds
):
    teams = ((seats[0], seats[1]), (seats[2], seats[3]))
    start = Partnership.new(ruleset, teams, first_dealer_team, target)
    match, other_order, specs_played = start, start, []
    for first, second, swap in rounds:
        if match.is_over:
            break
        results = [
            None if spec is None else won(match.boards[board].players[spec[0]], spec[1])
            for board, spec in enumerate((first, second))
        ]
        results = [DEAD if result is None else result for result in results]
        for board in (1, 0) if swap else (0, 1):
            before = len(match.records)
            match = match.record_score(board, results[board])
            assert len(match.records) == before + (match.open_boards == (0, 1))  # nets exactly once
        other_order = other_order.record_all([(0, results[0]), (1, results[1])])
        assert match == other_order
        specs_played.append((first, second))

    expected, totals, boxes, winner = brute_force(
        teams, first_dealer_team, ruleset, match.target, specs_played
    )
    assert [
        (tuple(b.players for b in r.boards), r.dealer_team, r.winner, r.points) for r in match.records
    ] == [
        (tuple(tuple(pair) for pair in pairs), dealer, ahead, points)
        for pairs, dealer, ahead, points in expected
    ]
    assert match.totals == totals and match.rounds_won == boxes and match.winner == winner
    for record in match.records:
        assert record.nets == round_nets(teams, record.results) and record.nets[0] == -record.nets[1]
        for board in record.boards:  # every board: one player of each team, its dealer of the dealing team
            assert {match.team_of(seat) for seat in board.players} == {0, 1}
            assert match.team_of(board.dealer) == record.dealer_team
        assert sorted(seat for board in record.boards for seat in board.players) == [A, B, C, D]
    for before, after in zip(match.records, match.records[1:], strict=False):  # partners switch opponents
        assert {b.players for b in before.boards}.isdisjoint({b.players for b in after.boards})

    if winner is None:
        assert match.final_scores is None
    else:
        assert match.final_scores == team_scores(ruleset, totals, boxes, winner)
    assert Partnership.from_dict(json.loads(json.dumps(match.to_dict()))) == match


# -- real deals, replay -----------------------------------------------------------------------


@settings(max_examples=8)
@given(seed=st.integers(0, 2**32 - 1), name=st.sampled_from(["classic", "playgridia", "reino", "oklahoma"]))
def test_real_deals_played_at_once_replay_to_the_same_scores(seed, name):
    """Two rounds of real deals, both boards' deals played move by move interleaved, each
    recorded as it ends; the stored match (also stored mid-round) replays to the same state."""
    rng = random.Random(seed)
    match = Partnership.new(RULESETS[name], TEAMS, rng.randrange(2), target=1000)
    for _ in range(2):
        boards = match.boards
        deals = {board.number: match.next_deal(board.number, rng.sample(CARDS, 52)) for board in boards}
        while deals:
            number = rng.choice(sorted(deals))
            deal = deals[number]
            deal, _ = deal.apply(choose(deal, rng))
            deals[number] = deal
            if deal.is_over:
                del deals[number]
                match = match.record(number, deal)
                assert Partnership.from_dict(match.to_dict()) == match
                if deals:  # mid-round: the recorded board's result is pending, in table seats
                    result = match.pending[number]
                    players = boards[number].players
                    assert result is not None and result.points == deal.points
                    assert result.winner == (None if deal.winner is None else players[deal.winner])
    assert len(match.records) == 2
    replayed = Partnership.new(RULESETS[name], TEAMS, match.first_dealer_team, target=1000)
    replayed = replayed.record_all((n, r) for record in match.records for n, r in enumerate(record.results))
    assert replayed == match


def test_a_stored_match_with_a_wrong_round_is_refused():
    match = play_round(Partnership.new(CLASSIC, first_dealer_team=0), won(A, 16), won(C, 12))
    data = match.to_dict()
    data["rounds"][0]["totals"] = [30, 0]
    with pytest.raises(InvalidState, match="totals"):
        Partnership.from_dict(data)
    data = match.to_dict()
    data["rounds"][0]["results"] = data["rounds"][0]["results"][:1]
    with pytest.raises(InvalidState, match="two deals"):
        Partnership.from_dict(data)


# -- resigning --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("leaver", "winner", "scores"),
    [
        # B & D scored nothing: a shutout, 28 + 200 + 20 = 248
        (D, 0, (SeatScore(28, 200, 20, 1), SeatScore(0, 0, 0, 0))),
        # A & C are ahead but A leaves: B & D win on 0, 0 + 100; A & C keep 28 + 20 = 48
        (A, 1, (SeatScore(28, 0, 20, 1), SeatScore(0, 100, 0, 0))),
    ],
)
def test_a_resignation_ends_the_game_and_the_leavers_team_loses(leaver, winner, scores):
    """Classic. Round 1: A beats B by 16, C beats D by 12: A & C 28–0. Round 2: A beats D by 7
    (board 0), board 1 still being played: the round is not netted, so it does not count."""
    match = play_round(Partnership.new(CLASSIC, first_dealer_team=0), won(A, 16), won(C, 12))
    match = match.record_score(0, won(A, 7))
    resigned = match.resign(leaver)
    assert (resigned.is_over, resigned.winner, resigned.leaver, resigned.ended_by) == (
        True,
        winner,
        leaver,
        "resign",
    )
    assert resigned.totals == (28, 0) and resigned.final_scores == scores
    for attempt in (
        lambda: resigned.record_score(1, won(C, 10)),
        lambda: resigned.next_deal(1),
        lambda: resigned.resign(B),
    ):
        with pytest.raises(IllegalMove, match="the game is over"):
            attempt()
    stored = json.loads(json.dumps(resigned.to_dict()))
    assert (stored["ended_by"], stored["leaver"]) == ("resign", leaver)
    assert Partnership.from_dict(stored) == resigned


def test_a_resignation_is_checked():
    match = Partnership.new(CLASSIC, first_dealer_team=0)
    for seat in (4, -1, "0", None):
        with pytest.raises(IllegalMove, match="resigning seat"):
            match.resign(seat)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="reason"):
        match.resign(A, "bored")
    forfeited = match.resign(C, "forfeit")
    assert (forfeited.ended_by, forfeited.winner) == ("forfeit", 1)
    assert forfeited.final_scores == (SeatScore(0, 0, 0, 0), SeatScore(0, 200, 0, 0))
    over = play_round(Partnership.new(CLASSIC, first_dealer_team=0, target=20), won(A, 16), won(C, 12))
    with pytest.raises(IllegalMove, match="the game is over"):
        over.resign(B)


def test_a_stored_game_from_before_resignations_still_loads():
    match = play_round(Partnership.new(CLASSIC, first_dealer_team=0), won(A, 16), DEAD)
    data = match.to_dict()
    assert (data.pop("ended_by"), data.pop("leaver")) == (None, None)
    assert Partnership.from_dict(data) == match
    data = match.resign(B).to_dict()
    data["leaver"] = 7
    with pytest.raises(InvalidState, match="resigning seat"):
        Partnership.from_dict(data)


@settings(max_examples=200)
@given(
    ruleset=st.sampled_from([CLASSIC, PLAYGRIDIA, RULESETS["reino"]]),
    seats=st.permutations([A, B, C, D]),
    first_dealer_team=st.integers(0, 1),
    rounds=st.lists(ROUND, max_size=10),
    half=st.one_of(st.none(), st.tuples(st.integers(0, 1), RELATIVE)),  # a board recorded, pending
    leaver=st.integers(0, 3),
    reason=st.sampled_from(["resign", "forfeit"]),
)
def test_resigning_over_random_results(ruleset, seats, first_dealer_team, rounds, half, leaver, reason):
    teams = ((seats[0], seats[1]), (seats[2], seats[3]))
    match = Partnership.new(ruleset, teams, first_dealer_team, target=5000)
    for first, second, _ in rounds:
        results = [
            DEAD if spec is None else won(match.boards[board].players[spec[0]], spec[1])
            for board, spec in enumerate((first, second))
        ]
        match = match.record_all(enumerate(results))
    if half is not None:
        board, spec = half
        match = match.record_score(
            board, DEAD if spec is None else won(match.boards[board].players[spec[0]], 5)
        )
    totals, boxes = match.totals, match.rounds_won
    resigned = match.resign(leaver, reason)
    winner = 1 - match.team_of(leaver)
    assert resigned.is_over and resigned.winner == winner and resigned.totals == totals
    assert resigned.final_scores == team_scores(ruleset, totals, boxes, winner)
    assert Partnership.from_dict(json.loads(json.dumps(resigned.to_dict()))) == resigned
    with pytest.raises(IllegalMove, match="the game is over"):
        resigned.record_score(resigned.open_boards[0], DEAD)
