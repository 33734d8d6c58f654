"""Tables of three and four through their writers: seats, the start, each board at its own
table, a board's result reaching the game once, the rounds, the end, resignation and the sweep."""

from __future__ import annotations

import random

import pytest

import rules
from tables.core.errors import BadRequest, Conflict, Forbidden
from tables.play.models import Match, Table
from tables.play.services.matches import resign
from tables.variants import engine, services
from tables.variants.models import Board, GameSeat, GameTable
from tables.variants.tasks import sweep_game_boards

from .helpers import accounts, committed, open_boards, play_board, seated_game

pytestmark = pytest.mark.django_db
PARTNERSHIP, WINNER_STAYS = GameTable.Variant.PARTNERSHIP, GameTable.Variant.WINNER_STAYS


def test_a_table_of_four_fills_its_seats_and_starts_two_boards_of_partners_against_each_other():
    game, players = seated_game(PARTNERSHIP)
    assert game.status == GameTable.Status.PLAYING
    boards = open_boards(game)
    assert [(board.round, board.number) for board in boards] == [(1, 0), (1, 1)]
    record = engine.load_record(game)
    assert isinstance(record, rules.Partnership)
    for board in boards:
        first, second = board.players
        assert record.team_of(first) != record.team_of(second)  # each plays the other team
        table = Table.objects.get(pk=board.table_id)
        assert (table.seat0, table.seat1) == (players[first], players[second])
        assert not table.rated and not table.rematches
        match = Match.objects.get(table=table)
        assert engine.play_engine.load_match(match).board == rules.BOARD_ONE_DEAL
    assert {seat for board in boards for seat in board.players} == {0, 1, 2, 3}


def test_a_table_of_three_opens_one_board_and_the_third_player_waits():
    game, _ = seated_game(WINNER_STAYS)
    (board,) = open_boards(game)
    record = engine.load_record(game)
    assert tuple(board.players) == record.who_plays
    assert record.who_waits not in board.players
    match = Match.objects.get(table_id=board.table_id)
    assert engine.play_engine.load_match(match).board == rules.BOARD_UNTIL_SCORED


def test_seats_are_checked_before_the_start():
    owner, guest, other, fourth, fifth = accounts(5, prefix="s")
    game = services.create_game(owner, WINNER_STAYS)
    with pytest.raises(Conflict):
        services.start_game(game.invite_token, owner)  # seats free
    assert services.join_game(game.invite_token, guest) == 1
    assert services.join_game(game.invite_token, guest) == 1  # already seated: no second seat
    with pytest.raises(Forbidden):
        services.start_game(game.invite_token, guest)  # not the owner
    assert services.add_robot(game.invite_token, owner, "tito") == 2
    with pytest.raises(Conflict):
        services.add_robot(game.invite_token, owner, "carmen")  # full
    assert services.join_game(game.invite_token, other) is None  # full: watches
    services.leave_game(game.invite_token, owner, seat=2)  # the owner clears the robot
    with pytest.raises(Conflict):
        services.leave_game(game.invite_token, owner)  # the owner stays
    services.leave_game(game.invite_token, guest)
    assert list(GameSeat.objects.filter(game=game).values_list("number", flat=True)) == [0]
    services.join_game(game.invite_token, fourth)
    services.join_game(game.invite_token, fifth)
    services.start_game(game.invite_token, owner)
    with pytest.raises(Conflict):
        services.join_game(game.invite_token, other) or services.add_robot(game.invite_token, owner, "luna")


def test_one_robot_of_each_level_per_table():
    (owner,) = accounts(1, prefix="r")
    game = services.create_game(owner, PARTNERSHIP)
    services.add_robot(game.invite_token, owner, "tito")
    with pytest.raises(Conflict):
        services.add_robot(game.invite_token, owner, "tito")
    services.add_robot(game.invite_token, owner, "carmen")
    services.add_robot(game.invite_token, owner, "luna")
    services.start_game(game.invite_token, owner)
    assert len(open_boards(game)) == 2


@pytest.mark.parametrize(
    ("options", "field"),
    [
        ({"hollywood": True, "target": 100}, "hollywood"),
        ({"rated": True}, "rated"),
        ({"ruleset": "nonsense"}, "ruleset"),
        ({"target": 0}, "target"),
        ({"turn_seconds": 7}, "turn_seconds"),
    ],
)
def test_bad_options_are_refused_and_nothing_is_created(options, field):
    (owner,) = accounts(1, prefix="b")
    with pytest.raises(BadRequest) as refused:
        services.create_game(owner, PARTNERSHIP, **options)
    assert refused.value.field == field
    assert not GameTable.objects.exists()


def test_a_partnership_round_nets_once_both_deals_are_in_and_the_next_round_switches_opponents():
    game, _ = seated_game(PARTNERSHIP, target=10000)
    rng = random.Random(7)
    first, second = open_boards(game)
    play_board(first.table_id, rng)
    game.refresh_from_db()
    record = engine.load_record(game)
    assert not record.records and record.open_boards == (1,)  # one deal in: nothing netted
    assert len(open_boards(game)) == 1
    play_board(second.table_id, rng)
    game.refresh_from_db()
    record = engine.load_record(game)
    assert len(record.records) == 1  # netted once
    next_boards = open_boards(game)
    assert [(b.round, b.number) for b in next_boards] == [(2, 0), (2, 1)]
    before = {frozenset(b.players) for b in (first, second)}
    assert not before & {frozenset(b.players) for b in next_boards}  # partners switched opponents


def test_winner_stays_the_loser_waits_and_the_game_ends_at_the_target_with_its_bonuses():
    game, _ = seated_game(WINNER_STAYS, target=40)
    rng = random.Random(3)
    deals = 0
    while game.status == GameTable.Status.PLAYING:
        (board,) = open_boards(game)
        record = engine.load_record(game)
        waiting = record.who_waits
        match = play_board(board.table_id, rng)
        assert match is not None and match.status == Match.Status.OVER
        game.refresh_from_db()
        deals += 1
        record = engine.load_record(game)
        if not record.is_over:
            scored = record.records[-1]
            assert waiting in record.who_plays and scored.winner in record.who_plays
            assert scored.loser == record.who_waits
    assert game.winner is not None and game.ended_by == ""
    record = engine.load_record(game)
    assert record.totals[game.winner] >= 40 and record.final_scores is not None
    assert deals == Board.objects.filter(game=game).count()
    assert not open_boards(game)


def test_a_resignation_at_a_board_ends_the_game_for_that_side_and_calls_off_the_other_board():
    game, players = seated_game(PARTNERSHIP)
    first, second = open_boards(game)
    leaver = first.players[0]
    with committed():
        resign(first.table_id, players[leaver])
    game.refresh_from_db()
    record = engine.load_record(game)
    assert game.status == GameTable.Status.OVER and game.ended_by == "resign"
    assert game.winner == 1 - record.team_of(leaver)
    other = Match.objects.get(table_id=second.table_id)
    assert other.status == Match.Status.OVER and other.outcome == Match.Outcome.RESIGNED
    assert not open_boards(game)


def test_a_waiting_player_resigns_the_game_directly():
    game, players = seated_game(WINNER_STAYS)
    waiting = engine.load_record(game).who_waits
    services.resign_game(game.invite_token, players[waiting])
    game.refresh_from_db()
    assert game.status == GameTable.Status.OVER and game.winner != waiting
    assert not open_boards(game)


def test_the_sweep_records_a_board_whose_announcement_was_lost(monkeypatch):
    from tables.variants import watchers

    game, _ = seated_game(WINNER_STAYS, target=10000)
    monkeypatch.setattr(watchers, "record_board_end", lambda table_id: False)  # the hook lost
    (board,) = open_boards(game)
    play_board(board.table_id, random.Random(5))
    assert open_boards(game) == [board]
    Match.objects.filter(table_id=board.table_id).update(
        ended_at=Match.objects.get(table_id=board.table_id).ended_at.replace(year=2020)
    )
    assert sweep_game_boards() == 1
    assert sweep_game_boards() == 0
    game.refresh_from_db()
    assert len(engine.load_record(game).records) >= 1
    assert len(open_boards(game)) == 1 and open_boards(game)[0].round == 2


def test_the_boards_deals_count_on_the_player_pages_but_no_board_counts_as_a_match():
    from tables.records.models import PlayerMatch, PlayerRecord
    from tables.records.services import rebuild

    game, _ = seated_game(WINNER_STAYS, target=10000)
    rng = random.Random(11)
    for _ in range(2):
        (board,) = open_boards(game)
        play_board(board.table_id, rng)
    kept = {row.player_id: row for row in PlayerRecord.objects.all()}
    assert sum(row.deals for row in kept.values()) >= 4  # two boards, both players of each
    assert all(row.matches == row.wins == 0 for row in kept.values())
    assert not PlayerMatch.objects.exists()
    rebuild()
    again = {row.player_id: row for row in PlayerRecord.objects.all()}
    fields = ("matches", "wins", "deals", "gins", "knocks", "turns", "timeouts")
    assert {k: [getattr(r, f) for f in fields] for k, r in again.items()} == {
        k: [getattr(r, f) for f in fields] for k, r in kept.items()
    }


def test_play_again_opens_the_next_game_once_with_the_robots_back_and_each_player_in_their_seat():
    (owner, second, third) = accounts(3, prefix="again")
    game = services.create_game(owner, PARTNERSHIP)
    services.join_game(game.invite_token, second)
    services.add_robot(game.invite_token, owner, "tito")
    services.join_game(game.invite_token, third)
    with committed():
        services.start_game(game.invite_token, owner)
    with pytest.raises(Conflict):
        services.play_again(game.invite_token, second)  # not over yet
    with committed():
        services.resign_game(game.invite_token, third)
    following = services.play_again(game.invite_token, third)
    assert following.owner_id == third.pk and following.status == GameTable.Status.WAITING
    assert services.play_again(game.invite_token, second).pk == following.pk  # opened once
    seats = dict(GameSeat.objects.filter(game=following).values_list("number", "player_id"))
    before = dict(GameSeat.objects.filter(game=game).values_list("number", "player_id"))
    assert seats == {number: player for number, player in before.items() if player != owner.pk}
    (outsider,) = accounts(1, prefix="outside")
    with pytest.raises(Forbidden):
        services.play_again(game.invite_token, outsider)
    assert services.play_again(game.invite_token, owner).pk == following.pk
    services.start_game(following.invite_token, third)
    assert len(open_boards(following)) == 2


@pytest.mark.parametrize("language", ["en", "es"])
def test_each_person_at_the_table_gets_one_inbox_line_of_the_games_result(language):
    from tables.accounts.models import Player
    from tables.alerts.models import InboxItem

    game, players = seated_game(PARTNERSHIP)
    Player.objects.filter(pk__in=[p.pk for p in players]).update(language=language)
    leaver = players[1]
    with committed():
        services.resign_game(game.invite_token, leaver)
    lines = InboxItem.objects.filter(kind="game_over").order_by("player_id")
    assert sorted(line.player_id for line in lines) == sorted(p.pk for p in players)  # once each
    record = engine.load_record(engine_game(game))
    for line in lines:
        won = record.team_of([p.pk for p in players].index(line.player_id)) == record.winner
        words = {"en": ("won", "lost"), "es": ("ganó", "perdió")}[language]
        assert (words[0] if won else words[1]) in line.body and line.path == f"/g/{game.invite_token}/"


def engine_game(game: GameTable) -> GameTable:
    game.refresh_from_db()
    return game


def test_a_deleted_account_leaves_its_games_a_waiting_seat_freed_a_game_in_play_resigned():
    from django.contrib.auth import get_user_model

    from tables.accounts.services.deletion import delete_account

    game, players = seated_game(WINNER_STAYS)
    waiting_seat = engine.load_record(game).who_waits
    (stranger_owner,) = accounts(1, prefix="own")
    waiting_game = services.create_game(stranger_owner, PARTNERSHIP)
    leaver = players[waiting_seat]
    services.join_game(waiting_game.invite_token, leaver)
    own = services.create_game(leaver, WINNER_STAYS)
    with committed():
        delete_account(get_user_model().objects.get(pk=leaver.user_id))
    game.refresh_from_db()
    assert game.status == GameTable.Status.OVER and game.ended_by == "resign" and game.winner != waiting_seat
    assert not GameSeat.objects.filter(game=waiting_game, player=leaver).exists()
    assert not GameTable.objects.filter(pk=own.pk).exists()
