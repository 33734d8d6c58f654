"""The suite's wait with a deadline (tests/polling.py)."""

from __future__ import annotations

import asyncio
import itertools
import time

import pytest

from tests.polling import async_wait_until, wait_until


def test_wait_until_returns_the_first_true_answer_as_soon_as_it_comes():
    answers = itertools.chain([0, None, ""], itertools.repeat("done"))
    start = time.monotonic()
    assert wait_until(lambda: next(answers), timeout=5, interval=0.01) == "done"
    assert time.monotonic() - start < 1


def test_wait_until_fails_at_its_deadline_with_its_message():
    start = time.monotonic()
    with pytest.raises(AssertionError, match=r"not within 0.2 s: the moon rose"):
        wait_until(lambda: False, timeout=0.2, interval=0.01, message="the moon rose")
    assert 0.2 <= time.monotonic() - start < 2


def test_wait_until_pauses_with_the_given_wait():
    pauses: list[float] = []
    answers = iter([False, False, True])
    assert wait_until(lambda: next(answers), interval=0.25, pause=pauses.append)
    assert pauses == [0.25, 0.25]


def test_the_async_twin_awaits_a_coroutine_predicate_and_lets_the_loop_run():
    async def scenario() -> str:
        ready: list[str] = []

        async def later() -> None:
            await asyncio.sleep(0.05)
            ready.append("yes")

        async def check() -> str | None:
            return ready[0] if ready else None

        task = asyncio.ensure_future(later())
        value = await async_wait_until(check, timeout=5, interval=0.01)
        await task
        return value

    assert asyncio.run(scenario()) == "yes"


def test_the_async_twin_fails_at_its_deadline():
    with pytest.raises(AssertionError, match="never"):
        asyncio.run(async_wait_until(lambda: 0, timeout=0.1, interval=0.01, message="never"))
