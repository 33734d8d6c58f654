"""Embedded mode end to end: `manage.py runserver` on a fresh SQLite file, no Redis, no worker.

A bot answers over the socket, a deadline fires through the in-process scheduler's sweeper,
and one SIGINT (Ctrl-C) stops everything. The test talks to the server only over HTTP and the
socket, as a browser would, plus one direct write of a deadline into the database file.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import json
import signal
import sqlite3
import subprocess

import aiohttp
import pytest

from . import servers

pytestmark = pytest.mark.slow

MAKE_TOKEN = """
from django.contrib.auth import get_user_model
from tables.accounts.identity import issue_api_token
user = get_user_model().objects.create_user(username="eve", email="eve@example.com", password="x")
print("TOKEN=" + issue_api_token(user, "test")[1])
"""


@pytest.fixture
def embedded_server(tmp_path):
    db_file = tmp_path / "db.sqlite3"
    # Unbuffered, with faulthandler: a server that does not stop shows its last lines and, sent
    # SIGABRT, every thread's stack (the Ctrl-C test below).
    env = servers.child_env(
        DATABASE_URL=f"sqlite:///{db_file}",
        GINMESA_VAR_DIR=str(tmp_path),
        DEBUG="true",
        PYTHONUNBUFFERED="1",
        PYTHONFAULTHANDLER="1",
    )
    manage = [servers.PYTHON, "manage.py"]
    subprocess.run(
        [*manage, "migrate", "--noinput"], cwd=servers.ROOT, env=env, check=True, capture_output=True
    )
    made = subprocess.run(
        [*manage, "shell", "-c", MAKE_TOKEN],
        cwd=servers.ROOT,
        env=env,
        check=True,
        capture_output=True,
        text=True,
    )
    token = made.stdout.split("TOKEN=")[1].strip()
    port = servers.free_port()
    log = tmp_path / "server.log"
    process = servers.start([*manage, "runserver", f"127.0.0.1:{port}", "--noreload"], env, log)
    servers.wait_for_port(port, process, log)
    yield {"port": port, "token": token, "db": db_file, "process": process, "log": log}
    servers.stop(process, signal.SIGKILL)


def test_embedded_mode_is_fully_alive_and_stops_on_one_ctrl_c(embedded_server):
    asyncio.run(_play_against_a_bot_and_time_out(embedded_server))
    process = embedded_server["process"]
    process.send_signal(signal.SIGINT)
    try:
        # A bound, not a speed. In whole-suite runs the server once took over 10 s (a loaded
        # machine) and once over 60 s to stop, neither seen alone: the stacks below will say why.
        process.wait(60)
    except subprocess.TimeoutExpired:
        process.send_signal(signal.SIGABRT)  # faulthandler writes every thread's stack to the log
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(10)
        tail = embedded_server["log"].read_text()[-6000:]
        pytest.fail(f"one Ctrl-C must stop the server and its scheduler; the server's log ends:\n{tail}")
    assert "embedded scheduler started" in embedded_server["log"].read_text()


async def _play_against_a_bot_and_time_out(server) -> None:
    base = f"http://127.0.0.1:{server['port']}"
    headers = {"Authorization": f"Bearer {server['token']}"}
    async with aiohttp.ClientSession(base, headers=headers) as http:
        # The move log (off by default on a live clock) shows the server's timed-out moves below.
        options = {"turn_seconds": 30, "ruleset": "playgridia", "move_log": True}
        table = await _post(http, "/api/tables", options)
        token = table["table"]
        await _post(http, f"/api/tables/{token}/bot", {"level": "tito"})
        started = await _post(http, f"/api/tables/{token}/start", {})
        seat = started["you"]["seat"]
        async with http.ws_connect(f"/ws/tables/{token}/", headers={"Origin": base}) as socket:
            state = (await _next(socket, "snapshot"))["state"]
            state = await _until_my_turn(socket, state, seat)  # the bot may deal first and play
            await _play_my_turn(socket, state, seat)
            bot_event = await _next(socket, "event", lambda m: m["state"]["deal"]["view"]["to_play"] == seat)
            assert bot_event["kind"] in ("move", "deal_over")
            if bot_event["state"]["status"] != "playing":
                return  # the bot ended the deal: the bot's answer is what this part checks
            _expire_now(server["db"], token)
            timeout = await _next(
                socket, "event", lambda m: m["kind"] in ("timeout", "deal_over", "match_over")
            )
            moves = await (await http.get(f"/api/tables/{token}/moves")).json()
            assert any(move["source"] == "timeout" for move in moves["moves"])
            assert timeout["version"] > bot_event["version"]


async def _post(http, path, body):
    async with http.post(path, json=body) as response:
        assert response.status in (200, 201), await response.text()
        return await response.json()


async def _next(socket, kind, accept=lambda message: True, seconds: float = 20):
    async with asyncio.timeout(seconds):
        while True:
            message = json.loads((await socket.receive()).data)
            if message["type"] == kind and accept(message):
                return message


async def _until_my_turn(socket, state, seat):
    while state["status"] != "playing" or state["deal"]["view"]["to_play"] != seat:
        state = (await _next(socket, "event"))["state"]
    return state


async def _play_my_turn(socket, state, seat) -> None:
    """Draw (or pass) then discard over the socket, until the turn passes to the bot."""
    from tests.tables.helpers import choose_action

    while state["status"] == "playing" and state["deal"]["view"]["to_play"] == seat:
        view = state["deal"]["view"]
        action = choose_action(view, 1)
        if action.startswith(("knock", "big_gin")):  # keep the deal going: the clock is next
            action = next(legal for legal in view["legal_actions"] if legal.startswith("discard"))
        version = state["version"]
        await socket.send_json({"type": "move", "action": action, "expected_version": version})
        state = (await _next(socket, "event", lambda m, after=version: m["version"] > after))["state"]


def _expire_now(db_file, token) -> None:
    """The human's clock runs out now (instead of in 30 s)."""
    now = dt.datetime.now(dt.UTC).replace(tzinfo=None).isoformat(sep=" ")
    with sqlite3.connect(db_file, timeout=20) as connection:
        connection.execute(
            "UPDATE tables_deal SET deadline = ? WHERE id = "
            "(SELECT current_deal_id FROM tables_table WHERE invite_token = ?)",
            (now, token),
        )
