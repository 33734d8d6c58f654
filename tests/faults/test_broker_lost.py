"""A Celery worker holding a reserved, unacknowledged message (a task with an ETA) when Redis
dies survives the loss and works again once Redis is back: it reconnects and runs the next
task. Celery 5.7.0's worker exited here ("Unrecoverable error": restoring the unacked message
on a connection it had already collected raised AttributeError), which left every clock to a
worker that no longer existed; config.celery.BrokerLossConsumer keeps it alive."""

from __future__ import annotations

import signal

import pytest
from celery import Celery
from django.conf import settings

from tests.tables.live import servers

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.faults,
    pytest.mark.skipif(not settings.REDIS_URL, reason="needs redis-server and REDIS_URL (.ci/run sets it)"),
]
SWEEP = "tables.play.tasks.sweep_overdue"  # harmless: plays the overdue turns there are (none)


def sender(url: str) -> Celery:
    """An app that sends to ``url`` only: never the current app, which the project's shared
    tasks would then follow to this private broker in the later tests."""
    return Celery(broker=url, set_as_current=False)


def test_a_worker_holding_a_reserved_task_survives_losing_redis(django_db_setup, tmp_path) -> None:
    port = servers.free_port()
    url = f"redis://127.0.0.1:{port}/0"
    redis = servers.redis_server(port, tmp_path / "redis.log")
    log = tmp_path / "worker.log"
    worker = servers.celery_worker(servers.child_env(DATABASE_URL=servers.database_url(), REDIS_URL=url), log)
    restarted = []
    try:
        held = sender(url).send_task(SWEEP, countdown=120, queue="clocks")  # reserved, unacked until then
        servers.wait_for_text(log, f"{held.id}] received", worker)
        servers.stop(redis, signal.SIGKILL)
        servers.wait_for_text(log, "Connection to broker lost", worker)
        restarted.append(servers.redis_server(port, tmp_path / "redis-2.log"))
        # it runs only once the worker has reconnected: a new sending pool, the first one's died
        after = sender(url).send_task(SWEEP, queue="clocks")
        servers.wait_for_text(log, f"{after.id}] succeeded", worker)
        assert "Unrecoverable error" not in log.read_text()
    finally:
        for process in (worker, redis, *restarted):
            servers.stop(process)
