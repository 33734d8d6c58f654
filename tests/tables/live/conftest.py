"""Fixtures of the live tests that run real Celery workers."""

from __future__ import annotations

from urllib.parse import urlparse

import pytest
import redis
from django.conf import settings

from config import env
from config.celery import app

from . import servers

# A Redis database of these tests' own, so that nothing else's tasks reach their workers: twelve
# after the run's own (12 for CI's 0), so that two runs on one Redis server keep apart.
BROKER_DB_OFFSET = 12


def _broker_url() -> str:
    database = (env.redis_database(settings.REDIS_URL) + BROKER_DB_OFFSET) % 16
    return urlparse(settings.REDIS_URL)._replace(path=f"/{database}", query="").geturl()


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
