"""The live path of a move, in process: support of bench/move_cost.py (see its docstring)."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection

from config.asgi import application
from config.celery import app
from tables.accounts.identity import issue_api_token, player_for_user
from tables.background import registry, scheduling
from tables.play import services
from tables.play.models import Table

WAIT = 10


class Client:
    """One socket of the table and the latest state it was sent."""

    def __init__(self, token: str, api_token: str):
        headers = [(b"host", b"127.0.0.1"), (b"authorization", f"Bearer {api_token}".encode())]
        self.socket = WebsocketCommunicator(application, f"/ws/tables/{token}/", headers=headers)
        self.state: dict[str, Any] | None = None
        self.version = -1
        self.decoding = 0.0  # CPU seconds this client spent decoding frames (not the server's)

    async def frame(self) -> dict[str, Any]:
        raw = await self.socket.receive_from(timeout=WAIT)
        start = time.thread_time()
        message: dict[str, Any] = json.loads(raw)
        self.decoding += time.thread_time() - start
        if "state" in message:
            self.state, self.version = message["state"], message["version"]
        return message

    async def until(self, *kinds: str, version: int | None = None) -> dict[str, Any]:
        while True:
            message = await self.frame()
            if message["type"] == "error":
                raise RuntimeError(f"refused: {message}")
            if message["type"] in kinds and (version is None or message.get("version", -1) >= version):
                return message


def started_tables(count: int) -> list[tuple[str, list[str]]]:
    """Tables with both seats taken and a match started: (invite token, [seat 0's, seat 1's,
    a spectator's API token])."""
    User = get_user_model()
    stamp = int(time.time() * 1000)
    tables = []
    for number in range(count):
        users = [User.objects.create(username=f"mc{stamp}x{number}x{who}") for who in range(3)]
        players = [player_for_user(user) for user in users]
        tokens = [issue_api_token(user, "bench")[1] for user in users]
        table = services.create_table(players[0], turn_seconds=Table.TURN_CLOCKS[-1])
        services.join_table(table.pk, players[1])
        services.start_match(table.pk, players[0])
        tables.append((Table.objects.get(pk=table.pk).invite_token, tokens))
    return tables


def next_move(state: dict[str, Any]) -> dict[str, Any] | None:
    deal = state.get("deal")
    if state["status"] != "playing" or deal is None or deal["status"] != "playing":
        return None
    view = deal["view"]
    if view["phase"] == "discard":
        return {"action": f"discard {deal['coach']['best_discard']['card']}"}
    return {"action": "draw_stock" if "draw_stock" in view["legal_actions"] else "pass"}


def start_profile(path: str | None) -> subprocess.Popen[bytes] | None:
    """py-spy (not a dependency of the project) sampling this process, GIL holder only, from now."""
    if path is None:
        return None
    spy = shutil.which("py-spy") or str(Path(sys.executable).parent / "py-spy")
    command = [spy, "record", "--pid", str(os.getpid()), "--rate", "400", "--gil", "--nonblocking"]
    process = subprocess.Popen([*command, "--format", "raw", "--output", path], stderr=subprocess.DEVNULL)
    time.sleep(1)  # attached
    return process


async def play(
    tables: list[tuple[str, list[str]]], rounds: int, profile: str | None = None
) -> tuple[int, float, float, list[float]]:
    """(moves, process CPU s, clients' decoding CPU s, CPU ms of each move's window)."""
    clients = []
    for token, api_tokens in tables:
        table_clients = [Client(token, api_token) for api_token in api_tokens]
        for client in table_clients:
            connected, code = await client.socket.connect(timeout=WAIT)
            assert connected, f"socket refused ({code})"
            await client.until("snapshot")
        clients.append(table_clients)
    await asyncio.sleep(1)  # the presence frames of the connections
    for table_clients in clients:
        for client in table_clients:
            while not await client.socket.receive_nothing(0.01):
                await client.frame()
    moves, spy = 0, None
    windows: list[float] = []
    start = time.process_time()
    decoded = sum(client.decoding for table_clients in clients for client in table_clients)
    for round_number in range(rounds + 1):
        if round_number == 1:  # the first round warms the process up (first reads, imports): not counted
            await asyncio.sleep(2 * scheduling.follow_ups.window)
            moves, windows = 0, []
            spy = start_profile(profile)
            start = time.process_time()
            decoded = sum(client.decoding for table_clients in clients for client in table_clients)
        for table_clients in clients:
            seats = table_clients[:2]
            state = seats[0].state
            assert state is not None
            to_play = state["deal"]["view"]["to_play"] if state.get("deal") else None
            mover = next((c for c in seats if c.state and c.state["you"]["seat"] == to_play), None)
            move = None if mover is None or mover.state is None else next_move(mover.state)
            if mover is None or move is None:
                continue
            window = time.process_time()
            version = mover.version
            await mover.socket.send_to(
                text_data=json.dumps({"type": "move", **move, "expected_version": version})
            )
            answer = await mover.until("move_result")
            for client in table_clients:
                await client.until("event", "snapshot", version=answer["version"])
            windows.append(1000 * (time.process_time() - window))
            moves += 1
    await asyncio.sleep(2 * scheduling.follow_ups.window)  # the last batch of follow-ups
    scheduling.follow_ups.flush()
    spent = time.process_time() - start
    if spy is not None:
        spy.send_signal(signal.SIGINT)
        spy.wait(timeout=60)
    decoding = sum(client.decoding for table_clients in clients for client in table_clients) - decoded
    for table_clients in clients:
        for client in table_clients:
            await client.socket.disconnect()
    return moves, spent, decoding, windows


def report(table_count: int, rounds: int, profile: str | None = None) -> None:
    tables = started_tables(table_count)
    connection.close()  # back to the pool, for the sockets' threads
    send = scheduling.follow_ups.send
    eager = app.conf.task_always_eager
    if settings.REDIS_URL:  # the web process hands batches to the broker; the worker's task runs here

        def send_and_run(batch: scheduling.Batch) -> None:
            send(batch)
            try:
                app.tasks[registry.TABLES_CHANGED.name](batch)
            finally:
                connection.close()  # as a worker does after each task (each batch is a new thread)

        scheduling.follow_ups.send = send_and_run
    else:
        app.conf.task_always_eager = True
    try:
        moves, spent, decoding, windows = asyncio.run(play(tables, rounds, profile))
    finally:
        scheduling.follow_ups.send = send
        app.conf.task_always_eager = eager
        if settings.REDIS_URL:
            app.control.purge()  # the batches no worker took (this benchmark's Redis database)
    per_move = 1000 * (spent - decoding) / moves
    print(
        f"live path: {moves} moves at {table_count} tables (2 players and a spectator each); "
        f"process CPU per move {per_move:.2f} ms (clients' decoding {1000 * decoding / moves:.2f} ms taken out); "
        f"move windows median {statistics.median(windows):.2f} ms"
    )
    return None
