"""Hidden information at tables of three and four: a partnership round (both deals) or a deal of
winner stays, played move by move, while every player of the table (the one waiting among them)
and a logged-out visitor with the links is connected to the table socket of every deal in play.
After every move each new frame and body is checked against what that recipient may know of that
deal at that moment (its seat there, or a spectator's view), the frames of the game's one chat
among them (a message every few moves). The game's panel (each board's table page, the game
page, the panel alone and GET /api/games/{token}/boards) shows each board as a spectator of its
table sees it: each board's part is checked against that board's spectator view, for every
seat, spectator and visitor; nothing else the game table answers (its API, its chat and the rest
of its page) names a card at all."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.test import Client

from tables.play import engine
from tables.play.models import Table
from tables.variants.models import Board, GameTable
from tests.tables.helpers import ApiClient, choose_action, make_account_client, secret_cards
from tests.tables.live.helpers import connect, run

from .test_hidden_information import (
    FORBIDDEN_KEYS,
    Inbox,
    cards_named,
    check_inbox,
    drain_frames,
    json_keys,
    table_version,
)

pytestmark = pytest.mark.django_db(transaction=True)
NAMES = ("alice", "bob", "carol", "dave")
# A board's part of the game's panel (templates/variants/_board_game.html), by its table's token.
BOARD_VIEW = re.compile(r'<article class="board-view" data-table="([^"]+)">(.*?)</article>', re.S)


@pytest.fixture(autouse=True)
def _inline_background_work(monkeypatch):
    from config.celery import app
    from tables.live import sockets

    if hasattr(sockets, "SHARED_DB_THREAD"):
        monkeypatch.setattr(sockets, "SHARED_DB_THREAD", True)
    monkeypatch.setitem(app.conf, "task_always_eager", True)


def board_move(board: dict[str, Any], players: dict[int, ApiClient], turn: int) -> bool:
    """One move at the board (its next player's), or False once its board match is over."""
    table = Table.objects.select_related("current_deal__match").get(invite_token=board["table"])
    deal = table.current_deal
    if deal.match.status != "playing":
        return False
    if deal.status != "playing":  # a dead deal of winner stays: the same two deal again
        players[board["players"][0]].ok(
            "post", f"/tables/{board['table']}/next-deal", {"expected_version": table.version}
        )
        return True
    client = players[board["players"][deal.to_play]]
    mine = client.state(board["table"])
    action = choose_action(mine["deal"]["view"], turn)
    body = {"action": action, "expected_version": mine["version"]}
    client.ok("post", f"/tables/{board['table']}/moves", body)
    return True


def spectator_secret(token: str) -> set[str]:
    """What a spectator of the board's table may not see now: its stock and hidden hands."""
    table = Table.objects.select_related("current_deal").get(invite_token=token)
    return secret_cards(engine.load_deal(table.current_deal), None)


def without_board_views(where: str, html: str) -> str:
    """Each board's part of a page's game panel checked against that board's spectator view;
    the rest of the page, for the caller to check as its own."""
    for token, part in BOARD_VIEW.findall(html):
        leaked = cards_named(part) & spectator_secret(token)
        assert not leaked, f"{where} shows hidden cards {sorted(leaked)} of board {token}: {part}"
    return BOARD_VIEW.sub("", html)


def check_boards_answer(where: str, body: str) -> int:
    """GET /api/games/{token}/boards: each board against its spectator view, and no key that
    would carry a deck or a hand."""
    answer = json.loads(body)
    assert not {key for key in json_keys(answer) if FORBIDDEN_KEYS.match(key) or key == "hand"}, where
    for view in answer["boards"]:
        leaked = cards_named(json.dumps(view)) & spectator_secret(view["table"])
        assert not leaked, f"{where} shows hidden cards {sorted(leaked)}: {view}"
    return len(answer["boards"])


def check_game_panels(client: ApiClient, token: str, board: str) -> int:
    """What a recipient's game panel fetches (the round's boards, the panel alone) and the game
    page with its panel: every board in them as its spectators see it, the rest naming no card."""
    checked = check_boards_answer("boards", client.get(f"/games/{token}/boards").content.decode())
    for path in (f"/g/{token}/panel/?board={board}", f"/g/{token}/"):
        rest = without_board_views(path, client.client.get(path).content.decode())
        assert not cards_named(rest), rest[:2000]
    return checked


@pytest.mark.parametrize("count", [3, 4])
def test_no_seat_spectator_or_visitor_of_a_table_of_three_or_four_receives_a_card_it_could_not_know(count):
    clients = {seat: make_account_client(f"{name}@example.com") for seat, name in enumerate(NAMES[:count])}
    token = clients[0].ok("post", "/games", {"players": count, "ruleset": "classic"}, 201)["token"]
    for seat in range(1, count):
        clients[seat].ok("post", f"/games/{token}/join", {})
    boards = clients[0].ok("post", f"/games/{token}/start")["boards"]
    visitor = ApiClient(Client(), name="visitor")
    recipients = [*clients.values(), visitor]
    seats = [*clients, None]
    # One inbox per recipient and board: its seat at that board, or a spectator's.
    inboxes = [
        [
            Inbox(board["players"].index(seat) if seat in board["players"] else None, client, "")
            for board in boards
        ]
        for seat, client in zip(seats, recipients, strict=True)
    ]

    async def round_() -> int:
        sockets = [
            [await connect(f"/ws/tables/{b['table']}/", client) for b in boards] for client in recipients
        ]
        checked, turn, playing = 0, 0, [True] * len(boards)
        while any(playing):
            for index, board in enumerate(boards):
                if not playing[index]:
                    continue
                playing[index] = await sync_to_async(board_move)(board, clients, turn)
                turn += 1
                # The game's one chat: a frame on every board's sockets, a few (within the rate limit).
                if turn % 5 == 0 and turn <= 40:
                    writer = clients[turn % count]
                    await sync_to_async(writer.ok)(
                        "post", f"/games/{token}/chat", {"text": f"buena {turn}"}, 201
                    )
                version = await sync_to_async(table_version)(board["table"])
                for row, its_sockets in zip(inboxes, sockets, strict=True):
                    inbox = row[index]
                    if turn % 6 == 0:
                        for path in (f"/tables/{board['table']}", f"/tables/{board['table']}/chat"):
                            inbox.add(path, (await sync_to_async(inbox.client.get)(path)).content)
                        # The board's table page: the game's panel (the other boards, as their
                        # spectators see them) checked apart, the rest as this seat's own.
                        page = await sync_to_async(inbox.client.client.get)(f"/t/{board['table']}/")
                        rest = await sync_to_async(without_board_views)("table page", page.content.decode())
                        inbox.add("table page", rest)
                        checked += await sync_to_async(check_game_panels)(inbox.client, token, board["table"])
                    await drain_frames(inbox, [its_sockets[index]], version)
                    checked += await sync_to_async(check_inbox)(inbox, board["table"])
        for its_sockets in sockets:
            for socket in its_sockets:
                await socket.disconnect()
        return checked

    checked = run(round_)
    assert checked >= len(recipients) * 10
    game = GameTable.objects.get(invite_token=token)
    if count == 4:
        assert len(game.record["rounds"]) == 1  # the round netted
    else:
        assert game.record["deals"] and game.record["deals"][-1]["outcome"] != "dead"
    assert Board.objects.filter(game=game, round=2).count() == count - 2  # the next is open
    for client in recipients:
        for body in (
            client.get(f"/games/{token}").content.decode(),
            client.get(f"/games/{token}/chat").content.decode(),
            without_board_views("game page", client.client.get(f"/g/{token}/").content.decode()),
        ):
            assert not cards_named(body), body[:2000]
        assert check_boards_answer("boards", client.get(f"/games/{token}/boards").content.decode())
