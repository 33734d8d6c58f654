"""A worker killed (-9) while it holds a deadline's ETA task: the sweeper, run by Celery beat
in another worker, applies the timeout anyway, exactly once. Its own module: no other worker
of these tests may be running."""

from __future__ import annotations

import signal
import time

import pytest
from django.conf import settings
from django.utils import timezone

from tables.background import registry, scheduling
from tables.play.models import Move, Table
from tests.polling import wait_until
from tests.tables.helpers import started

from . import servers
from .clocks import timeout_moves, turn_due_in, wait_for_version

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.slow,
    pytest.mark.skipif(
        not settings.REDIS_URL, reason="real Celery needs Redis: set REDIS_URL (.ci/run does)"
    ),
]


def moves_since(deal, version: int) -> list[tuple[str, str, str]]:
    later = Move.objects.filter(deal=deal, table_version__gt=version).order_by("seq")
    return [(move.source, move.action, move.created_at.isoformat()) for move in later]


def test_a_worker_killed_before_the_eta_leaves_it_to_the_sweeper(alice, bob, worker_env, tmp_path):
    token, _ = started(alice, bob)
    first_log = tmp_path / "first.log"
    first = servers.celery_worker(worker_env, first_log)
    try:  # the clock is set once the worker is up: a slow start must not let the ETA run early
        table, deal, deadline = turn_due_in(token, 3)
        scheduling.schedule_deadline(deal.pk, table.version, deadline)
        servers.wait_for_text(first_log, "tables.play.tasks.expire_turn[", first)  # it holds the ETA task
    finally:
        servers.stop(first, signal.SIGKILL)
    # what is tested: the deadline passes with no worker alive, so a wait for the clock
    time.sleep(max(0.0, (deadline - timezone.now()).total_seconds()) + 0.5)
    assert Table.objects.get(pk=table.pk).version == table.version, (
        f"the worker is dead, yet the table moved: {moves_since(deal, table.version)}"
    )
    second_log = tmp_path / "second.log"
    second = servers.celery_worker(worker_env, second_log, beat=True)
    try:
        wait_for_version(table, table.version + 1, seconds=20)
        sweeps = servers.tasks_done(second_log, registry.SWEEP_OVERDUE.name)
        wait_until(  # another sweep or two find nothing to do
            lambda: servers.tasks_done(second_log, registry.SWEEP_OVERDUE.name) >= sweeps + 2,
            timeout=3 * settings.SWEEP_SECONDS + 10,
            message="two more sweeps ran",
        )
    finally:
        servers.stop(second)
    assert Table.objects.get(pk=table.pk).version == table.version + 1
    assert {move.seat for move in timeout_moves(deal)} == {deal.to_play}
