"""kill -9 of the Celery worker while it holds 50 turn deadlines: a new worker (with beat) is
started at once, and every deadline is then applied exactly once, none early, each within the
restart gap (kill to the new worker's "ready", measured: a cold Celery boot takes 2-3 s on an idle
machine, 8 s on a loaded one) + the sweep period + 1 s of its deadline."""

from __future__ import annotations

import datetime as dt
import signal
import time

import pytest
import redis
from django.conf import settings
from django.utils import timezone

from tables.accounts.models import Player
from tables.background import registry, scheduling
from tables.play import services
from tables.play.models import Deal, Move, Table
from tests.polling import wait_until
from tests.tables.live import servers
from tests.tables.live.conftest import broker, worker_env  # noqa: F401  (fixtures)

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.faults,
    pytest.mark.skipif(
        not settings.REDIS_URL, reason="real Celery needs Redis: set REDIS_URL (.ci/run does)"
    ),
]

TABLES = 50
FIRST_DEADLINE_SECONDS = 6  # after the kill: the deadlines fall while no worker runs, and after


def fifty_started_tables() -> list[Table]:
    alice = Player.objects.create(display_name="Alice", guest_key="k-alice")
    bob = Player.objects.create(display_name="Bob", guest_key="k-bob")
    tables = []
    for _ in range(TABLES):
        table = services.create_table(alice, turn_seconds=60)
        services.join_table(table.pk, bob)
        tables.append(services.start_match(table.pk, alice).table)
    return tables


def set_deadlines(tables: list[Table], start: dt.datetime) -> dict[int, dt.datetime]:
    """Deadlines spread over 3 s from ``start``, each sent to the broker as an ETA task."""
    deadlines = {}
    for number, table in enumerate(tables):
        deadline = start + dt.timedelta(seconds=3 * number / TABLES)
        Deal.objects.filter(pk=table.current_deal_id).update(deadline=deadline)
        assert scheduling.schedule_deadline(table.current_deal_id, table.version, deadline)
        deadlines[table.pk] = deadline
    return deadlines


def wait_for_empty_queue(broker_url: str, seconds: float = 60) -> None:
    queue = redis.Redis.from_url(broker_url)
    wait_until(
        lambda: not queue.llen("celery"),
        timeout=seconds,
        interval=0.2,
        message="the worker caught up with its queue",
    )


def wait_until_all_moved(tables: list[Table], seconds: float) -> None:
    before = {table.pk: table.version for table in tables}

    def all_moved() -> bool:
        now = dict(Table.objects.filter(pk__in=before).values_list("pk", "version"))
        return all(now[pk] != version for pk, version in before.items())

    wait_until(all_moved, timeout=seconds, interval=0.2, message=f"all {len(tables)} tables timed out")


def test_fifty_deadlines_survive_a_killed_worker(worker_env, tmp_path) -> None:  # noqa: F811
    tables = fifty_started_tables()
    first_log = tmp_path / "first.log"
    first = servers.celery_worker(worker_env, first_log, beat=True)
    wait_for_empty_queue(worker_env["REDIS_URL"])  # the tables' own after-change tasks are done
    deadlines = set_deadlines(tables, timezone.now() + dt.timedelta(seconds=FIRST_DEADLINE_SECONDS))
    servers.wait_for_text(first_log, "tables.play.tasks.expire_turn", first)  # it holds ETA tasks
    servers.stop(first, signal.SIGKILL)
    killed_at = time.monotonic()
    second_log = tmp_path / "second.log"
    second = servers.celery_worker(worker_env, second_log, beat=True)
    restart_gap = time.monotonic() - killed_at
    print(f"restart gap (kill to the new worker's ready): {restart_gap:.1f} s")  # pytest -s shows it
    try:
        wait_until_all_moved(tables, seconds=FIRST_DEADLINE_SECONDS + 3 + restart_gap + 30)
        sweeps = servers.tasks_done(second_log, registry.SWEEP_OVERDUE.name)
        wait_until(  # later sweeps and stale ETA copies find nothing
            lambda: servers.tasks_done(second_log, registry.SWEEP_OVERDUE.name) >= sweeps + 2,
            timeout=3 * settings.SWEEP_SECONDS + 10,
            message="two more sweeps ran",
        )
    finally:
        servers.stop(second)
    allowed = restart_gap + settings.SWEEP_SECONDS + 1
    for table in tables:
        check_applied_once(table, deadlines[table.pk], allowed)


def check_applied_once(table: Table, deadline: dt.datetime, allowed_lateness: float) -> None:
    now = Table.objects.get(pk=table.pk)
    assert now.version == table.version + 1, f"table {table.pk}: {now.version - table.version} changes"
    deal = Deal.objects.get(pk=table.current_deal_id)
    moves = list(Move.objects.filter(deal=deal).order_by("seq"))
    assert moves and all(move.source == Move.Source.TIMEOUT for move in moves)
    assert {move.table_version for move in moves} == {table.version + 1}  # one timeout, one turn
    applied = moves[0].created_at
    assert applied >= deadline, (
        f"table {table.pk}: applied {(deadline - applied).total_seconds():.2f} s early"
    )
    late = (applied - deadline).total_seconds()
    assert late <= allowed_lateness, f"table {table.pk}: {late:.1f} s late, allowed {allowed_lateness:.1f}"
