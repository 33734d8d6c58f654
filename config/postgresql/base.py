"""Django's PostgreSQL backend, whose pool checks a connection as it lends it without a round trip
to the server when nothing has come from the server since the connection was returned.

Django's own check (CONN_HEALTH_CHECKS with a pool) sends an empty query on every lend: a round
trip for every HTTP request, socket move and task, a seventh of a move's statements. An idle
connection receives nothing unprompted unless the server ends it: a restart or shutdown sends the
termination notice and closes the socket, a crash closes it. So a socket with nothing to read is a
live connection, and one with something to read gets the round-trip check, which reads a harmless
notice and passes, or raises; the pool then discards the connection and lends a new one.
"""

from __future__ import annotations

import select
from collections.abc import Callable
from typing import Any, ClassVar

import psycopg
from django.db.backends.postgresql import base
from psycopg_pool import ConnectionPool


def lend_check(connection: psycopg.Connection) -> None:
    """Raise if ``connection`` must not be lent (the pool's ``check``)."""
    if connection.closed:
        raise psycopg.OperationalError("the connection is closed")
    poll = select.poll()  # not select(): a busy server process has descriptors past 1024
    poll.register(connection.fileno(), select.POLLIN)
    if poll.poll(0):
        ConnectionPool.check_connection(connection)


class DatabaseWrapper(base.DatabaseWrapper):
    # Django's pool parts this class builds on, which django-stubs 5.2 leaves out
    _connection_pools: ClassVar[dict[str, ConnectionPool]]
    _configure_connection: Callable[[psycopg.Connection[Any]], None]

    @property
    def pool(self) -> ConnectionPool | None:
        options = self.settings_dict["OPTIONS"].get("pool")
        if options and self.alias not in self._connection_pools:
            self._connection_pools.setdefault(self.alias, self._new_pool({} if options is True else options))
        pool: ConnectionPool | None = super().pool  # type: ignore[misc]  # not in django-stubs 5.2
        return pool

    def _new_pool(self, options: dict[str, Any]) -> ConnectionPool:
        """The pool Django would make (base.DatabaseWrapper.pool), with lend_check as its check."""
        connect_kwargs = {**self.get_connection_params(), "autocommit": True}  # Django sets it later
        return ConnectionPool(
            kwargs=connect_kwargs,
            open=False,
            configure=self._configure_connection,
            check=lend_check,
            **options,
        )
