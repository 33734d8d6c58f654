"""config.postgresql: the pool lends a live connection without a round trip, and never lends one
that the server has ended."""

from __future__ import annotations

import select

import psycopg
import pytest
from django.conf import settings
from django.db import connection
from psycopg_pool import ConnectionPool

from config.postgresql.base import DatabaseWrapper, lend_check

pytestmark = pytest.mark.skipif(
    settings.DATABASES["default"]["ENGINE"] != "config.postgresql",
    reason="needs PostgreSQL (a PostgreSQL DATABASE_URL, as .ci/run sets)",
)


def _connect() -> psycopg.Connection:
    params = connection.get_connection_params()
    params.pop("cursor_factory", None)
    return psycopg.connect(**params, autocommit=True)


@pytest.fixture
def round_trips(monkeypatch):
    """How often lend_check fell back to the round-trip check."""
    calls: list[psycopg.Connection] = []
    real = ConnectionPool.check_connection
    monkeypatch.setattr(ConnectionPool, "check_connection", lambda conn: (calls.append(conn), real(conn)))
    return calls


def test_a_live_idle_connection_is_lent_without_a_round_trip(round_trips):
    with _connect() as conn:
        conn.execute("select 1").fetchone()
        lend_check(conn)
        assert round_trips == []
        assert conn.execute("select 2").fetchone() == (2,)


def test_a_connection_the_server_ended_is_refused(round_trips):
    with _connect() as victim, _connect() as admin:
        pid = victim.info.backend_pid
        assert admin.execute("select pg_terminate_backend(%s, 5000)", [pid]).fetchone() == (True,)
        with pytest.raises(psycopg.OperationalError):
            lend_check(victim)
        assert round_trips == [victim]


def test_a_closed_connection_is_refused():
    conn = _connect()
    conn.close()
    with pytest.raises(psycopg.OperationalError):
        lend_check(conn)


def test_something_harmless_from_the_server_costs_one_round_trip_and_passes(round_trips):
    with _connect() as listener, _connect() as sender:
        listener.execute("listen ginmesa_probe")
        sender.execute("notify ginmesa_probe")
        # the server delivers the notification in its own time: wait until it is on the socket
        assert select.select([listener.fileno()], [], [], 5)[0], "the notification never came"
        lend_check(listener)
        assert round_trips == [listener]
        assert listener.execute("select 3").fetchone() == (3,)


@pytest.mark.django_db
def test_django_gets_a_new_connection_when_the_server_ended_the_pooled_one():
    """A pool of one connection of its own (the suite's pool may be lent out to other threads)."""
    options = {**connection.settings_dict["OPTIONS"], "pool": {"min_size": 1, "max_size": 1, "timeout": 5}}
    wrapper = DatabaseWrapper({**connection.settings_dict, "OPTIONS": options}, alias="lend-check-probe")
    try:
        first = _backend_pid(wrapper)
        wrapper.close()  # back to the pool, which keeps it
        with _connect() as admin:
            assert admin.execute("select pg_terminate_backend(%s, 5000)", [first]).fetchone() == (True,)
        assert wrapper.pool.get_stats()["pool_available"] == 1  # the ended connection is still there
        assert _backend_pid(wrapper) != first  # no error: it was not lent, a new one was
    finally:
        wrapper.close()
        wrapper.close_pool()


def _backend_pid(wrapper: DatabaseWrapper) -> int:
    with wrapper.cursor() as cursor:
        cursor.execute("select pg_backend_pid()")
        return cursor.fetchone()[0]
