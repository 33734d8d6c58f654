"""The game's panel: on a board's table page, the other deal of the round as a spectator of its
table sees it, the score sheet and the round's netting once both deals are in; on the game page,
the running deal for the player who waits (three players). Its JSON (GET /api/games/{token}/boards)
and the panel alone (/g/<token>/panel/), bad input refused clearly, and a two-player table's page
asks nothing more."""

from __future__ import annotations

import random
import re

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from bots import BOTS
from bots.base import MatchContext
from tables.play import engine, services
from tables.play.models import Move, Table
from tables.variants.models import Board, GameTable
from tests.tables.helpers import ApiClient, cards_in, make_account_client, pages_in, secret_cards

from .helpers import committed, open_boards, play_board, seated_game

pytestmark = pytest.mark.django_db

PANEL = re.compile(r'<section class="card-panel board-game" id="board-game".*?</section>', re.S)
BOARD_VIEW = re.compile(r'<article class="board-view" data-table="([^"]+)">(.*?)</article>', re.S)


def logged_in(player) -> Client:
    client = Client()
    client.force_login(player.user)
    return client


def play_moves(table_id: int, count: int, rng: random.Random) -> None:
    """``count`` moves at the table, each seat's chosen by TITO."""
    for _ in range(count):
        table = Table.objects.select_related("seat0", "seat1", "current_deal__match").get(pk=table_id)
        state = engine.load_deal(table.current_deal)
        seat = state.to_play
        totals = engine.load_match(table.current_deal.match).totals
        action = BOTS["tito"]().choose(
            state.view(seat), rng, MatchContext(totals[seat], totals[1 - seat], state.ruleset.target)
        )
        with committed():
            services.apply_move(
                table.pk, table.seats[seat], action, expected_version=table.version, source=Move.Source.BOT
            )


def panel_of(html: str) -> str:
    found = PANEL.search(html)
    assert found, html[:3000]
    return found.group(0)


def spectator_secret(board: Board) -> set[str]:
    table = Table.objects.select_related("current_deal").get(pk=board.table_id)
    return secret_cards(engine.load_deal(table.current_deal), None)


def assert_spectator_only(html: str) -> None:
    """Every board in the panel names no card a spectator of its table may not see."""
    for token, part in BOARD_VIEW.findall(html):
        board = Board.objects.get(table__invite_token=token)
        assert not cards_in(part) & spectator_secret(board), part


def test_a_board_page_shows_the_other_deal_as_a_spectator_sees_it_then_the_netted_round():
    game, players = seated_game(GameTable.Variant.PARTNERSHIP, target=10000)
    mine, other = open_boards(game)
    me = players[mine.players[0]]
    page = f"/t/{mine.table.invite_token}/"
    play_moves(other.table_id, 5, random.Random(1))

    state = engine.load_deal(Table.objects.get(pk=other.table_id).current_deal)
    view = state.view(None)
    for client in (logged_in(me), Client()):  # its player, and a visitor with the link
        panel = panel_of(pages_in(client, "en", [page])[page])
        ((token, part),) = BOARD_VIEW.findall(panel)
        assert token == other.table.invite_token
        assert f"Stock: {view.stock_count} cards" in part and "to play" in part
        assert f"{view.hand_counts[0]} cards" in part
        assert not cards_in(part) & spectator_secret(other)
        assert "The round nets once both deals are over." in panel and 'data-settled=""' in panel

    answer = ApiClient(Client(), name="visitor").ok("get", f"/games/{game.invite_token}/boards?round=1")
    watched = answer["boards"][other.number]
    assert answer["round"] == 1 and [b["table"] for b in answer["boards"]] == [
        mine.table.invite_token,
        other.table.invite_token,
    ]
    assert watched["stock_count"] == view.stock_count and watched["hand_counts"] == list(view.hand_counts)
    assert watched["to_play"] == other.players[view.to_play] and watched["result"] is None
    assert watched["discard_top"] == str(view.top_discard)
    assert not {"hand", "hands", "deck", "stock"} & set(watched)

    play_board(other.table_id, random.Random(2))
    panel = panel_of(pages_in(logged_in(me), "en", [page])[page])
    ended = ApiClient(Client(), name="visitor").ok("get", f"/games/{game.invite_token}/boards")["boards"]
    result = ended[other.number]["result"]
    assert ended[other.number]["over"] and result is not None
    if result["outcome"] != "dead":
        assert f"+{result['points']}</strong> ({result['outcome']})" in panel
    assert "The round nets once both deals are over." in panel

    play_board(mine.table_id, random.Random(3))
    game.refresh_from_db()
    (row,) = game.record["rounds"]
    for language, netted in (("en", "Round 1 netted"), ("es", "Ronda 1 compensada")):
        panel = panel_of(pages_in(logged_in(me), language, [page])[page])
        assert f"{netted} ({row['nets'][0]} / {row['nets'][1]})" in panel
        assert 'data-settled="1"' in panel and "<table>" in panel  # the score sheet
    assert_spectator_only(panel)
    alone = Client().get(f"/g/{game.invite_token}/panel/", {"board": mine.table.invite_token})
    assert alone.status_code == 200 and 'id="round-netting"' in alone.content.decode()


def test_the_player_waiting_in_winner_stays_watches_the_running_deal_on_the_game_page():
    game, players = seated_game(GameTable.Variant.WINNER_STAYS, target=10000)
    (board,) = open_boards(game)
    waiting = next(seat for seat in range(3) if seat not in board.players)
    page = f"/g/{game.invite_token}/"
    play_moves(board.table_id, 3, random.Random(4))
    for language, to_play in (("en", "to play"), ("es", "juega")):
        html = pages_in(logged_in(players[waiting]), language, [page])[page]
        panel = panel_of(html)
        assert f'data-table="{board.table.invite_token}"' in panel and to_play in panel
        assert 'id="your-board"' not in html
        assert_spectator_only(panel)
        assert not cards_in(PANEL.sub("", html))  # the rest of the game page names no card
    playing = pages_in(logged_in(players[board.players[0]]), "en", [page])[page]
    assert 'id="board-game"' not in playing and 'id="your-board"' in playing  # theirs: PLAY YOUR DEAL

    play_board(board.table_id, random.Random(5))
    game.refresh_from_db()
    (following,) = open_boards(game)
    assert waiting in following.players  # the one who waited plays now
    html = pages_in(logged_in(players[waiting]), "en", [page])[page]
    assert "PLAY YOUR DEAL" in html and 'id="board-game"' not in html
    sat_out = next(seat for seat in range(3) if seat not in following.players)
    panel = panel_of(pages_in(logged_in(players[sat_out]), "en", [page])[page])
    assert f'data-table="{following.table.invite_token}"' in panel
    # The board's own page: no other deal in winner stays, the score sheet per player.
    board_page = f"/t/{board.table.invite_token}/"
    panel = panel_of(pages_in(Client(), "en", [board_page])[board_page])
    assert "Table of three · deal 1" in panel and not BOARD_VIEW.findall(panel) and "<table>" in panel
    assert all(players[seat].name in panel for seat in range(3))


def test_bad_input_is_refused_clearly():
    alice = make_account_client("alice@example.com")
    alice.client.cookies["django_language"] = "en"
    token = alice.ok("post", "/games", {"players": 3}, 201)["token"]
    unknown = alice.request("get", "/games/nonsense/boards")
    assert unknown.status_code == 404 and unknown.json() == {"error": "not_found", "detail": "No such table."}
    before = alice.ok("get", f"/games/{token}/boards")
    assert before["round"] is None and before["boards"] == [] and before["status"] == "waiting"
    missing = alice.request("get", f"/games/{token}/boards?round=9")
    assert missing.status_code == 404 and "no such round" in missing.json()["detail"]
    for bad in ("0", "-1", "abc", "99999999999999999999"):
        assert alice.request("get", f"/games/{token}/boards?round={bad}").status_code == 400, bad
    visitor = Client()
    assert visitor.get("/g/nonsense/panel/").status_code == 404
    assert visitor.get(f"/g/{token}/panel/", {"board": "nonsense"}).status_code == 404
    assert visitor.post(f"/g/{token}/panel/").status_code == 405
    waiting = visitor.get(f"/g/{token}/panel/")
    assert waiting.status_code == 200 and 'id="board-game"' not in waiting.content.decode()
    assert GameTable.objects.get(invite_token=token).version == 0


def test_a_two_player_tables_page_looks_for_its_board_once_and_a_boards_page_asks_a_bounded_number():
    alice = make_account_client("alice@example.com")
    token = alice.ok("post", "/tables", {"ruleset": "classic"}, 201)["table"]
    # The board lookup (the board with its game) is the pill's, shared by the page's other parts.
    lookup = f'SELECT "{Board._meta.db_table}"."id"'
    with CaptureQueriesContext(connection) as queries:
        html = alice.client.get(f"/t/{token}/").content.decode()
    assert 'id="board-game"' not in html and 'id="game-pill"' not in html
    assert sum(query["sql"].startswith(lookup) for query in queries.captured_queries) == 1

    game, _players = seated_game(GameTable.Variant.PARTNERSHIP)
    board = open_boards(game)[0]
    Client().get(f"/t/{board.table.invite_token}/")  # warm: the session, the language
    with CaptureQueriesContext(connection) as queries:
        html = Client().get(f"/t/{board.table.invite_token}/").content.decode()
    assert 'id="board-game"' in html and 'id="game-pill"' in html
    assert len(queries.captured_queries) <= 12  # 8 now, the panel's 3 among them
