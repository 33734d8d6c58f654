"""Sockets in tests: WebsocketCommunicator through the project's whole ASGI stack."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from config.asgi import application

ORIGIN = b"http://testserver"
WAIT = 5


def run(coroutine_function):
    """Run an async test body (pytest-asyncio is not a dependency)."""
    return async_to_sync(coroutine_function)()


def sync(fn, *args, **kwargs):
    """Call blocking test code (the Django test client, the ORM) from a test's coroutine."""
    return database_sync_to_async(fn)(*args, **kwargs)


def cookie_of(api_client) -> str:
    return "; ".join(f"{name}={morsel.value}" for name, morsel in api_client.client.cookies.items())


def communicator(path: str, api_client=None, *, origin: bytes = ORIGIN, token: str | None = None):
    headers = [(b"host", b"testserver")]
    if origin:
        headers.append((b"origin", origin))
    if api_client is not None:
        headers.append((b"cookie", cookie_of(api_client).encode()))
    if token:
        headers.append((b"authorization", f"Bearer {token}".encode()))
    return WebsocketCommunicator(application, path, headers=headers)


async def connect(path: str, api_client=None, **kwargs) -> WebsocketCommunicator:
    socket = communicator(path, api_client, **kwargs)
    connected, code = await socket.connect(timeout=WAIT)
    assert connected, f"refused with {code}"
    return socket


async def receive(socket: WebsocketCommunicator, timeout: float = WAIT) -> dict[str, Any]:
    return json.loads(await socket.receive_from(timeout=timeout))


async def receive_type(socket: WebsocketCommunicator, *types: str, timeout: float = WAIT) -> dict[str, Any]:
    """The next message of one of ``types``, skipping others (presence, pong...)."""
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        left = deadline - asyncio.get_running_loop().time()
        assert left > 0, f"no {types} message within {timeout} s"
        message = await receive(socket, left)
        if message["type"] in types:
            return message


async def drain(socket: WebsocketCommunicator, seconds: float = 0.3) -> list[dict[str, Any]]:
    """What arrives until ``seconds`` pass quietly (a timed-out receive would cancel the app)."""
    messages = []
    while not await socket.receive_nothing(seconds):
        messages.append(await receive(socket))
    return messages


def comparable(state: dict[str, Any]) -> dict[str, Any]:
    """A state without its clock's countdown, which ticks between two reads."""
    deal = state.get("deal")
    return {**state, "deal": {**deal, "seconds_left": None}} if deal else state
