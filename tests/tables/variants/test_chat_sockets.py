"""The game's one chat over the table sockets: a message written on the game page or at any
board's socket reaches the sockets of every board's table (a player of the game connected to a
board where they do not sit reads it as a player); the spectators' channel reaches spectators only."""

from __future__ import annotations

import pytest

from tables.play.models import ChatMessage
from tests.tables.helpers import make_account_client
from tests.tables.live.helpers import connect, drain, receive_type, run, sync

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _inline_background_work(monkeypatch):
    from config.celery import app
    from tables.live import sockets

    if hasattr(sockets, "SHARED_DB_THREAD"):
        monkeypatch.setattr(sockets, "SHARED_DB_THREAD", True)
    monkeypatch.setitem(app.conf, "task_always_eager", True)


def test_a_message_anywhere_reaches_every_boards_sockets_and_spectators_keep_their_channel():
    clients = [make_account_client(f"{name}@example.com") for name in ("ana", "ben", "cleo", "dan")]
    token = clients[0].ok("post", "/games", {"players": 4, "ruleset": "classic"}, 201)["token"]
    for client in clients[1:]:
        client.ok("post", f"/games/{token}/join", {})
    first, second = clients[0].ok("post", f"/games/{token}/start")["boards"]
    at_first = clients[first["players"][0]]
    at_second = clients[second["players"][0]]
    visiting = clients[second["players"][1]]  # a player of the game at a board where they do not sit
    eve = make_account_client("eve@example.com")

    async def body():
        sockets = {
            "first": await connect(f"/ws/tables/{first['table']}/", at_first),
            "second": await connect(f"/ws/tables/{second['table']}/", at_second),
            "visiting": await connect(f"/ws/tables/{first['table']}/", visiting),
            "spectator": await connect(f"/ws/tables/{second['table']}/", eve),
        }
        for socket in sockets.values():
            await receive_type(socket, "snapshot")
        await sync(clients[0].ok, "post", f"/games/{token}/chat", {"text": "desde la página"}, 201)
        for socket in sockets.values():
            chat = await receive_type(socket, "chat")
            assert chat["message"]["text"] == "desde la página" and chat["message"]["channel"] == "players"
        await sockets["first"].send_json_to({"type": "chat", "text": "desde la mesa uno"})
        for socket in sockets.values():
            chat = await receive_type(socket, "chat")
            assert chat["message"]["text"] == "desde la mesa uno"
        await sockets["visiting"].send_json_to({"type": "chat", "text": "de visita"})
        for socket in sockets.values():
            chat = await receive_type(socket, "chat")
            assert chat["message"] == {**chat["message"], "text": "de visita", "channel": "players"}
        await sockets["spectator"].send_json_to({"type": "chat", "text": "qué partida"})
        chat = await receive_type(sockets["spectator"], "chat")
        assert chat["message"]["channel"] == "spectators"
        for name in ("first", "second", "visiting"):
            assert [m for m in await drain(sockets[name]) if m["type"] == "chat"] == []
        await sockets["second"].send_json_to({"type": "chat", "text": ""})  # refused, as at any table
        assert (await receive_type(sockets["second"], "error"))["field"] == "text"
        for socket in sockets.values():
            await socket.disconnect()

    run(body)
    assert ChatMessage.objects.count() == 4
