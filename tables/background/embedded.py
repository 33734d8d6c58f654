"""The in-process scheduler of embedded mode (no REDIS_URL): Celery's place in `make run`.

The in-memory channel layer reaches only the sockets of its own process, so everything that
broadcasts (bot moves, timeouts, alerts) must run in the server's process. Celery is eager
there, and this scheduler supplies what eager Celery cannot: running a task later (a bot's
pause, a deadline's ETA, an email after the player has been away) and the periodic sweeps.
It calls the very same task functions as the Celery workers of production, which call the
same services. A daemon thread: Ctrl-C stops the server and it with it.
"""

from __future__ import annotations

import heapq
import itertools
import logging
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from celery import current_app
from django.db import close_old_connections

from tables.background import registry

log = logging.getLogger(__name__)

WORKERS = 2  # a bot thinking for a second must not hold up a deadline
# Work that must not take the clocks' threads (registry.Work.pool), one thread per pool: a web
# push hanging on a dead push service, a deal review's seconds of CPU; neither delays the other.
POOL_WORKERS = 1


class Scheduler:
    def __init__(self) -> None:
        # (when, tie-breaker, function, arguments, run on the timer thread itself)
        self._heap: list[tuple[float, int, Callable[..., Any], tuple[Any, ...], bool]] = []
        self._order = itertools.count()
        self._wake = threading.Condition()
        self._pool = ThreadPoolExecutor(WORKERS, thread_name_prefix="embedded-task")
        self._pools: dict[str, ThreadPoolExecutor] = {}
        self._busy: set[str] = set()
        self._stopped = False
        self._thread = threading.Thread(target=self._loop, name="embedded-scheduler", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        with self._wake:
            self._stopped = True
            self._wake.notify()
        self._pool.shutdown(wait=False, cancel_futures=True)
        for pool in list(self._pools.values()):
            pool.shutdown(wait=False, cancel_futures=True)

    def call_at(self, when: float, fn: Callable[..., Any], *args: Any) -> None:
        """Run ``fn(*args)`` at ``when`` (time.time()), or at once if that has passed."""
        self._push(when, fn, args, inline=False)

    def call_in(self, pool: str, fn: Callable[..., Any], *args: Any) -> None:
        """Run ``fn(*args)`` now in the one-thread pool named ``pool``: a call to an outside server
        that hangs (a dead push service) or a long computation (a deal review) never takes a
        thread that the sweeps and the clocks need, nor one of another pool."""
        with self._wake:
            executor = self._pools.get(pool)
            if executor is None:
                executor = ThreadPoolExecutor(POOL_WORKERS, thread_name_prefix=f"embedded-{pool}")
                self._pools[pool] = executor
        executor.submit(self._run, fn, args)

    def _push(self, when: float, fn: Callable[..., Any], args: tuple[Any, ...], inline: bool) -> None:
        with self._wake:
            heapq.heappush(self._heap, (when, next(self._order), fn, args, inline))
            self._wake.notify()

    def call_later(self, seconds: float, fn: Callable[..., Any], *args: Any) -> None:
        self.call_at(time.time() + max(0.0, seconds), fn, *args)

    def every(self, seconds: float, fn: Callable[[], Any]) -> None:
        """Run ``fn`` every ``seconds``; a run still going when the next is due is not doubled."""
        name = getattr(fn, "name", None) or f"{fn.__module__}.{fn.__qualname__}"

        def tick() -> None:
            self._push(time.time() + seconds, tick, (), inline=True)
            if name not in self._busy:
                self._busy.add(name)
                self._pool.submit(self._run, fn, (), name)

        self._push(time.time() + seconds, tick, (), inline=True)

    def _loop(self) -> None:
        while True:
            with self._wake:
                while not self._stopped and (not self._heap or self._heap[0][0] > time.time()):
                    timeout = None if not self._heap else self._heap[0][0] - time.time()
                    self._wake.wait(timeout)
                if self._stopped:
                    return
                _, _, fn, args, inline = heapq.heappop(self._heap)
            if inline:
                fn(*args)
            else:
                self._pool.submit(self._run, fn, args)

    def _run(self, fn: Callable[..., Any], args: tuple[Any, ...], name: str | None = None) -> None:
        close_old_connections()
        try:
            fn(*args)
        except Exception:
            log.exception("embedded task %s%r failed", getattr(fn, "__name__", fn), args)
        finally:
            close_old_connections()
            if name is not None:
                self._busy.discard(name)


_current: Scheduler | None = None
_lock = threading.Lock()


def current() -> Scheduler | None:
    """The running scheduler of this process, if this is an embedded-mode server."""
    return _current


def start(periodic: list[tuple[float, Callable[[], Any]]]) -> Scheduler:
    """Start the scheduler and its ``periodic`` (seconds, task) sweeps (idempotent)."""
    global _current
    with _lock:
        if _current is None:
            _current = Scheduler()
            _current.start()
            for seconds, job in periodic:
                _current.every(seconds, job)
            log.info("embedded scheduler started: tasks and sweeps run in this process")
        return _current


def stop() -> None:
    global _current
    with _lock:
        if _current is not None:
            _current.stop()
            _current = None


def periodic_jobs() -> list[tuple[float, Any]]:
    """(seconds, task) of every periodic sweep (tables.background.registry): the same list Celery
    beat runs."""
    return [
        (work.every, current_app.tasks[work.name]) for work in registry.PERIODIC if work.every is not None
    ]
