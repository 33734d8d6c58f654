"""Hidden information at tables of three and four: a partnership round (both deals) or a deal of
winner stays, played move by move, while every player of the table (the one waiting among them)
and a logged-out visitor with the links is connected to the table socket of every deal in play.
After every move each new frame and body is checked against what that recipient may know of that
deal at that moment (its seat there, or a spectator's view); nothing the game table answers (its
API and its page) names a card at all."""

from __future__ import annotations

from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.test import Client

from tables.play.models import Table
from tables.variants.models import Board, GameTable
from tests.tables.helpers import ApiClient, choose_action, make_account_client
from tests.tables.live.helpers import connect, run

from .test_hidden_information import Inbox, cards_named, check_inbox, drain_frames, table_version

pytestmark = pytest.mark.django_db(transaction=True)
NAMES = ("alice", "bob", "carol", "dave")


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
                version = await sync_to_async(table_version)(board["table"])
                for row, its_sockets in zip(inboxes, sockets, strict=True):
                    inbox = row[index]
                    if turn % 6 == 0:
                        inbox.add(
                            "state",
                            (await sync_to_async(inbox.client.get)(f"/tables/{board['table']}")).content,
                        )
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
            client.client.get(f"/g/{token}/").content.decode(),
        ):
            assert not cards_named(body), body[:2000]
