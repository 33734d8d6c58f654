"""A tournament's page follows its event over the user socket: the socket asks to follow one
event by its invite token and hears each new version after its commit; a bad token is refused
with an error frame on a socket that stays open, and a page follows one event at a time."""

from __future__ import annotations

import pytest

from tables.background import registry
from tables.live import sockets
from tables.tournaments import services
from tests.tables.live.helpers import connect, drain, receive_type, run, sync

from .helpers import accounts

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _one_db_thread(monkeypatch):
    monkeypatch.setattr(sockets, "SHARED_DB_THREAD", True)


def test_the_page_hears_each_new_version_of_the_event_it_follows(alice):
    creator, joiner, late = accounts(3, "live")
    followed = services.create_tournament(creator, name="Followed", max_players=4, swiss_rounds=1)
    other = services.create_tournament(creator, name="Other", max_players=4, swiss_rounds=1)

    async def body():
        socket = await connect("/ws/me/", alice)
        await socket.send_json_to({"type": "watch_tournament", "tournament": other.invite_token})
        answer = await receive_type(socket, "tournament")
        assert answer == {"type": "tournament", "tournament": other.invite_token, "version": other.version}
        # the page of another event: the first is followed no more
        await socket.send_json_to({"type": "watch_tournament", "tournament": followed.invite_token})
        assert (await receive_type(socket, "tournament"))["version"] == followed.version
        await sync(services.join, followed.pk, joiner)
        heard = await receive_type(socket, "tournament")
        assert heard == {
            "type": "tournament",
            "tournament": followed.invite_token,
            "version": followed.version + 1,
        }
        await sync(services.join, other.pk, late)
        await sync(services.join, followed.pk, late)
        heard = await receive_type(socket, "tournament")
        assert heard["tournament"] == followed.invite_token and heard["version"] == followed.version + 2
        assert not [m for m in await drain(socket) if m["type"] == "tournament"]
        await socket.disconnect()

    run(body)


@pytest.mark.parametrize("token", ["no-such-event", 7, None, "x" * 65])
def test_a_bad_token_gets_an_error_and_the_socket_stays_open(alice, token):
    async def body():
        socket = await connect("/ws/me/", alice)
        await socket.send_json_to({"type": "watch_tournament", "tournament": token})
        error = await receive_type(socket, "error")
        assert error["status"] == 404 and error["code"] == "not_found"
        await socket.send_json_to({"type": "ping"})
        assert (await receive_type(socket, "pong"))["type"] == "pong"
        await socket.disconnect()

    run(body)


def test_one_commit_of_many_changes_is_told_once_with_the_newest_version(alice, later):
    """The join that fills an event also starts it: one message. Round 1, opened by the task
    that commit hands over (recorded by ``later``, run here), is its own version: one more."""
    creator, joiner = accounts(2, "full")
    event = services.create_tournament(creator, name="Two", max_players=2, swiss_rounds=1)
    services.join(event.pk, creator)

    async def body():
        socket = await connect("/ws/me/", alice)
        await socket.send_json_to({"type": "watch_tournament", "tournament": event.invite_token})
        await receive_type(socket, "tournament")
        await sync(services.join, event.pk, joiner)
        heard = await receive_type(socket, "tournament")
        await sync(event.refresh_from_db)
        assert heard["version"] == event.version > 2 and event.round_number == 0
        assert not [m for m in await drain(socket) if m["type"] == "tournament"]
        assert (registry.ADVANCE_TOURNAMENT, (event.pk,), None) in later
        await sync(services.advance, event.pk)  # the task: round 1 paired and opened
        heard = await receive_type(socket, "tournament")
        await sync(event.refresh_from_db)
        assert heard["version"] == event.version and event.round_number == 1
        assert not [m for m in await drain(socket) if m["type"] == "tournament"]
        await socket.disconnect()

    run(body)
