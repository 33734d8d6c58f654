"""Chat under hostile input: markup arrives as text everywhere (JSON, the page, the socket, the
browser code), too long answers 413, too fast 429, and a socket that floods is throttled and
then closed."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from django.conf import settings

from tables.live.sockets import CLOSE_FLOODING
from tables.play.models import ChatMessage
from tests.tables.helpers import started
from tests.tables.live.helpers import connect, drain, receive_type, run

pytestmark = pytest.mark.django_db(transaction=True)

HOSTILE = '<script>alert("x")</script><img src=x onerror=alert(1)><b>bold</b> & "quoted"'


@pytest.fixture
def game(alice, bob):
    token, _ = started(alice, bob)
    return token, alice, bob


def test_markup_comes_back_as_the_same_text_in_json(game) -> None:
    token, alice, bob = game
    posted = alice.ok("post", f"/tables/{token}/chat", {"text": HOSTILE}, status=201)
    assert posted["text"] == HOSTILE
    listed = bob.ok("get", f"/tables/{token}/chat")["messages"]
    assert [message["text"] for message in listed] == [HOSTILE]


def test_markup_is_escaped_in_the_rendered_page(game) -> None:
    token, alice, bob = game
    alice.ok("post", f"/tables/{token}/chat", {"text": HOSTILE}, status=201)
    page = bob.client.get(f"/t/{token}/").content.decode()
    assert "<script>alert" not in page and "<img src=x" not in page and "<b>bold" not in page
    assert r"\u003Cscript\u003E" in page  # json_script's escaping: the page reads it as text


def test_browser_code_never_parses_strings_as_html() -> None:
    """The pages' scripts build the chat (and everything else) with text nodes."""
    sinks = re.compile(r"\.innerHTML\s*=|\.outerHTML\s*=|insertAdjacentHTML|document\.write")
    scripts = sorted(Path(settings.BASE_DIR, "static", "js").glob("*.js"))
    assert scripts
    offenders = [path.name for path in scripts if sinks.search(path.read_text())]
    assert not offenders


def test_a_message_over_the_limit_is_413_and_not_stored(game) -> None:
    token, alice, _ = game
    response = alice.request("post", f"/tables/{token}/chat", {"text": "x" * (ChatMessage.MAX_LENGTH + 1)})
    assert response.status_code == 413
    assert response.json()["error"] == "too_large" and response.json()["field"] == "text"
    assert alice.ok("post", f"/tables/{token}/chat", {"text": "x" * ChatMessage.MAX_LENGTH}, status=201)
    assert ChatMessage.objects.count() == 1


def test_a_body_over_djangos_upload_limit_is_refused_without_a_server_error(game) -> None:
    token, alice, _ = game
    huge = "y" * (settings.DATA_UPLOAD_MAX_MEMORY_SIZE + 1)
    response = alice.request("post", f"/tables/{token}/chat", {"text": huge})
    assert 400 <= response.status_code < 500
    assert not ChatMessage.objects.exists()


def test_the_sixth_message_in_ten_seconds_is_429(game) -> None:
    token, alice, bob = game
    for number in range(5):
        alice.ok("post", f"/tables/{token}/chat", {"text": f"m{number}"}, status=201)
    limited = alice.request("post", f"/tables/{token}/chat", {"text": "one too many"})
    assert limited.status_code == 429
    assert limited.json()["error"] == "rate_limited" and limited.json()["retry_after"] > 0
    assert bob.request("post", f"/tables/{token}/chat", {"text": "bob is not limited"}).status_code == 201
    assert ChatMessage.objects.count() == 6


def test_a_socket_that_floods_is_throttled_then_closed(game) -> None:
    token, alice, _ = game

    async def flood():
        socket = await connect(f"/ws/tables/{token}/", alice)
        await receive_type(socket, "snapshot")
        for _ in range(120):
            await socket.send_json_to({"type": "ping"})
        outputs = await outputs_until_closed(socket)
        await socket.disconnect()
        return outputs

    outputs = run(flood)
    replies = [json.loads(output["text"]) for output in outputs if output["type"] == "websocket.send"]
    replies = [reply for reply in replies if reply["type"] in ("pong", "error")]  # not presence
    assert [reply["type"] for reply in replies[:20]] == ["pong"] * 20  # the burst is served
    throttled = [reply for reply in replies if reply.get("code") == "rate_limited"]
    assert len(throttled) >= 20 and all(reply["status"] == 429 for reply in throttled)
    assert outputs[-1] == {"type": "websocket.close", "code": CLOSE_FLOODING}


async def outputs_until_closed(socket, quiet: float = 2.0) -> list[dict]:
    outputs = []
    while not outputs or outputs[-1]["type"] != "websocket.close":
        try:
            outputs.append(await socket.receive_output(timeout=quiet))
        except TimeoutError:
            break
    return outputs


def test_socket_chat_is_limited_like_the_api(game) -> None:
    token, alice, _ = game

    async def chat():
        socket = await connect(f"/ws/tables/{token}/", alice)
        await receive_type(socket, "snapshot")
        await socket.send_json_to({"type": "chat", "text": "z" * (ChatMessage.MAX_LENGTH + 1)})
        too_long = await receive_type(socket, "error")
        for number in range(6):
            await socket.send_json_to({"type": "chat", "text": f"s{number}"})
        errors = [reply for reply in await drain(socket, 1.0) if reply["type"] == "error"]
        await socket.disconnect()
        return too_long, errors

    too_long, errors = run(chat)
    assert too_long["status"] == 413
    assert [error["status"] for error in errors] == [429]
