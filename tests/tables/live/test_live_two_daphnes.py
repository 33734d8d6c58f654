"""Two daphne processes on loopback sharing Redis (the "many machines" path): a player on one
process moves, the opponent on the other receives the event."""

from __future__ import annotations

import asyncio
import json

import aiohttp
import pytest
from django.conf import settings

from tables.accounts.identity import issue_api_token
from tests.tables.helpers import started, to_play

from . import servers

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.slow,
    pytest.mark.skipif(
        not settings.REDIS_URL, reason="two daphnes share Redis: set REDIS_URL (.ci/run does)"
    ),
]


@pytest.fixture
def two_daphnes(worker_env, tmp_path):
    processes, ports, logs = [], [], [tmp_path / f"daphne{number}.log" for number in (1, 2)]
    try:
        for log in logs:
            port = servers.free_port()
            processes.append(servers.daphne(port, worker_env, log))
            ports.append(port)
        yield ports
    finally:
        for process in processes:
            servers.stop(process)
        for log in logs:  # pytest shows what a test printed only when it failed
            print(f"--- {log.name}:\n{log.read_text(errors='replace')[-3000:] if log.exists() else ''}")


def test_a_move_on_one_daphne_reaches_the_opponent_on_the_other(alice, bob, two_daphnes):
    token, players = started(alice, bob)
    mover, other, state = to_play(token, players)
    raw = {client: issue_api_token(client.user, "socket")[1] for client in (mover, other)}
    asyncio.run(_move_across(two_daphnes, token, state, raw[mover], raw[other]))


async def _move_across(ports, token, state, mover_token, other_token) -> None:
    first, second = (f"http://127.0.0.1:{port}" for port in ports)
    async with aiohttp.ClientSession() as http:
        mover = await _socket(http, first, token, mover_token)
        other = await _socket(http, second, token, other_token)
        version = (await _next(mover, "snapshot"))["version"]
        assert (await _next(other, "snapshot"))["version"] == version
        action = state["deal"]["view"]["legal_actions"][0]
        await mover.send_json(
            {"type": "move", "action": action, "expected_version": version, "client_move_id": "x"}
        )
        assert (await _next(mover, "move_result"))["version"] == version + 1
        event = await _next(other, "event")
        assert event["version"] == version + 1 and event["kind"] == "move"
        assert event["state"]["you"]["seat"] == 1 - state["you"]["seat"]
        await mover.close()
        await other.close()


async def _socket(http, base, token, api_token):
    headers = {"Origin": base, "Authorization": f"Bearer {api_token}"}
    return await http.ws_connect(f"{base}/ws/tables/{token}/", headers=headers)


async def _next(socket, kind, seconds: float = 10):
    async with asyncio.timeout(seconds):
        while True:
            message = json.loads((await socket.receive()).data)
            if message["type"] == kind:
                return message


def test_logged_out_visitors_on_both_daphnes_are_counted_together(alice, bob, two_daphnes):
    """Their leases are in the shared cache: a player on one process counts the visitors of
    both, and one visitor leaving on the other process is counted out."""
    token, players = started(alice, bob)
    raw = issue_api_token(players[0].user, "socket")[1]
    asyncio.run(_visitors_across(two_daphnes, token, raw))


async def _visitors_across(ports, token, player_token) -> None:
    first, second = (f"http://127.0.0.1:{port}" for port in ports)
    async with aiohttp.ClientSession() as http:
        player = await _socket(http, first, token, player_token)
        visitors = []
        for base in (first, second):
            visitors.append(await http.ws_connect(f"{base}/ws/tables/{token}/", headers={"Origin": base}))
            assert (await _next(visitors[-1], "snapshot"))["state"]["you"]["seat"] is None
        await _spectators(player, 2)
        await visitors[1].close()
        await _spectators(player, 1)
        for socket in (visitors[0], player):
            await socket.close()


async def _spectators(socket, count: int) -> None:
    while (await _next(socket, "presence"))["spectators"] != count:
        pass
