"""Fixtures of the live tests that run real Celery workers."""

from __future__ import annotations

import pytest
import redis
from django.conf import settings

from config.celery import app

from . import servers

BROKER_DB = 12  # a Redis database of these tests' own: nothing else's tasks reach their workers


def _broker_url() -> str:
    return settings.REDIS_URL.rsplit("/", 1)[0] + f"/{BROKER_DB}"


@pytest.fixture(scope="module")
def broker():
    """Point this process's Celery producer at the tests' broker database, emptied."""
    url = _broker_url()
    redis.Redis.from_url(url).flushdb()
    saved = app.conf.broker_url
    app.conf.broker_url = url
    app._pool = None  # the producer pools were built for the old URL
    app.amqp._producer_pool = None
    yield url
    app.conf.broker_url = saved
    app._pool = None
    app.amqp._producer_pool = None
    redis.Redis.from_url(url).flushdb()  # a killed worker's unacknowledged ETA must not outlive us


@pytest.fixture(scope="module")
def worker_env(broker, django_db_setup):
    return servers.child_env(DATABASE_URL=servers.database_url(), REDIS_URL=broker, DEBUG="true")


@pytest.fixture(scope="module")
def worker(worker_env, tmp_path_factory):
    """A real Celery worker subprocess on the tests' broker; its log at ``worker.log_path``."""
    log = tmp_path_factory.mktemp("celery") / "worker.log"
    process = servers.celery_worker(worker_env, log)
    process.log_path = log
    yield process
    servers.stop(process)
