"""Board matches: one deal of a three- or four-player variant played at an ordinary two-seat table.

``BOARD_ONE_DEAL`` (partnership gin) is over after its first deal, scored or dead;
``BOARD_UNTIL_SCORED`` (winner stays) deals a dead deal again by the same dealer and is over after
its first scored deal. Its final scores are the deal points alone: the variant gives the bonuses.
Played board by board, a variant's game is the same as with its deals recorded directly.
"""

from __future__ import annotations

import dataclasses
import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules import (
    BOARD_ONE_DEAL,
    BOARD_UNTIL_SCORED,
    BOARDS,
    CARDS,
    RULESETS,
    TEAMS,
    DealRecord,
    DealResult,
    IllegalMove,
    InvalidState,
    Match,
    Partnership,
    SeatScore,
    UnsupportedVariant,
    WinnerStays,
)
from rules.variants import result_of
from tests.rules.crafting import dead_deal, knock_deal
from tests.rules.test_properties import choose

CLASSIC, PLAYGRIDIA, REINO = RULESETS["classic"], RULESETS["playgridia"], RULESETS["reino"]
ALL = [CLASSIC, PLAYGRIDIA, REINO, RULESETS["oklahoma"], dataclasses.replace(CLASSIC, target=10)]
KNOCK_5_HAND = "AS 2S 3S 8H 8D 8C JD QD KD 5H"
AGAINST_KNOCK_5 = "2C 3C 4C 6S 6H 6D 9C TC JC KC"  # 10 deadwood: the knocker scores 5


def score(match: Match, spec: tuple[int, str, int] | None) -> Match:
    """Record a spec, in deal seats: None a dead deal, else (winner, outcome, points)."""
    if spec is None:
        return match.record_score("dead", None, 0)
    winner, outcome, points = spec
    return match.record_score(outcome, winner, points, 1 - winner if outcome == "undercut" else winner)


def table_result(record: DealRecord, players: tuple[int, int]) -> DealResult:
    """A board's deal in table seats, as rules.variants.result_of maps a deal."""
    return DealResult(
        record.outcome,
        None if record.winner is None else players[record.winner],
        record.points,
        None if record.knocker is None else players[record.knocker],
    )


def relative(spec: tuple[int, str, int] | None, players: tuple[int, int]) -> DealResult:
    """A spec in deal seats as the result of a deal between ``players``, in table seats."""
    if spec is None:
        return DealResult("dead", None, 0)
    winner, outcome, points = spec
    knocker = 1 - winner if outcome == "undercut" else winner
    return DealResult(outcome, players[winner], points, players[knocker])


# -- hand-worked examples ---------------------------------------------------------------------


def test_a_dead_one_deal_board_is_over_with_no_winner_and_nothing_scored():
    board = Match.new(CLASSIC, first_dealer=1, board=BOARD_ONE_DEAL)
    assert (board.is_over, board.winner, board.final_scores) == (False, None, None)
    board = board.record(dead_deal(CLASSIC, 1))
    assert (board.is_over, board.winner, board.totals) == (True, None, (0, 0))
    assert board.final_scores == (SeatScore(0, 0, 0, 0), SeatScore(0, 0, 0, 0))
    with pytest.raises(IllegalMove, match="the match is over"):
        board.next_deal()
    with pytest.raises(IllegalMove, match="the match is over"):
        board.record_score("dead", None, 0)
    with pytest.raises(IllegalMove, match="the match is over"):
        board.resign(0)


def test_a_scored_one_deal_board_has_no_bonus_even_under_classic():
    """Classic would give a match winner 100 (200 for a shutout) and 20 a deal won: not a board."""
    board = Match.new(CLASSIC, first_dealer=0, board=BOARD_ONE_DEAL)
    board = board.record(knock_deal(CLASSIC, 0, 1, KNOCK_5_HAND, AGAINST_KNOCK_5))
    assert (board.is_over, board.winner, board.totals, board.deals_won) == (True, 1, (0, 5), (0, 1))
    assert board.final_scores == (SeatScore(0, 0, 0, 0), SeatScore(5, 0, 0, 1))


def test_an_until_scored_board_deals_a_dead_deal_again_by_the_same_dealer():
    """Reino (the winner would deal next, classic's target 100): dead, dead, then seat 0 knocks
    for 5: the board is over at 5–0, far from 100, with no bonus."""
    board = Match.new(REINO, first_dealer=1, board=BOARD_UNTIL_SCORED)
    for _ in range(2):
        board = board.record(dead_deal(REINO, board.dealer))
        assert not board.is_over and board.dealer == 1 and board.final_scores is None
    board = board.record(knock_deal(REINO, 1, 0, KNOCK_5_HAND, AGAINST_KNOCK_5))
    assert [r.dealer for r in board.records] == [1, 1, 1]
    assert [r.outcome for r in board.records] == ["dead", "dead", "knock"]
    assert (board.is_over, board.winner, board.totals) == (True, 0, (5, 0))
    assert board.final_scores == (SeatScore(5, 0, 0, 1), SeatScore(0, 0, 0, 0))
    with pytest.raises(IllegalMove, match="the match is over"):
        board.next_deal()


def test_a_board_resigned_goes_to_the_other_seat_on_deal_points():
    board = Match.new(CLASSIC, first_dealer=0, board=BOARD_UNTIL_SCORED).record_score("dead", None, 0)
    resigned = board.resign(0, "forfeit")
    assert (resigned.is_over, resigned.winner, resigned.leaver, resigned.ended_by) == (True, 1, 0, "forfeit")
    assert resigned.final_scores == (SeatScore(0, 0, 0, 0), SeatScore(0, 0, 0, 0))
    assert Match.from_dict(json.loads(json.dumps(resigned.to_dict()))) == resigned
    fresh = Match.new(PLAYGRIDIA, first_dealer=1, board=BOARD_ONE_DEAL).resign(1)
    assert (fresh.winner, fresh.final_scores) == (0, (SeatScore(0, 0, 0, 0), SeatScore(0, 0, 0, 0)))
    with pytest.raises(ValueError, match="seat"):
        board.resign(2)


# -- the stored form --------------------------------------------------------------------------


def test_an_ordinary_matchs_stored_form_is_unchanged():
    """No "board" key, byte for byte the form stored before boards existed."""
    match = Match.new(CLASSIC, first_dealer=0).record_score("gin", 1, 40, 1).resign(0)
    expected = {
        "format": 1,
        "ruleset": CLASSIC.to_dict(),
        "first_dealer": 0,
        "deals": [
            {
                "dealer": 0,
                "outcome": "gin",
                "winner": 1,
                "points": 40,
                "knocker": 1,
                "totals": [0, 40],
                "games": [],
            }
        ],
        "ended_by": "resign",
        "leaver": 0,
    }
    assert json.dumps(match.to_dict()) == json.dumps(expected)
    assert match.board is None and Match.from_dict(expected) == match


@pytest.mark.parametrize("kind", BOARDS)
def test_a_board_is_stored_and_read_back(kind):
    board = score(Match.new(CLASSIC, first_dealer=1, board=kind), None)
    data = json.loads(json.dumps(board.to_dict()))
    assert data["board"] == kind and list(data) == [*Match.new(CLASSIC, 0).to_dict(), "board"]
    assert Match.from_dict(data) == board
    data["board"] = None  # read as an ordinary match: the dead deal leaves it open
    assert not Match.from_dict(data).is_over and Match.from_dict(data).board is None


@pytest.mark.parametrize(
    ("board", "problem"),
    [("two_deals", "board must be one of one_deal, until_scored"), (1, "not 1"), ("", "not ''")],
)
def test_an_unknown_board_is_refused(board, problem):
    with pytest.raises(InvalidState, match=problem):
        Match.new(CLASSIC, 0, board=board)
    data = Match.new(CLASSIC, 0, board=BOARD_ONE_DEAL).to_dict()
    data["board"] = board
    with pytest.raises(InvalidState, match=problem):
        Match.from_dict(data)


def test_a_stored_board_with_a_deal_after_its_end_is_refused():
    data = score(Match.new(CLASSIC, 0, board=BOARD_UNTIL_SCORED), (0, "knock", 5)).to_dict()
    data["deals"].append(dict(data["deals"][0]))
    with pytest.raises(InvalidState, match="the match is over"):
        Match.from_dict(data)


@pytest.mark.parametrize("kind", BOARDS)
def test_hollywood_is_refused_for_a_board(kind):
    hollywood = dataclasses.replace(CLASSIC, hollywood=True)
    with pytest.raises(UnsupportedVariant, match="Hollywood scoring does not combine with a board"):
        Match.new(hollywood, 0, board=kind)
    data = Match.new(hollywood, 0).to_dict()
    data["board"] = kind
    with pytest.raises(InvalidState, match="Hollywood"):
        Match.from_dict(data)


# -- random results ---------------------------------------------------------------------------

SPEC = st.one_of(
    st.none(),  # a dead deal
    st.tuples(
        st.integers(0, 1), st.sampled_from(["knock", "gin", "big_gin", "undercut"]), st.integers(0, 150)
    ),
)


@settings(max_examples=300)
@given(
    kind=st.sampled_from(BOARDS),
    ruleset=st.sampled_from(ALL),
    first_dealer=st.integers(0, 1),
    specs=st.lists(SPEC, max_size=8),
    resign_at=st.one_of(st.none(), st.tuples(st.integers(0, 8), st.integers(0, 1))),
)
def test_boards_over_random_results(kind, ruleset, first_dealer, specs, resign_at):
    board = Match.new(ruleset, first_dealer, kind)
    played: list[tuple[int, str, int] | None] = []
    for number, spec in enumerate(specs):
        if board.is_over:
            break
        if resign_at is not None and resign_at[0] == number:
            board = board.resign(resign_at[1])
            break
        assert board.dealer == first_dealer  # every redeal: the same dealer
        board = score(board, spec)
        played.append(spec)

    # over exactly when expected: one deal, or the dead deals and the first scored one
    if kind == BOARD_ONE_DEAL:
        length = min(len(specs), 1)
    else:
        length = next((number + 1 for number, spec in enumerate(specs) if spec is not None), len(specs))
    resigned = resign_at is not None and resign_at[0] < length
    assert played == specs[: resign_at[0] if resigned else length]
    ended = bool(played) and (kind == BOARD_ONE_DEAL or played[-1] is not None)
    assert board.is_over == (resigned or ended)
    assert (board.leaver, board.ended_by) == ((resign_at[1], "resign") if resigned else (None, None))
    assert all(record.dealer == first_dealer for record in board.records)

    scored = [spec for spec in played if spec is not None]
    assert len(scored) <= 1
    if resigned:
        assert board.winner == 1 - resign_at[1]
    else:
        assert board.winner == (scored[0][0] if scored else None)
    totals = [0, 0]
    for winner, _, points in scored:
        totals[winner] += points
    assert board.totals == tuple(totals)
    if board.is_over:  # the deal points alone, whatever the rule set's bonuses and target
        assert board.final_scores == tuple(
            SeatScore(totals[seat], 0, 0, sum(spec[0] == seat for spec in scored)) for seat in (0, 1)
        )
    else:
        assert board.final_scores is None and board.winner is None
        assert board.next_deal(CARDS).dealer == first_dealer

    data = json.loads(json.dumps(board.to_dict()))
    assert data["board"] == kind and Match.from_dict(data) == board


# -- a variant played board by board ----------------------------------------------------------

RELATIVE = st.one_of(
    st.none(), st.tuples(st.integers(0, 1), st.sampled_from(["knock", "gin", "undercut"]), st.integers(1, 80))
)


@settings(max_examples=300)
@given(
    ruleset=st.sampled_from(ALL[:4]),
    first_waiting=st.integers(0, 2),
    dealer_pick=st.integers(0, 1),
    target=st.sampled_from([None, 40, 150]),
    specs=st.lists(RELATIVE, max_size=40),
)
def test_winner_stays_played_through_until_scored_boards(ruleset, first_waiting, dealer_pick, target, specs):
    """Each board an until_scored match between the two playing, its first dealer the game's
    dealer; each deal recorded in the game as it ends, in table seats."""
    first_dealer = [seat for seat in range(3) if seat != first_waiting][dealer_pick]
    start = WinnerStays.new(ruleset, first_waiting, first_dealer, target)
    game, direct, board, players = start, start, None, (0, 1)
    for spec in specs:
        if game.is_over:
            break
        if board is None:
            players = game.who_plays
            board = Match.new(ruleset, players.index(game.dealer), BOARD_UNTIL_SCORED)
        assert game.who_plays == players and players[board.dealer] == game.dealer
        board = score(board, spec)
        game = game.record_score(table_result(board.records[-1], players))
        direct = direct.record_score(relative(spec, players))
        assert board.is_over == (spec is not None)  # a new board exactly when the two playing change
        if board.is_over:
            scores = board.final_scores
            assert scores is not None and board.winner is not None
            assert game.records[-1].winner == players[board.winner]
            assert [r.dealer for r in game.records[-len(board.records) :]] == [
                players[r.dealer] for r in board.records
            ]
            points = game.records[-1].result.points
            assert [score.total for score in scores] == [points * (board.winner == seat) for seat in (0, 1)]
            board = None
    assert game == direct
    replayed = start.record_all(record.result for record in direct.records)
    assert game == replayed


@settings(max_examples=10)
@given(seed=st.integers(0, 2**32 - 1), name=st.sampled_from(["classic", "playgridia", "reino", "oklahoma"]))
def test_winner_stays_of_real_deals_board_by_board(seed, name):
    """Real deals dealt by each board (dead ones dealt again by its dealer): the game records
    each with `record` (rules.variants.result_of checks that the board's dealer is the game's)."""
    rng, ruleset = random.Random(seed), RULESETS[name]
    start = WinnerStays.new(ruleset, rng.randrange(3), None, target=50)
    game, direct = start, start
    for _ in range(6):
        if game.is_over:
            break
        players, dealer = game.who_plays, game.dealer
        board = Match.new(ruleset, players.index(dealer), BOARD_UNTIL_SCORED)
        while not board.is_over:
            deal = board.next_deal(rng.sample(CARDS, 52))
            while not deal.is_over:
                deal, _ = deal.apply(choose(deal, rng))
            board = board.record(deal)
            assert result_of(deal, ruleset, players, dealer) == table_result(board.records[-1], players)
            game = game.record(deal)
            direct = direct.record_score(result_of(deal, ruleset, players, dealer))
        assert (game.who_plays != players or game.is_over) and board.winner is not None
    assert game == direct and WinnerStays.from_dict(game.to_dict()) == game


@settings(max_examples=200)
@given(
    ruleset=st.sampled_from(ALL[:4]),
    first_dealer_team=st.integers(0, 1),
    rounds=st.lists(st.tuples(RELATIVE, RELATIVE, st.booleans()), max_size=20),
)
def test_partnership_played_through_one_deal_boards(ruleset, first_dealer_team, rounds):
    """Each board of a round a one_deal match: a dead deal ends it too, and is not replayed."""
    start = Partnership.new(ruleset, TEAMS, first_dealer_team, target=150)
    game, direct = start, start
    for first, second, swap in rounds:
        if game.is_over:
            break
        boards = game.boards
        for number in (1, 0) if swap else (0, 1):
            seats = boards[number]
            board = Match.new(ruleset, seats.players.index(seats.dealer), BOARD_ONE_DEAL)
            board = score(board, (first, second)[number])
            assert board.is_over and board.final_scores is not None
            assert [s.total for s in board.final_scores] == list(board.totals)
            result = table_result(board.records[0], seats.players)
            assert result == relative((first, second)[number], seats.players)
            game = game.record_score(number, result)
        direct = direct.record_all(
            (number, relative(spec, boards[number].players)) for number, spec in enumerate((first, second))
        )
    assert game == direct
