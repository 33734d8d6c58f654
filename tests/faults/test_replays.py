"""Clients that repeat themselves: a websocket message replayed, a move with an old version, a
client move id reused (by the same seat or the other). Each is answered idempotently or refused,
and the table's version rises by exactly one per applied move."""

from __future__ import annotations

import pytest

from tables.live import sockets
from tables.play.models import Move, Table
from tests.tables.helpers import started, to_play
from tests.tables.live.helpers import connect, receive_type, run, sync

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _one_db_thread(monkeypatch):
    if hasattr(sockets, "SHARED_DB_THREAD"):
        monkeypatch.setattr(sockets, "SHARED_DB_THREAD", True)


def version_of(token: str) -> int:
    return Table.objects.values_list("version", flat=True).get(invite_token=token)


def test_a_repeated_http_move_is_answered_without_applying_it_again(alice, bob) -> None:
    token, players = started(alice, bob)
    mover, _, state = to_play(token, players)
    move = {"action": state["deal"]["view"]["legal_actions"][0], "expected_version": state["version"]}
    first = mover.ok("post", f"/tables/{token}/moves", {**move, "client_move_id": "m-1"})
    again = mover.ok("post", f"/tables/{token}/moves", {**move, "client_move_id": "m-1"})
    assert (first["applied"], again["applied"], again["replayed"]) == (True, False, True)
    assert again["move"]["seq"] == first["move"]["seq"] == 1
    assert version_of(token) == state["version"] + 1 and Move.objects.count() == 1


def test_an_old_version_is_refused_with_the_current_state(alice, bob) -> None:
    token, players = started(alice, bob)
    mover, _, state = to_play(token, players)
    move = {"action": state["deal"]["view"]["legal_actions"][0], "expected_version": state["version"]}
    mover.ok("post", f"/tables/{token}/moves", move)
    stale = mover.request("post", f"/tables/{token}/moves", move)  # the same move, one version late
    assert stale.status_code == 409 and stale.json()["error"] == "stale_version"
    assert stale.json()["state"]["version"] == state["version"] + 1 == version_of(token)
    assert Move.objects.count() == 1


def test_a_move_id_reused_by_the_other_seat_is_refused(alice, bob) -> None:
    token, players = started(alice, bob)
    mover, other, state = to_play(token, players)
    move = {"action": state["deal"]["view"]["legal_actions"][0], "expected_version": state["version"]}
    mover.ok("post", f"/tables/{token}/moves", {**move, "client_move_id": "shared"})
    body = {"action": "draw_stock", "expected_version": version_of(token), "client_move_id": "shared"}
    reply = other.request("post", f"/tables/{token}/moves", body)
    assert reply.status_code == 409 and reply.json()["error"] == "conflict"
    assert Move.objects.count() == 1 and version_of(token) == state["version"] + 1


def test_a_replayed_socket_message_applies_once(alice, bob) -> None:
    token, players = started(alice, bob)
    mover, _, state = to_play(token, players)
    message = {
        "type": "move",
        "action": state["deal"]["view"]["legal_actions"][0],
        "expected_version": state["version"],
        "client_move_id": "socket-1",
    }

    async def replay_twice():
        socket = await connect(f"/ws/tables/{token}/", mover)
        await receive_type(socket, "snapshot")
        await socket.send_json_to(message)
        first = await receive_type(socket, "move_result", "error")
        await socket.send_json_to(message)  # the network repeated it
        second = await receive_type(socket, "move_result", "error")
        stale = {**message, "client_move_id": "socket-2"}
        await socket.send_json_to(stale)  # a new id but the old version
        third = await receive_type(socket, "move_result", "error")
        moves = await sync(Move.objects.count)
        await socket.disconnect()
        return first, second, third, moves

    first, second, third, moves = run(replay_twice)
    assert first["type"] == "move_result" and first["client_move_id"] == "socket-1"
    assert first["version"] == first["move"]["table_version"] == state["version"] + 1
    assert second == first  # answered idempotently
    assert third["type"] == "error" and third["status"] == 409 and third["code"] == "stale_version"
    assert moves == 1 and version_of(token) == state["version"] + 1
