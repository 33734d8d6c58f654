"""A private Redis (channel layer, cache and Celery broker of a daphne and a Celery worker with beat)
stopped for 10 s while two programs play over HTTP with their sockets open: every move either
commits or fails with a JSON error, nothing is half-applied; once Redis is back each client is
in sync with the table's version within 5 s (its socket, or a reconnected one, answers `hello`
with a snapshot), and the clock works again: an expired turn is played by the sweeper. At a
second table against TITO, the bot's turn that came while the broker was down (its task could
not be sent) is played once Redis is back: the stalled-bot sweep hands it over again."""

from __future__ import annotations

import asyncio
import datetime as dt
import json
import signal
import time

import aiohttp
import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.utils import timezone

import rules
from tables.accounts import identity
from tables.play import services
from tables.play.models import Deal, Table
from tables.play.tasks import STALLED_BOT_SECONDS
from tests.polling import wait_until
from tests.tables.helpers import choose_action
from tests.tables.live import servers
from tests.tables.live.clocks import wait_for_version

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.faults,
    pytest.mark.skipif(not settings.REDIS_URL, reason="needs redis-server and REDIS_URL (.ci/run sets it)"),
]
OUTAGE_SECONDS = 10
RESYNC_SECONDS = 5


def two_programs_at_a_table() -> tuple[str, dict[int, str]]:
    users = [get_user_model().objects.create_user(username=n, email=f"{n}@example.com") for n in ("al", "bo")]
    players = [identity.player_for_user(user) for user in users]
    table = services.create_table(players[0], turn_seconds=600)
    services.join_table(table.pk, players[1])
    services.start_match(table.pk, players[0])
    return table.invite_token, {seat: identity.issue_api_token(users[seat], "program")[1] for seat in (0, 1)}


class Program:
    def __init__(self, http: aiohttp.ClientSession, base: str, token: str):
        self.http, self.base, self.token = http, base, token
        self.headers = {"Authorization": f"Bearer {token}", "Origin": base}
        self.socket = None

    async def call(self, method: str, path: str, body: dict | None = None) -> tuple[int, dict]:
        async with self.http.request(
            method, self.base + "/api" + path, json=body, headers=self.headers
        ) as reply:
            return reply.status, json.loads(await reply.text() or "{}")

    async def open_socket(self, table: str) -> dict:
        self.socket = await self.http.ws_connect(f"{self.base}/ws/tables/{table}/", headers=self.headers)
        return await self.next_snapshot()

    async def next_snapshot(self) -> dict:
        while True:
            frame = await self.socket.receive(timeout=RESYNC_SECONDS)
            if frame.type != aiohttp.WSMsgType.TEXT:
                raise ConnectionError("socket closed")
            message = json.loads(frame.data)
            if message["type"] == "snapshot":
                return message

    async def resync(self, table: str, version: int) -> int:
        """The version this client knows after saying hello (reconnecting if its socket died)."""
        try:
            await self.socket.send_json({"type": "hello", "version": version})
            return (await self.next_snapshot())["version"]
        except (TimeoutError, ConnectionError, ConnectionResetError, RuntimeError):
            return (await self.open_socket(table))["version"]


def patient_action(view: dict, turn: int) -> str:
    """choose_action without knocks: moves are quick, and a match that ended during the outage
    would leave no clock for check_the_clock_resumes."""
    if view["phase"] == "discard":
        return f"discard {rules.best_discard(view['hand'], exclude=view['just_taken']).card}"
    return choose_action(view, turn)


async def play_during_outage(programs: dict[int, Program], table: str, until: float) -> list[int]:
    statuses = []
    while time.monotonic() < until:
        _, state = await programs[0].call("GET", f"/tables/{table}")
        if state["status"] == "between_deals":  # moves are quick: a deal may end during the outage
            status, _ = await programs[0].call(
                "POST", f"/tables/{table}/next-deal", {"expected_version": state["version"]}
            )
            statuses.append(status)
            continue
        if state["status"] != "playing":
            break
        seat = state["deal"]["view"]["to_play"]
        _, mine = await programs[seat].call("GET", f"/tables/{table}")
        body = {
            "action": patient_action(mine["deal"]["view"], len(statuses)),
            "expected_version": mine["version"],
        }
        status, reply = await programs[seat].call(
            "POST", f"/tables/{table}/moves", {**body, "client_move_id": f"o{mine['version']}"}
        )
        assert status == 200 or reply.get("detail"), f"{status} without a message"
        statuses.append(status)
    return statuses


def test_redis_outage_while_two_clients_play(django_db_setup, tmp_path) -> None:
    redis_port, web_port = servers.free_port(), servers.free_port()
    redis_url = f"redis://127.0.0.1:{redis_port}/0"
    redis = servers.redis_server(redis_port, tmp_path / "redis.log")
    env = servers.child_env(DATABASE_URL=servers.database_url(), REDIS_URL=redis_url, DEBUG="true")
    web = servers.daphne(web_port, env, tmp_path / "daphne.log")
    worker = servers.celery_worker(env, tmp_path / "worker.log", beat=True)
    table, tokens = two_programs_at_a_table()
    base = f"http://127.0.0.1:{web_port}"
    restarted = []
    try:
        bot_table = asyncio.run(a_table_against_tito(base, tokens[0]))
        wait_for_human_turn(bot_table)
        asyncio.run(outage(table, tokens, base, redis, restarted, tmp_path, bot_table))
        check_the_clock_resumes(table)
        check_the_bot_resumes(bot_table)
    finally:
        for process in (worker, web, redis, *restarted):
            servers.stop(process)
        for log in ("worker.log", "daphne.log"):  # pytest shows what a test printed only when it failed
            path = tmp_path / log
            print(f"--- {log}:\n{path.read_text(errors='replace')[-4000:] if path.exists() else ''}")


async def outage(
    table: str, tokens: dict[int, str], base: str, redis, restarted: list, tmp_path, bot_table: str
) -> None:
    """Both sockets open; Redis killed; play for OUTAGE_SECONDS; Redis back on its port; resync."""
    port = int(redis.args[redis.args.index("--port") + 1])
    async with aiohttp.ClientSession() as http:
        programs = {seat: Program(http, base, token) for seat, token in tokens.items()}
        for program in programs.values():
            await program.open_socket(table)
        servers.stop(redis, signal.SIGKILL)
        await hand_the_turn_to_the_bot(programs[0], bot_table)
        statuses = await play_during_outage(programs, table, time.monotonic() + OUTAGE_SECONDS)
        assert statuses.count(200) >= 3, f"moves while Redis was down: {statuses}"
        restarted.append(servers.redis_server(port, tmp_path / "redis-2.log"))
        back = time.monotonic()
        stored = await asyncio.to_thread(lambda: Table.objects.get(invite_token=table).version)
        for program in programs.values():
            assert await program.resync(table, stored - 1) == stored
        assert time.monotonic() - back <= RESYNC_SECONDS + 1


def check_the_clock_resumes(table_token: str) -> None:
    table = Table.objects.get(invite_token=table_token)
    Deal.objects.filter(pk=table.current_deal_id).update(deadline=timezone.now() + dt.timedelta(seconds=1))
    wait_for_version(table, table.version + 1, seconds=settings.SWEEP_SECONDS + 20)


async def a_table_against_tito(base: str, token: str) -> str:
    """Opened through the server (whose broker is the private Redis), so TITO's tasks reach the worker."""
    async with aiohttp.ClientSession() as http:
        program = Program(http, base, token)
        status, state = await program.call("POST", "/tables", {"turn_seconds": 600})
        assert status == 201, state
        table = state["table"]
        for path, body in (("bot", {"level": "tito"}), ("start", {})):
            status, reply = await program.call("POST", f"/tables/{table}/{path}", body)
            assert status == 200, reply
        return table


def _bot_table(token: str) -> Table:
    return Table.objects.select_related("current_deal").get(invite_token=token)


def wait_for_human_turn(token: str, seconds: float = 60) -> None:
    """Redis is still up: if TITO moves first, let it (its task goes through the broker). A bound,
    not a speed: a turn whose task went stale or was lost is handed again by kick_stalled_bots
    (STALLED_BOT_SECONDS idle, then its next 10 s sweep), and TITO thinks a little before moving;
    30 s was once not enough in a whole suite's run."""
    wait_until(
        lambda: _bot_table(token).current_deal.to_play == 0,
        timeout=seconds,
        interval=0.2,
        message="TITO played its first turn",
    )


async def hand_the_turn_to_the_bot(program: Program, token: str) -> None:
    """With the broker down, the human plays until it is TITO's turn (or the deal ends): the
    bot's task cannot be sent, yet the moves commit."""
    for number in range(3):
        _, state = await program.call("GET", f"/tables/{token}")
        if state["status"] != "playing" or state["deal"]["view"]["to_play"] != 0:
            return
        body = {"action": choose_action(state["deal"]["view"], number), "expected_version": state["version"]}
        status, reply = await program.call("POST", f"/tables/{token}/moves", body)
        assert status == 200, f"a move at the bot table failed while Redis was down: {status} {reply}"
    _, state = await program.call("GET", f"/tables/{token}")
    assert state["status"] != "playing" or state["deal"]["view"]["to_play"] == 1, (
        "TITO moved without a broker"
    )


def check_the_bot_resumes(token: str) -> None:
    """No table stuck on a bot: once Redis is back, TITO's lost turn is played."""
    table = _bot_table(token)
    if table.current_deal.status == Deal.Status.PLAYING and table.current_deal.to_play == 1:
        wait_for_version(table, table.version + 1, seconds=STALLED_BOT_SECONDS + 30)
