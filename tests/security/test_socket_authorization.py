"""The authorization matrix of the sockets: each role connects (or is refused), moves and chats on
the table socket, and opens the user socket; a foreign Origin and a forged token are refused."""

from __future__ import annotations

import pytest
from django.test import Client

from tables.accounts.identity import issue_api_token
from tables.live import sockets
from tables.play.models import ChatMessage, Move, Table
from tests.tables.helpers import make_account_client, started
from tests.tables.live.helpers import communicator, receive_type, run

pytestmark = pytest.mark.django_db(transaction=True)

ROLES = ("owner", "opponent", "spectator", "visitor", "other_account", "staff")


@pytest.fixture(autouse=True)
def _one_db_thread(monkeypatch):
    if hasattr(sockets, "SHARED_DB_THREAD"):
        monkeypatch.setattr(sockets, "SHARED_DB_THREAD", True)


@pytest.fixture
def table(alice, bob, carol):
    token, _ = started(alice, bob)
    carol.ok("post", f"/tables/{token}/join", {})
    visitor = Client()
    visitor.get(f"/t/{token}/")  # the link opened, no name typed: no session yet
    other = make_account_client("dave@example.com")
    staff = make_account_client("staff@example.com", staff=True)
    return token, {
        "owner": {"client": alice},
        "opponent": {"client": bob},
        "spectator": {"client": carol},
        "visitor": {"client": _Wrapped(visitor)},
        "other_account": {"token": issue_api_token(other.user, "dave")[1]},
        "staff": {"token": issue_api_token(staff.user, "staff")[1]},
    }


class _Wrapped:
    """A bare Django test client shaped like the ApiClient the socket helpers read cookies from."""

    def __init__(self, client: Client):
        self.client = client


def socket_for(path: str, who: dict, **kwargs):
    return communicator(path, who.get("client"), token=who.get("token"), **kwargs)


async def try_connect(path: str, who: dict, **kwargs) -> tuple[bool, object]:
    socket = socket_for(path, who, **kwargs)
    connected, code = await socket.connect(timeout=5)
    if connected:
        await socket.disconnect()
    return connected, code


def test_every_role_with_the_link_may_watch_and_a_foreign_origin_may_not(table) -> None:
    token, roles = table

    async def body():
        answers = {role: (await try_connect(f"/ws/tables/{token}/", roles[role]))[0] for role in ROLES}
        foreign = await try_connect(f"/ws/tables/{token}/", roles["owner"], origin=b"https://evil.example")
        forged = await try_connect(f"/ws/tables/{token}/", {"token": "gm_forged"})
        return answers, foreign[0], forged[0]

    answers, foreign, forged = run(body)
    # A visitor without a session (no name typed yet) watches live too: the spectators' view.
    assert answers == {role: True for role in ROLES}
    assert foreign is False and forged is False


def test_the_user_socket_is_for_identified_callers_only(table) -> None:
    _, roles = table

    async def body():
        return {role: (await try_connect("/ws/me/", roles[role]))[0] for role in ROLES}

    assert run(body) == {role: role != "visitor" for role in ROLES}


def test_only_the_player_to_move_moves_over_the_socket(table) -> None:
    token, roles = table
    state = roles["owner"]["client"].state(token)
    mover = ("owner", "opponent")[state["deal"]["view"]["to_play"]]
    legal = roles[mover]["client"].state(token)["deal"]["view"]["legal_actions"][0]
    expected = {role: 403 for role in ROLES} | {"visitor": 401, mover: "move_result"}

    async def attempt(role: str):
        socket = socket_for(f"/ws/tables/{token}/", roles[role])
        if not (await socket.connect(timeout=5))[0]:
            return "refused"
        await receive_type(socket, "snapshot")
        await socket.send_json_to({"type": "move", "action": legal, "expected_version": state["version"]})
        reply = await receive_type(socket, "move_result", "error")
        await socket.disconnect()
        return reply["type"] if reply["type"] == "move_result" else reply["status"]

    async def body():
        order = sorted(ROLES, key=lambda role: role == mover)  # the mover last: it changes the table
        return {role: await attempt(role) for role in order}

    assert run(body) == expected
    assert Move.objects.count() == 1
    assert Table.objects.get(invite_token=token).version == state["version"] + 1


def test_chat_over_the_socket_by_role(table) -> None:
    token, roles = table

    async def attempt(role: str):
        socket = socket_for(f"/ws/tables/{token}/", roles[role])
        if not (await socket.connect(timeout=5))[0]:
            return "refused"
        await receive_type(socket, "snapshot")
        await socket.send_json_to({"type": "chat", "text": f"from {role}"})
        reply = await receive_type(socket, "chat", "error")
        await socket.disconnect()
        return reply.get("status", "sent")

    async def body():
        return {role: await attempt(role) for role in ROLES}

    # The visitor's socket reads the chat but writes none: chat needs a name.
    assert run(body) == {role: 401 if role == "visitor" else "sent" for role in ROLES}
    assert ChatMessage.objects.count() == len(ROLES) - 1
