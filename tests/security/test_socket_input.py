"""Malformed messages on the table socket: each gets the documented error frame and the socket
stays open (a ping after it is answered). Before, a lone surrogate in chat, or a message nested
deep enough to break json.loads, closed the socket with 1011."""

from __future__ import annotations

import pytest

from tables.core.text_input import MAX_JSON_DEPTH
from tables.live import sockets
from tables.play.models import ChatMessage, Table
from tests.tables.helpers import started
from tests.tables.live.helpers import communicator, connect, receive_type, run

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _one_db_thread(monkeypatch):
    monkeypatch.setattr(sockets, "SHARED_DB_THREAD", True)


@pytest.fixture
def token(alice, bob):
    return started(alice, bob)[0]


def answers(token: str | None, client, *frames: str) -> list[dict]:
    """The error frame each raw text frame got on the table's socket (the user socket when
    ``token`` is None), then whether a ping was still answered."""

    async def body():
        socket = await connect(f"/ws/tables/{token}/" if token else "/ws/me/", client)
        await receive_type(socket, "snapshot" if token else "pending")
        errors = []
        for frame in frames:
            await socket.send_to(text_data=frame)
            errors.append(await receive_type(socket, "error"))
        await socket.send_json_to({"type": "ping"})
        pong = await receive_type(socket, "pong", "error")
        await socket.disconnect()
        return [*errors, pong]

    return run(body)


def test_a_lone_surrogate_in_chat_is_an_error_frame_and_nothing_is_stored(token, alice) -> None:
    refused, pong = answers(token, alice, '{"type": "chat", "text": "\\ud800"}')
    assert (refused["status"], refused["code"], refused["field"]) == (400, "invalid_input", "text")
    assert "surrogate" in refused["detail"]
    assert pong == {"type": "pong"}
    assert not ChatMessage.objects.exists()


def test_control_characters_are_refused_in_any_string_but_chat_keeps_newlines_and_tabs(token, alice) -> None:
    bell, key, move_id, pong = answers(
        token,
        alice,
        '{"type": "chat", "text": "ding\\u0007"}',
        '{"type": "visibility", "visible": true, "x\\u001b": 1}',
        '{"type": "move", "action": "pass", "expected_version": 1, "client_move_id": "\\udfffid"}',
    )
    assert (bell["code"], bell["field"]) == ("invalid_input", "text")
    assert "U+0007" in bell["detail"]
    assert (key["code"], key["field"]) == ("invalid_input", "x")
    assert (move_id["code"], move_id["field"]) == ("invalid_input", "client_move_id")
    assert pong == {"type": "pong"}
    assert not ChatMessage.objects.exists()

    async def chat():
        socket = await connect(f"/ws/tables/{token}/", alice)
        await receive_type(socket, "snapshot")
        await socket.send_json_to({"type": "chat", "text": "two\tcolumns\nand a line"})
        message = await receive_type(socket, "chat", "error")
        await socket.disconnect()
        return message

    assert run(chat)["message"]["text"] == "two\tcolumns\nand a line"


def test_an_action_given_as_a_list_is_an_error_frame(token, alice) -> None:
    version = Table.objects.get(invite_token=token).version
    refused, pong = answers(token, alice, '{"type": "action", "action": ["resign"], "request_id": "r1"}')
    assert (refused["status"], refused["code"], refused["field"]) == (400, "invalid_input", "action")
    assert refused["request_id"] == "r1"
    assert pong == {"type": "pong"}
    assert Table.objects.get(invite_token=token).version == version  # nobody resigned


def test_strings_expected_get_lists_and_numbers_as_error_frames(token, alice) -> None:
    *refused, pong = answers(
        token,
        alice,
        '{"type": "move", "action": ["pass"], "expected_version": 1, "client_move_id": "m1"}',
        '{"type": "move", "action": "pass", "expected_version": 1, "client_move_id": ["m1"]}',
        '{"type": "action", "action": "resign", "request_id": {"id": 1}}',
        '{"type": "chat", "text": ["hello"]}',
        '{"type": ["chat"]}',
        '["chat"]',
    )
    assert [(error["status"], error["code"], error.get("field")) for error in refused] == [
        (400, "invalid_input", "action"),
        (400, "invalid_input", "client_move_id"),
        (400, "invalid_input", "request_id"),
        (400, "invalid_input", "text"),
        (400, "unknown_type", None),
        (400, "unknown_type", None),
    ]
    assert refused[0]["client_move_id"] == "m1"
    assert pong == {"type": "pong"}


def test_deep_nesting_is_refused_before_it_is_parsed(token, alice) -> None:
    deepest = "[" * MAX_JSON_DEPTH + "]" * MAX_JSON_DEPTH  # parsed: not an object, unknown_type
    quoted = '{"type": "chat", "text": "' + "[" * 1000 + '"}'  # brackets in a string do not count
    huge, nested, nested_objects, at_limit, in_text, pong = answers(
        token,
        alice,
        "[" * 100_000,  # json.loads: RecursionError
        "[" * 10_000,
        '{"a": ' * 1000 + "1" + "}" * 1000,
        deepest,
        quoted,
    )
    assert (huge["status"], huge["code"]) == (413, "too_large")  # over the size limit: not even counted
    for refused in (nested, nested_objects):
        assert (refused["status"], refused["code"], refused["field"]) == (400, "invalid_input", "message")
        assert "deeper" in refused["detail"]
    assert at_limit["code"] == "unknown_type"
    assert in_text["code"] == "too_large"  # a 1,000-character chat line: read, then refused by its length
    assert pong == {"type": "pong"}


def test_a_message_over_the_size_limit_is_refused_unread(token, alice) -> None:
    huge = '{"type": "chat", "text": "' + "x" * sockets.MAX_MESSAGE_CHARACTERS + '"}'
    refused, pong = answers(token, alice, huge)
    assert (refused["status"], refused["code"]) == (413, "too_large")
    assert pong == {"type": "pong"}
    assert not ChatMessage.objects.exists()


def test_a_table_token_with_a_control_character_is_no_table(token, alice) -> None:
    async def body():
        return await communicator("/ws/tables/ab%01cd/", alice).connect(timeout=5)

    assert run(body) == (False, sockets.CLOSE_NOT_FOUND)


def test_the_user_socket_refuses_the_same_messages_and_stays_open(alice) -> None:
    surrogate, nested, huge, pong = answers(
        None, alice, '{"type": "visibility", "\\ud800": 1}', "[" * 10_000, " " * 20_000
    )
    assert [(error["status"], error["code"]) for error in (surrogate, nested, huge)] == [
        (400, "invalid_input"),
        (400, "invalid_input"),
        (413, "too_large"),
    ]
    assert pong == {"type": "pong"}
