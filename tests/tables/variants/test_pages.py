"""The pages of a table of three or four in both languages: the new-table form's choice of
players, the game page's seats, buttons, deals and score sheet, a guest taking a seat by the
invite link, and the link from each deal's table back to its game."""

from __future__ import annotations

import random
import re

import pytest
from django.test import Client

from tables.variants.models import Board, GameSeat, GameTable
from tests.tables.helpers import cards_in, make_account_client, pages_in

from .helpers import committed, open_boards, play_board

pytestmark = pytest.mark.django_db
# The game's panel shows the running deal as its spectators see it (its pile's top among it).
BOARD_VIEWS = re.compile(r'<article class="board-view".*?</article>', re.S)

FORM = {"ruleset": "playgridia", "turn_seconds": "86400", "visibility": "invite", "move_log": "auto",
        "time_bank": "auto", "forfeit_after": "3", "spectator_chat": "on"}  # fmt: skip


def test_the_form_opens_a_table_of_three_a_guest_sits_by_the_link_and_the_pages_show_the_game():
    alice = make_account_client("alice@example.com")
    response = alice.client.post("/new/", {**FORM, "players": "3", "target": "30"})
    game = GameTable.objects.get()
    page = f"/g/{game.invite_token}/"
    assert response.status_code == 302 and response["Location"] == page
    assert game.variant == GameTable.Variant.WINNER_STAYS and game.target == 30
    visitor = Client()
    assert 'id="join-game"' in visitor.get(page).content.decode()
    assert visitor.post(f"{page}join/", {"name": "Carol"}).status_code == 302
    alice.client.post(f"{page}robot/", {"level": "tito"})
    assert GameSeat.objects.filter(game=game).count() == 3
    with committed():
        alice.client.post(f"{page}start/")
    game.refresh_from_db()
    assert game.status == GameTable.Status.PLAYING
    (board,) = open_boards(game)
    play_board(board.table_id, random.Random(2))
    for language in ("es", "en"):
        html = pages_in(alice.client, language, [page])[page]
        assert 'id="score-sheet"' in html and 'id="game-boards"' in html
        assert not cards_in(BOARD_VIEWS.sub("", html))  # the running deal: test_board_panel
    html = pages_in(visitor, "es", [page])[page]
    assert "Mesa de tres" in html
    board_page = f"/t/{Board.objects.first().table.invite_token}/"
    english = pages_in(alice.client, "en", [board_page])[board_page]
    assert 'id="game-pill"' in english and page in english


def test_a_table_of_four_by_the_form_with_drawn_partners_and_refusals_on_the_page():
    alice = make_account_client("alice@example.com")
    response = alice.client.post("/new/", {**FORM, "players": "4", "partners": "drawn", "hollywood": "on"})
    assert response.status_code == 200 and not GameTable.objects.exists()  # refused, with its reason
    assert "Hollywood" in response.content.decode()
    alice.client.post("/new/", {**FORM, "players": "4", "partners": "drawn"})
    game = GameTable.objects.get()
    page = f"/g/{game.invite_token}/"
    assert game.partners == GameTable.Partners.DRAWN
    alice.client.post(f"{page}start/", follow=True)
    game.refresh_from_db()
    assert game.status == GameTable.Status.WAITING  # seats free: refused
    for level in ("tito", "carmen", "luna"):
        alice.client.post(f"{page}robot/", {"level": level})
    with committed():
        alice.client.post(f"{page}start/")
    game.refresh_from_db()
    assert game.status == GameTable.Status.PLAYING and len(open_boards(game)) == 2
    html = pages_in(alice.client, "en", [page])[page]
    assert "PLAY YOUR DEAL" in html and "team 1" in html
    assert Client().post(f"{page}explode/").status_code == 404


def test_my_tables_lists_a_players_game_tables_with_the_deal_to_play_and_play_again_follows_on():
    alice = make_account_client("alice@example.com")
    alice.client.post("/new/", {**FORM, "players": "3"})
    game = GameTable.objects.get()
    page = f"/g/{game.invite_token}/"
    for level in ("tito", "carmen"):
        alice.client.post(f"{page}robot/", {"level": level})
    html = pages_in(alice.client, "en", ["/me/tables/"])["/me/tables/"]
    assert 'id="my-games"' in html and page in html and "waiting for players" in html
    with committed():
        alice.client.post(f"{page}start/")
    html = pages_in(alice.client, "es", ["/me/tables/"])["/me/tables/"]
    assert "Mesa de tres" in html
    board = Board.objects.filter(game=game).first()
    seated = GameSeat.objects.filter(game=game, number__in=board.players, player_id=game.owner_id).exists()
    assert (
        f"/t/{board.table.invite_token}/" in html
    ) == seated  # her deal, one click away; none while she waits
    with committed():
        alice.client.post(f"{page}resign/")
    response = alice.client.post(f"{page}again/")
    following = GameTable.objects.exclude(pk=game.pk).get()
    assert response.status_code == 302 and response["Location"] == f"/g/{following.invite_token}/"
    html = pages_in(Client(), "en", [page])[page]
    assert f"/g/{following.invite_token}/" in html  # the next game, for everyone with the link
