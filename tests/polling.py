"""Waiting for something with a deadline, instead of sleeping a fixed time and then asserting.

``wait_until`` asks ``predicate`` every ``interval`` seconds and returns its first true answer;
past ``timeout`` seconds it fails the test with ``message``. A fixed sleep is either too short
on a loaded machine (a flaky test) or too long everywhere else (a slow one); a deadline is only
reached when something is really wrong. A sleep that is itself what a test is about (letting a
clock or a lease run out) stays a sleep, with a comment saying so.
"""

from __future__ import annotations

import asyncio
import inspect
import time
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

T = TypeVar("T")

TIMEOUT = 15.0  # seconds: generous, since a deadline costs nothing when things go right
INTERVAL = 0.05


def wait_until(
    predicate: Callable[[], T],
    timeout: float = TIMEOUT,
    interval: float = INTERVAL,
    message: str = "",
    pause: Callable[[float], object] = time.sleep,
) -> T:
    """``predicate()``'s first true value, asked every ``interval`` s for up to ``timeout`` s.
    ``pause`` waits between two asks: a browser test passes ``browser_pause(page)``, so that
    Playwright delivers the page's events meanwhile (a ``time.sleep`` would hold them)."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() >= deadline:
            raise AssertionError(f"not within {timeout} s: {message or _name(predicate)}")
        pause(interval)


def browser_pause(page: Any) -> Callable[[float], object]:
    """A Playwright page's own wait, in seconds, for ``wait_until(..., pause=...)``."""
    return lambda seconds: page.wait_for_timeout(seconds * 1000)


async def async_wait_until(
    predicate: Callable[[], T | Awaitable[T]],
    timeout: float = TIMEOUT,
    interval: float = INTERVAL,
    message: str = "",
) -> T:
    """``wait_until`` in a coroutine: the event loop runs meanwhile; ``predicate`` may be a
    coroutine function (e.g. a database read through ``sync_to_async``)."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if inspect.isawaitable(value):
            value = await value
        if value:
            return value  # type: ignore[return-value]
        if time.monotonic() >= deadline:
            raise AssertionError(f"not within {timeout} s: {message or _name(predicate)}")
        await asyncio.sleep(interval)


def _name(predicate: Callable[..., object]) -> str:
    return getattr(predicate, "__qualname__", repr(predicate))
