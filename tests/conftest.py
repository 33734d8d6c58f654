"""Suite-wide settings. Engine tests (tests/rules) need no database.

Hypothesis: no per-example deadline (a shared 2-core machine makes timings noise, and speed is
measured by the benchmarks), and in CI a derandomized run so that a red build is reproducible.
"""

import os
import time
import warnings

import pytest
from hypothesis import settings

settings.register_profile("ginmesa", deadline=None)
settings.register_profile("ci", deadline=None, derandomize=True, print_blob=True)
settings.load_profile("ci" if os.environ.get("CI") else "ginmesa")

FLUSH_TRIES = 5


@pytest.fixture(autouse=True)
def _default_language():
    """After each test, no language stays active in the test thread. Django's LocaleMiddleware
    activates each request's language and never deactivates it (a server's next request
    activates its own), so a test client's English request would otherwise leave English
    behind for the next test's code that runs outside a request (a player created by a helper,
    an email rendered by a task run in the test)."""
    yield
    from django.utils import translation

    translation.deactivate()


EAGER_FOUND = pytest.StashKey[bool]()


# After each test Celery is as eager as it was before it, whatever its fixtures did in which
# order. A fixture that saved and restored task_always_eager by hand, torn down before a
# monkeypatch of the same key in its test (the monkeypatch then "restored" the fixture's True),
# once left Celery eager for the rest of the run: every later test of a real worker waited for
# tasks that had run inline in the test process. Hooks, not a fixture: they see before the first
# fixture is set up and after the last is torn down. A test that leaks is named in a warning.
@pytest.hookimpl(hookwrapper=True, tryfirst=True)
def pytest_runtest_setup(item):
    from config.celery import app

    item.stash[EAGER_FOUND] = bool(app.conf.task_always_eager)
    yield


@pytest.hookimpl(hookwrapper=True, tryfirst=True)
def pytest_runtest_teardown(item, nextitem):
    yield
    from config.celery import app

    found = item.stash.get(EAGER_FOUND, None)
    if found is not None and bool(app.conf.task_always_eager) != found:
        warnings.warn(f"{item.nodeid} left Celery's task_always_eager changed; set back", stacklevel=1)
        app.conf.task_always_eager = found


@pytest.fixture(scope="session", autouse=True)
def flush_outlasting_deadlocks():
    """pytest-django empties the database after each transactional test with ``flush``. The live
    tests' workers and servers outlive a test and may still be writing then (a follow-up task, a
    sweep); when PostgreSQL breaks a deadlock between one of them and the flush by cancelling
    the flush (seen in CI), the flush is run again instead of failing the next test's setup."""
    from django.core.management.base import CommandError
    from django.core.management.commands import flush
    from django.db import OperationalError

    handle = flush.Command.handle

    def retrying(self, **options):
        for attempt in range(1, FLUSH_TRIES + 1):
            try:
                return handle(self, **options)
            except CommandError as error:
                cause = error.__cause__
                deadlock = isinstance(cause, OperationalError) and "deadlock detected" in str(cause)
                if not deadlock or attempt == FLUSH_TRIES:
                    raise
                time.sleep(0.2)

    flush.Command.handle = retrying
    yield
    flush.Command.handle = handle
