"""The embedded scheduler of `make run`: calls to outside servers never hold the clocks' threads."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest

from tables.background import embedded, registry, scheduling
from tables.background.embedded import WORKERS, Scheduler


def test_hanging_outside_calls_leave_the_clocks_threads_free() -> None:
    scheduler = Scheduler()
    scheduler.start()
    release, deadline_played = threading.Event(), threading.Event()
    try:
        for _ in range(WORKERS + 1):  # more hung pushes than the clocks have threads
            scheduler.call_in("push", release.wait, 10)
        scheduler.call_at(time.time(), deadline_played.set)  # a turn's deadline, due now
        assert deadline_played.wait(2)
    finally:
        release.set()
        scheduler.stop()


class _Recorder:
    def __init__(self) -> None:
        self.calls: list[tuple[str, str]] = []

    def call_in(self, pool: str, fn: Any, *args: Any) -> None:
        self.calls.append((pool, fn.name))

    def call_at(self, when: float, fn: Any, *args: Any) -> None:
        self.calls.append(("clocks", fn.name))


def test_a_push_runs_outside_and_a_deadline_with_the_clocks(monkeypatch: pytest.MonkeyPatch) -> None:
    recorder = _Recorder()
    monkeypatch.setattr(embedded, "_current", recorder)
    scheduling.run_task(registry.SEND_PUSH, 1, {"kind": "your_move"}, "table-x")
    scheduling.run_task(registry.EXPIRE_TURN, 1, 2, None)
    assert recorder.calls == [("push", registry.SEND_PUSH.name), ("clocks", registry.EXPIRE_TURN.name)]


def test_a_review_runs_in_a_pool_of_its_own(monkeypatch: pytest.MonkeyPatch) -> None:
    recorder = _Recorder()
    monkeypatch.setattr(embedded, "_current", recorder)
    scheduling.run_task(registry.REVIEW_DEAL, 1)
    scheduling.run_task(registry.SEND_PUSH, 1, {"kind": "your_move"}, "table-x")
    assert recorder.calls == [("reviews", registry.REVIEW_DEAL.name), ("push", registry.SEND_PUSH.name)]


def test_a_hanging_push_never_delays_a_review_nor_a_review_a_deadline() -> None:
    scheduler = Scheduler()
    scheduler.start()
    release, reviewed, deadline_played = threading.Event(), threading.Event(), threading.Event()
    try:
        scheduler.call_in(str(registry.SEND_PUSH.pool), release.wait, 10)  # a dead push service
        scheduler.call_in(str(registry.REVIEW_DEAL.pool), reviewed.set)
        assert reviewed.wait(2)
        scheduler.call_in(str(registry.REVIEW_DEAL.pool), release.wait, 10)  # a long review
        scheduler.call_at(time.time(), deadline_played.set)
        assert deadline_played.wait(2)
    finally:
        release.set()
        scheduler.stop()
