"""A game of three or four in the archive: each player's /me/archive/ lists it apart from their
matches with their result, each board's match archive page says which deal of the game it is and
shows its round's netting, the game page once over links every deal's archive, and the staff
replay rebuilds the game's record from the move logs (and flags a stored record that differs)."""

from __future__ import annotations

import random
import re

import pytest
from django.test import Client
from django.urls import reverse

from tables.archive import selectors as archive
from tables.play.models import Match
from tables.play.services.matches import resign
from tables.variants import engine, replays, services
from tables.variants.models import Board, GameTable
from tests.tables.helpers import cards_in, make_account_client, pages_in

from .helpers import committed, open_boards, play_board, seated_game

pytestmark = pytest.mark.django_db
PARTNERSHIP, WINNER_STAYS = GameTable.Variant.PARTNERSHIP, GameTable.Variant.WINNER_STAYS


def played_out(variant: str, target: int, seed: int) -> tuple[GameTable, list]:
    game, players = seated_game(variant, target=target)
    rng = random.Random(seed)
    while game.status == GameTable.Status.PLAYING:
        for board in open_boards(game):
            play_board(board.table_id, rng)
        game.refresh_from_db()
    return game, players


def logged_in(player) -> Client:
    client = Client()
    client.force_login(player.user)
    return client


def archive_row(html: str, token: str) -> str:
    found = re.search(rf'<li class="archive-game" data-token="{token}">(.*?)</li>', html, re.S)
    assert found is not None
    return found.group(1)


def board_match(board: Board) -> Match:
    return Match.objects.get(table_id=board.table_id)


@pytest.mark.parametrize("variant, target, seed", [(WINNER_STAYS, 30, 3), (PARTNERSHIP, 20, 5)])
def test_a_finished_game_is_in_each_players_archive_with_their_result_and_not_as_matches(
    variant, target, seed
):
    game, players = played_out(variant, target, seed)
    record = engine.load_record(game)
    scores = [score["total"] for score in engine.final_scores(record) or []]
    assert scores and game.winner is not None
    for seat, player in enumerate(players):
        client = logged_in(player)
        for language, won, lost in (("en", "won", "lost"), ("es", "ganada", "perdida")):
            html = pages_in(client, language, ["/me/archive/"])["/me/archive/"]
            row = archive_row(html, game.invite_token)
            assert f'href="/g/{game.invite_token}/"' in row
            mine = engine.side_of(record, seat) == game.winner
            assert (f">{won}<" if mine else f">{lost}<") in row, (seat, language)
            assert all(f" {score}" in row for score in scores)  # each side's final score
            assert not cards_in(html)
        assert not archive.finished_matches_of(player).exists()  # its boards are the game's deals
        for board in Board.objects.filter(game=game):
            assert reverse("match_archive", args=[board_match(board).pk]) not in html


def test_a_resigned_game_says_who_resigned_in_the_archive():
    game, players = seated_game(WINNER_STAYS)
    waiting = engine.load_record(game).who_waits
    services.resign_game(game.invite_token, players[waiting])
    html = pages_in(logged_in(players[waiting]), "en", ["/me/archive/"])["/me/archive/"]
    row = archive_row(html, game.invite_token)
    assert "you resigned" in row and ">lost<" in row
    other = next(player for seat, player in enumerate(players) if seat != waiting)
    row = archive_row(pages_in(logged_in(other), "en", ["/me/archive/"])["/me/archive/"], game.invite_token)
    assert f"{players[waiting].name} resigned" in row


def test_a_boards_archive_page_is_a_deal_of_its_game_with_the_rounds_netting():
    game, players = played_out(PARTNERSHIP, 20, 5)
    record = engine.load_record(game)
    first_round = record.records[0]
    boards = list(Board.objects.filter(game=game, round=1).order_by("number"))
    partner = next(seat for seat in range(4) if seat not in boards[0].players)  # at the other board
    page = reverse("match_archive", args=[board_match(boards[0]).pk])
    for language in ("en", "es"):
        html = pages_in(logged_in(players[partner]), language, [page])[page]  # the game is over
        assert 'id="game-deal"' in html and f'href="/g/{game.invite_token}/"' in html
        assert 'class="round-netting"' in html
        assert reverse("match_archive", args=[board_match(boards[1]).pk]) in html  # the round's other deal
        nets = re.search(r'class="round-netting">(.*?)</p>', html, re.S)
        assert nets is not None and all(str(net) in nets.group(1) for net in first_round.nets)
    english = pages_in(logged_in(players[boards[0].players[0]]), "en", [page])[page]
    assert "round 1, deal 1 of 2" in english
    stranger = make_account_client("stranger@example.com")
    assert stranger.client.get(page).status_code == 404
    assert Client().get(page).status_code == 404


def test_a_deal_of_a_game_in_play_is_seen_by_its_board_only_and_waits_for_its_netting():
    game, players = seated_game(PARTNERSHIP, target=10000)
    first, second = open_boards(game)
    play_board(first.table_id, random.Random(7))
    page = reverse("match_archive", args=[board_match(first).pk])
    html = pages_in(logged_in(players[first.players[0]]), "en", [page])[page]
    assert 'id="game-deal"' in html and "not netted" in html and 'class="round-netting"' not in html
    assert logged_in(players[second.players[0]]).get(page).status_code == 404  # the game plays on
    game_page = logged_in(players[0]).get(f"/g/{game.invite_token}/").content.decode()
    assert 'id="game-archive"' not in game_page


def test_the_game_page_once_over_links_every_deals_archive_to_its_players():
    game, players = played_out(WINNER_STAYS, 30, 4)
    path = f"/g/{game.invite_token}/"
    for language in ("en", "es"):
        html = pages_in(logged_in(players[1]), language, [path])[path]
        assert 'id="game-archive"' in html
        for board in Board.objects.filter(game=game):
            link = reverse("match_archive", args=[board_match(board).pk])
            assert link in html
            assert logged_in(players[1]).get(link).status_code == 200
    assert 'id="game-archive"' not in Client().get(path).content.decode()  # a visitor with the link


@pytest.mark.parametrize("variant, target, seed", [(WINNER_STAYS, 30, 6), (PARTNERSHIP, 20, 8)])
def test_the_staff_replay_rebuilds_the_stored_record_and_flags_a_tampered_one(variant, target, seed):
    game, _ = played_out(variant, target, seed)
    rebuilt = replays.replay_game(game)
    assert rebuilt.equal and rebuilt.rebuilt == game.record and rebuilt.winner == game.winner
    assert all(board.counted and board.match_equal for board in rebuilt.boards)
    staff = make_account_client("staff@example.com", staff=True)
    path = reverse("game_replay", args=[game.invite_token])
    html = staff.client.get(path).content.decode()
    assert 'data-equal="yes"' in html and "DIFFERENT" not in html
    assert html.count('class="replay-board"') == Board.objects.filter(game=game).count()
    if variant == PARTNERSHIP:
        assert 'class="nets"' in html
    tampered = dict(game.record)
    rows = "rounds" if variant == PARTNERSHIP else "deals"
    tampered[rows] = [dict(row) for row in tampered[rows]]
    tampered[rows][0]["totals"] = [total + 5 for total in tampered[rows][0]["totals"]]
    GameTable.objects.filter(pk=game.pk).update(record=tampered)
    html = staff.client.get(path).content.decode()
    assert 'data-equal="no"' in html and "DIFFERENT" in html and f"{rows} row 1" in html


def test_the_staff_replay_of_resigned_games_equals_the_stored_record():
    game, players = seated_game(PARTNERSHIP)
    first, second = open_boards(game)
    play_board(second.table_id, random.Random(9))  # one deal in, pending, before the resignation
    with committed():
        resign(first.table_id, players[first.players[0]])
    game.refresh_from_db()
    assert game.status == GameTable.Status.OVER
    assert replays.replay_game(game).equal
    staff = make_account_client("staff@example.com", staff=True)
    html = staff.client.get(reverse("game_replay", args=[game.invite_token])).content.decode()
    assert 'data-equal="yes"' in html and "resign" in html
    three, seated = seated_game(WINNER_STAYS, target=10000)
    (board,) = open_boards(three)
    play_board(board.table_id, random.Random(10))
    three.refresh_from_db()
    services.resign_game(three.invite_token, seated[engine.load_record(three).who_waits])  # at no board
    three.refresh_from_db()
    rebuilt = replays.replay_game(three)
    assert rebuilt.equal, rebuilt.differences


def test_the_staff_replay_of_a_game_is_refused_to_everyone_else():
    game, players = played_out(WINNER_STAYS, 30, 3)
    path = reverse("game_replay", args=[game.invite_token])
    for client in (logged_in(players[0]), make_account_client("x@example.com").client, Client()):
        response = client.get(path)
        assert response.status_code == 302 and "/admin/login/" in response["Location"]  # as the deal's
    staff = make_account_client("staff@example.com", staff=True)
    assert staff.client.get(reverse("game_replay", args=["nosuchgame"])).status_code == 404
