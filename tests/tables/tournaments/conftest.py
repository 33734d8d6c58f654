"""Work after a commit, for the tournament tests: a test's transaction never commits, so what
follows a writer's commit (round 1 handed to its task after the start, a round's next step, its
alerts) runs only where a test asks for it."""

from __future__ import annotations

from typing import Any

import pytest

from config.celery import app


@pytest.fixture
def after_commit(django_capture_on_commit_callbacks: Any, monkeypatch: pytest.MonkeyPatch):
    """Work after each commit runs inline, as in production minus the broker: the callbacks a
    ``with after_commit():`` block registered run as it ends, and the tasks they hand over run
    at once (eager Celery)."""
    monkeypatch.setitem(app.conf, "task_always_eager", True)
    return lambda: django_capture_on_commit_callbacks(execute=True)
