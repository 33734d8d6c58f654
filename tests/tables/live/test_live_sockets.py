"""The table socket and the user socket through the whole ASGI stack (origin check, session or
token auth, routing), with the channel layer the settings configure (in-memory, or Redis)."""

from __future__ import annotations

import asyncio
import datetime as dt
import json

import pytest
from channels.db import database_sync_to_async
from django.test import Client
from django.utils import timezone

from tables.accounts.identity import issue_api_token
from tables.accounts.models import Player
from tables.alerts import presence
from tables.alerts.models import Activity, TablePresence
from tables.live import sockets
from tables.play import engine, selectors
from tables.play.models import ChatMessage, Table
from tests.polling import async_wait_until
from tests.tables.helpers import cards_in, make_account_client, play_deal, secret_cards, started, to_play

from .helpers import communicator, comparable, connect, drain, receive, receive_type, run, sync

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _one_db_thread(monkeypatch):
    """Consumers' queries on the test's own thread: pool threads would keep connections to the
    test database open past its teardown (the two-daphne test covers the pool)."""
    monkeypatch.setattr(sockets, "SHARED_DB_THREAD", True)


@pytest.fixture(autouse=True)
def _eager_celery(monkeypatch):
    """What follows a change (alerts, pending counts) runs inline, even with REDIS_URL set."""
    from config.celery import app

    monkeypatch.setitem(app.conf, "task_always_eager", True)


@pytest.fixture
def carol(db):
    return make_account_client("carol@example.com")


def _secret_for(token: str, seat: int | None) -> set[str]:
    table = Table.objects.select_related("current_deal").get(invite_token=token)
    return secret_cards(engine.load_deal(table.current_deal), seat)


def test_snapshot_on_connect_is_what_the_api_returns(alice, bob):
    token, _players = started(alice, bob)

    async def body():
        socket = await connect(f"/ws/tables/{token}/", alice)
        snapshot = await receive(socket)
        expected = await sync(alice.state, token)
        assert (snapshot["type"], snapshot["version"]) == ("snapshot", expected["version"])
        assert comparable(snapshot["state"]) == comparable(expected)
        await socket.disconnect()

    run(body)


def test_a_move_reaches_opponent_and_spectator_as_filtered_versioned_events(alice, bob, carol):
    token, players = started(alice, bob)
    carol.ok("post", f"/tables/{token}/join", {})
    mover, other, state = to_play(token, players)

    async def body():
        opponent = await connect(f"/ws/tables/{token}/", other)
        spectator = await connect(f"/ws/tables/{token}/", carol)
        first = (await receive_type(opponent, "snapshot"))["version"]
        assert (await receive_type(spectator, "snapshot"))["version"] == first
        action = state["deal"]["view"]["legal_actions"][0]
        await sync(mover.ok, "post", f"/tables/{token}/moves", {"action": action, "expected_version": first})
        seen = {}
        for name, socket, seat in (
            ("opponent", opponent, 1 - state["you"]["seat"]),
            ("spectator", spectator, None),
        ):
            event = await receive_type(socket, "event")
            assert event["version"] == first + 1 and event["kind"] == "move"
            assert event["state"]["you"]["seat"] == seat
            leaked = cards_in(json.dumps(event)) & await sync(_secret_for, token, seat)
            assert not leaked, f"{name} received hidden cards {leaked}"
            seen[name] = event["state"]
        assert comparable(seen["opponent"]) == comparable(await sync(other.state, token))
        assert comparable(seen["spectator"]) == comparable(await sync(carol.state, token))
        for socket in (opponent, spectator):
            await socket.disconnect()

    run(body)


def test_reconnect_with_a_stale_version_gets_a_snapshot(alice, bob):
    token, players = started(alice, bob)
    mover, other, state = to_play(token, players)
    stale = state["version"]
    action = state["deal"]["view"]["legal_actions"][0]
    mover.ok("post", f"/tables/{token}/moves", {"action": action, "expected_version": stale})

    async def body():
        socket = await connect(f"/ws/tables/{token}/", other)
        await receive_type(socket, "snapshot")
        await socket.send_json_to({"type": "hello", "version": stale})
        fresh = await receive_type(socket, "snapshot")
        assert fresh["version"] == stale + 1 and comparable(fresh["state"]) == comparable(
            await sync(other.state, token)
        )
        await socket.send_json_to({"type": "hello", "version": stale + 1})  # up to date: nothing
        assert [m for m in await drain(socket) if m["type"] == "snapshot"] == []
        await socket.disconnect()

    run(body)


def test_refused_with_a_bad_token_a_wrong_origin_or_an_unknown_table(alice, bob):
    token, _ = started(alice, bob)

    async def refused(path, api_client=None, **kwargs):
        socket = communicator(path, api_client, **kwargs)
        connected, code = await socket.connect(timeout=5)
        assert not connected
        return code

    async def body():
        # No session and no token: the table socket watches (tests/security), the user socket refuses.
        assert await refused(f"/ws/tables/{token}/", token="gm_not-a-token") == 4401
        assert await refused("/ws/me/") == 4401
        assert await refused(f"/ws/tables/{token}/", alice, origin=b"https://evil.example") != 4404
        assert await refused(f"/ws/tables/{token}/", alice, origin=b"") != 4404
        assert await refused("/ws/tables/no-such-table/", alice) == 4404

    run(body)


def test_a_program_connects_with_its_api_token(alice, bob):
    token, _ = started(alice, bob)
    _, raw = issue_api_token(alice.user, "bot")

    async def body():
        socket = await connect(f"/ws/tables/{token}/", token=raw)
        snapshot = await receive_type(socket, "snapshot")
        assert snapshot["state"]["you"]["seat"] is not None
        await socket.disconnect()

    run(body)


def test_moves_over_the_socket_go_through_the_move_service(alice, bob):
    token, players = started(alice, bob)
    mover, other, state = to_play(token, players)
    version = state["version"]
    legal = state["deal"]["view"]["legal_actions"]

    async def body():
        mine = await connect(f"/ws/tables/{token}/", mover)
        theirs = await connect(f"/ws/tables/{token}/", other)
        for socket in (mine, theirs):
            await receive_type(socket, "snapshot")
        await mine.send_json_to({"type": "move", "action": "discard 2S", "expected_version": version + 7})
        error = await receive_type(mine, "error")
        assert (error["status"], error["code"]) == (409, "stale_version")
        assert (await receive_type(mine, "snapshot"))["version"] == version
        await theirs.send_json_to({"type": "move", "action": legal[0], "expected_version": version})
        assert (await receive_type(theirs, "error"))["status"] == 403  # not their turn
        await mine.send_json_to(
            {"type": "move", "action": legal[0], "expected_version": version, "client_move_id": "c1"}
        )
        result = await receive_type(mine, "move_result")
        assert result["client_move_id"] == "c1" and result["version"] == version + 1
        assert result["move"]["action"] == legal[0] and result["move"]["table_version"] == version + 1
        assert (await receive_type(theirs, "event"))["version"] == version + 1
        await mine.send_json_to({"type": "move", "action": "no such thing", "expected_version": version + 1})
        assert (await receive_type(mine, "error"))["code"] in ("illegal_move", "bad_request", "forbidden")
        for socket in (mine, theirs):
            await socket.disconnect()

    run(body)


def test_chat_reaches_the_players_and_spectator_chat_stays_with_spectators(alice, bob, carol):
    token, _players = started(alice, bob)
    carol.ok("post", f"/tables/{token}/join", {})

    async def body():
        player = await connect(f"/ws/tables/{token}/", bob)
        spectator = await connect(f"/ws/tables/{token}/", carol)
        for socket in (player, spectator):
            await receive_type(socket, "snapshot")
        await sync(alice.ok, "post", f"/tables/{token}/chat", {"text": "suerte"}, 201)
        for socket in (player, spectator):
            chat = await receive_type(socket, "chat")
            assert chat["message"]["text"] == "suerte" and chat["message"]["channel"] == "players"
        await spectator.send_json_to({"type": "chat", "text": "vamos bob", "channel": "spectators"})
        chat = await receive_type(spectator, "chat")
        assert chat["message"]["channel"] == "spectators"
        assert [m for m in await drain(player) if m["type"] == "chat"] == []
        for socket in (player, spectator):
            await socket.disconnect()

    run(body)


def test_presence_shows_the_opponent_online_then_last_seen(alice, bob):
    token, _players = started(alice, bob)
    bob_seat = Table.objects.get(invite_token=token).seat_of(selectors.get_table(token).seat1)

    async def body():
        watcher = await connect(f"/ws/tables/{token}/", alice)
        await receive_type(watcher, "snapshot")
        opponent = await connect(f"/ws/tables/{token}/", bob)
        row = await _presence_until(watcher, bob_seat, online=True)
        assert row["visible"] is True and row["last_seen"]
        await opponent.send_json_to({"type": "visibility", "visible": False})
        row = await _presence_until(watcher, bob_seat, visible=False)
        assert row["online"] is True
        await opponent.disconnect()
        row = await _presence_until(watcher, bob_seat, online=False)
        assert row["last_seen"]
        await watcher.disconnect()

    run(body)


def test_one_heartbeat_renews_every_open_sockets_lease(alice, bob, monkeypatch):
    """The process's heartbeat renews the table leases (visible or not) and "seen on the site"
    of all its sockets in one batch; a closed socket's lease is left to lapse."""
    token, _players = started(alice, bob)
    table = Table.objects.get(invite_token=token)
    monkeypatch.setattr(presence, "HEARTBEAT_SECONDS", 0.2)
    long_ago = timezone.now() - dt.timedelta(hours=1)

    def leases() -> dict[int, TablePresence]:
        return {row.player_id: row for row in TablePresence.objects.filter(table=table)}

    def age_everything() -> None:
        TablePresence.objects.filter(table=table).update(online_until=long_ago, visible_until=long_ago)
        Activity.objects.update(last_seen=long_ago)

    async def body():
        first = await connect(f"/ws/tables/{token}/", alice)
        second = await connect(f"/ws/tables/{token}/", bob)
        for socket in (first, second):
            await receive_type(socket, "snapshot")
        await second.send_json_to({"type": "visibility", "visible": False})
        await receive_type(first, "presence")
        await first.disconnect()
        # A grace, not a wait for a result: a beat that began before the close (one batch of
        # both sockets' leases) has finished before the rows are aged; nothing tells its end.
        await asyncio.sleep(0.3)
        await sync(age_everything)
        alice_id, bob_id = [await sync(lambda c=c: Player.objects.get(user=c.user).pk) for c in (alice, bob)]

        def renewed() -> bool:  # a beat after the ageing: the batch alice's lease was not in
            row = leases().get(bob_id)
            seen = Activity.objects.filter(player_id=bob_id, last_seen__gt=long_ago).exists()
            return row is not None and row.online_until > timezone.now() and seen

        await async_wait_until(lambda: sync(renewed), timeout=10, message="a heartbeat renewed bob's lease")
        rows = await sync(leases)
        now = timezone.now()
        assert rows[bob_id].online_until > now and rows[bob_id].visible_until <= now  # hidden page
        assert rows[alice_id].online_until == long_ago  # closed: not renewed
        seen = await sync(lambda: dict(Activity.objects.values_list("player_id", "last_seen")))
        assert seen[bob_id] > long_ago and seen.get(alice_id, long_ago) == long_ago
        await second.disconnect()

    run(body)


class _Socket:
    """What the heartbeat asks of a socket: its lease, its player, re-joining its groups."""

    def __init__(self, number: int):
        self.number = number
        self.player = type("P", (), {"pk": number})()
        self.rejoined = 0

    def lease(self) -> tuple[int, int, bool]:
        return (self.number, 1000 + self.number, True)

    def watch_lease(self) -> None:
        return None  # a player's socket: no visitor's lease in the cache

    async def rejoin_groups(self) -> None:
        self.rejoined += 1


def test_the_heartbeat_renews_each_socket_once_a_period_in_slices(monkeypatch):
    """A thousand sockets are not renewed in one batch: each beat takes only those due, about a
    tenth, and over a period every open socket is renewed once."""
    batches: list[list[tuple[int, int, bool]]] = []
    monkeypatch.setattr(presence, "renew_leases", lambda leases, players: batches.append(leases))
    monkeypatch.setattr(sockets, "db", lambda fn: database_sync_to_async(fn, thread_sensitive=True))

    async def body():
        beat = sockets.Heartbeat()
        open_sockets = [_Socket(number) for number in range(1000)]
        for socket in open_sockets:
            beat.sockets[socket] = sockets.random.uniform(0, presence.HEARTBEAT_SECONDS)
        step = presence.HEARTBEAT_SECONDS / sockets.BEAT_SLICES
        for number in range(1, sockets.BEAT_SLICES + 1):
            await beat.beat(now=number * step)
        return open_sockets

    open_sockets = run(body)
    renewed = [lease[0] for batch in batches for lease in batch]
    assert sorted(renewed) == list(range(1000))  # each socket once over the period
    assert max(len(batch) for batch in batches) < 200  # in slices, not one batch
    assert all(socket.rejoined == 1 for socket in open_sockets)


def test_a_socket_closing_during_a_beat_that_renews_it_waits_for_that_beat(monkeypatch):
    """Else the beat, holding the socket from before it closed, would renew the lease its close
    had just released (a visitor counted for another lease)."""
    renewed: list[list[tuple[int, int, bool]]] = []
    monkeypatch.setattr(presence, "renew_leases", lambda leases, players: renewed.append(leases))
    monkeypatch.setattr(sockets, "db", lambda fn: database_sync_to_async(fn, thread_sensitive=True))

    async def body():
        gate = asyncio.Event()

        class _SlowSocket(_Socket):
            async def rejoin_groups(self) -> None:
                await gate.wait()

        beat, socket = sockets.Heartbeat(), _SlowSocket(1)
        beat.sockets[socket] = 0.0
        beating = asyncio.create_task(beat.beat(now=1.0))
        await asyncio.sleep(0.01)
        closing = asyncio.create_task(beat.discard(socket))
        await asyncio.sleep(0.05)
        waited = not closing.done()
        gate.set()
        await asyncio.gather(beating, closing)
        return waited, beat.in_flight

    waited, in_flight = run(body)
    assert waited and in_flight is None
    assert renewed == []  # closed before its lease was renewed: not renewed


async def _presence_until(socket, seat: int, **wanted) -> dict:
    """The seat's row of the first presence message that shows ``wanted`` (earlier ones may
    report an older moment, e.g. the watcher's own arrival)."""
    while True:
        message = await receive_type(socket, "presence")
        row = next((row for row in message["seats"] if row["seat"] == seat), None)
        if row is not None and all(row[key] == value for key, value in wanted.items()):
            return row


def test_a_flooding_socket_is_throttled_then_closed(alice, bob):
    token, _ = started(alice, bob)

    async def body():
        socket = await connect(f"/ws/tables/{token}/", alice)
        await receive_type(socket, "snapshot")
        for _ in range(80):
            await socket.send_json_to({"type": "ping"})
        replies = []
        while True:
            output = await socket.receive_output(timeout=5)
            if output["type"] == "websocket.close":
                assert output["code"] == 4429
                break
            replies.append(json.loads(output["text"]))
        kinds = {message.get("code", message["type"]) for message in replies}
        assert {"pong", "rate_limited"} <= kinds

    run(body)


def test_invalid_messages_get_errors_not_a_crash(alice, bob):
    token, _ = started(alice, bob)

    async def body():
        socket = await connect(f"/ws/tables/{token}/", alice)
        await receive_type(socket, "snapshot")
        await socket.send_to(text_data="not json")
        assert (await receive_type(socket, "error"))["code"] == "invalid_json"
        await socket.send_json_to({"type": "dance"})
        assert (await receive_type(socket, "error"))["code"] == "unknown_type"
        await socket.send_json_to({"type": "move", "action": 5})
        assert (await receive_type(socket, "error"))["code"] == "invalid_input"
        await socket.send_json_to({"type": "chat", "text": "hi\x00", "channel": "players"})
        refused = await receive_type(socket, "error")
        assert (refused["code"], refused["detail"]) == (
            "invalid_input",
            "text: must not contain a NUL character",
        )
        assert not await database_sync_to_async(ChatMessage.objects.exists)()
        await socket.send_json_to({"type": "ping"})
        assert (await receive_type(socket, "pong"))["type"] == "pong"
        await socket.disconnect()

    run(body)


def test_user_socket_counts_pending_tables_and_alerts_your_move(alice, bob):
    token, players = started(alice, bob)
    mover, other, state = to_play(token, players)

    async def body():
        waiting = await connect("/ws/me/", other)
        pending = await receive_type(waiting, "pending")
        assert pending == {"type": "pending", "count": 0, "tables": []}
        view = state["deal"]["view"]
        version = state["version"]
        while True:  # play the mover's whole turn: the turn passes to the other player
            action = _turn_action(view)
            result = await sync(
                mover.ok, "post", f"/tables/{token}/moves", {"action": action, "expected_version": version}
            )
            version, view = result["state"]["version"], result["state"]["deal"]["view"]
            if view["to_play"] != state["you"]["seat"] or result["state"]["status"] != "playing":
                break
        if result["state"]["status"] == "playing":
            seen = {}
            while len(seen) < 2:  # the alert and the new count, in either order
                message = await receive_type(waiting, "alert", "pending")
                seen[message["type"]] = message
            assert seen["alert"]["kind"] == "your_move" and seen["alert"]["table"] == token
            assert seen["alert"]["url"].endswith(f"/t/{token}/")
            assert seen["pending"] == {"type": "pending", "count": 1, "tables": [token]}
        await waiting.disconnect()

    run(body)


def _turn_action(view) -> str:
    from tests.tables.helpers import choose_action

    action = choose_action(view, 1)
    return "pass" if action.startswith("knock") and "pass" in view["legal_actions"] else action


def test_a_visitor_with_a_session_but_no_name_watches(alice, bob):
    token, _ = started(alice, bob)
    visitor = Client()
    visitor.get("/")  # a session of its own
    session = visitor.session
    session["seen"] = True
    session.save()
    visitor.cookies["sessionid"] = session.session_key

    class Holder:
        client = visitor

    async def body():
        socket = await connect(f"/ws/tables/{token}/", Holder)
        snapshot = await receive_type(socket, "snapshot")
        assert snapshot["state"]["you"]["seat"] is None
        await socket.disconnect()

    run(body)


def test_sockets_survive_a_burst_of_events(alice, bob):
    """Every version reaches the opponent, as an event or covered by a snapshot: never a gap."""
    token, players = started(alice, bob)

    async def body():
        watchers = {seat: await connect(f"/ws/tables/{token}/", client) for seat, client in players.items()}
        versions = {seat: [(await receive_type(s, "snapshot"))["version"]] for seat, s in watchers.items()}
        for _ in range(12):
            if (await sync(players[0].state, token))["status"] != "playing":
                break  # a knock or gin ended the deal early: nobody is to play
            mover, _, state = await sync(to_play, token, players)
            action = _turn_action(state["deal"]["view"])
            await sync(
                mover.ok,
                "post",
                f"/tables/{token}/moves",
                {"action": action, "expected_version": state["version"]},
            )
        final = (await sync(players[0].state, token))["version"]
        for seat, socket in watchers.items():
            while versions[seat][-1] < final:
                message = await receive_type(socket, "event", "snapshot")
                if message["type"] == "event":
                    assert message["version"] == versions[seat][-1] + 1
                versions[seat].append(message["version"])
            await socket.disconnect()
        await asyncio.sleep(0)

    run(body)


@pytest.mark.slow  # whole deals over a socket, some 4 s
def test_deal_end_and_rematch_actions_over_the_socket_go_through_the_services(alice, bob, carol):
    token, players = started(alice, bob, ruleset="reino")  # a match of several deals
    carol.ok("post", f"/tables/{token}/join", {})
    state = play_deal(token, players)
    assert state["status"] == "between_deals"
    version = state["version"]

    async def body():
        mine = await connect(f"/ws/tables/{token}/", players[0])
        theirs = await connect(f"/ws/tables/{token}/", players[1])
        spectator = await connect(f"/ws/tables/{token}/", carol)
        for socket in (mine, theirs, spectator):
            await receive_type(socket, "snapshot")
        for bad in ({"action": "shuffle"}, {"action": "next_deal", "expected_version": "7"}):
            await mine.send_json_to({"type": "action", "request_id": "r0", **bad})
            error = await receive_type(mine, "error")
            assert (error["status"], error["code"], error["request_id"]) == (400, "invalid_input", "r0")
        await spectator.send_json_to({"type": "action", "action": "next_deal", "expected_version": version})
        assert (await receive_type(spectator, "error"))["status"] in (401, 403)
        await mine.send_json_to({"type": "action", "action": "next_deal", "expected_version": version + 3})
        assert (await receive_type(mine, "error"))["code"] == "stale_version"
        assert (await receive_type(mine, "snapshot"))["version"] == version
        assert await sync(lambda: players[0].state(token)["version"]) == version  # nothing changed
        await mine.send_json_to(
            {"type": "action", "action": "next_deal", "expected_version": version, "request_id": "r1"}
        )
        result = await receive_type(mine, "action_result")
        assert (result["request_id"], result["action"], result["version"]) == ("r1", "next_deal", version + 1)
        assert (await _event_at(theirs, version + 1))["state"]["status"] == "playing"
        await theirs.send_json_to({"type": "action", "action": "resign", "expected_version": version + 1})
        assert (await receive_type(theirs, "action_result"))["version"] == version + 2
        assert (await _event_at(mine, version + 2))["state"]["status"] == "match_over"
        await mine.send_json_to({"type": "action", "action": "rematch_accept"})
        assert (await receive_type(mine, "error"))["status"] == 409  # nothing offered yet
        await mine.send_json_to({"type": "action", "action": "rematch_offer"})
        assert (await receive_type(mine, "action_result"))["version"] == version + 3
        offered = await _event_at(theirs, version + 3)
        assert offered["state"]["rematch"]["offered_by"] is not None
        await theirs.send_json_to({"type": "action", "action": "rematch_accept", "request_id": "r2"})
        assert (await receive_type(theirs, "action_result"))["request_id"] == "r2"
        assert (await _event_at(mine, version + 4))["state"]["status"] == "playing"
        for socket in (mine, theirs, spectator):
            await socket.disconnect()

    run(body)


async def _event_at(socket, version: int) -> dict:
    """The event of table version ``version``, skipping those before it."""
    while True:
        event = await receive_type(socket, "event")
        if event["version"] >= version:
            assert event["version"] == version
            return event
