"""Hot writes compiled once: the move row every move inserts and the deal and table rows it
updates, and a batch that sends them to PostgreSQL as one statement.

Measured under load (bench/README.md, "Live load"), the ORM's ``save`` and ``create`` spent
more of the server's time building their SQL than PostgreSQL spent running it. A compiled
write keeps its SQL per database vendor and, each time, only turns the instance's values into
parameters the way ``save`` does (``pre_save`` for auto_now fields, ``get_db_prep_save`` for
JSON and dates). No signals are sent: no code of this project listens to these models' saves.

A move's three writes then still cost three round trips, each a wake-up of PostgreSQL and of the
serving thread: a WriteBatch sends them as one statement of data-modifying WITH clauses (which
PostgreSQL runs exactly once each, all on the statement's snapshot: fine for rows of different
tables, or new rows). Other databases get them one by one, in order.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Generic, TypeVar, cast

from django.db import DEFAULT_DB_ALIAS, DatabaseError, connections
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.backends.utils import CursorWrapper
from django.db.models import Field, Model

M = TypeVar("M", bound=Model)


def _connection() -> BaseDatabaseWrapper:
    return connections[DEFAULT_DB_ALIAS]


class CompiledUpdate:
    """``instance.save(update_fields=fields)`` for one model and one list of fields."""

    def __init__(self, model: type[Model], fields: Sequence[str]):
        self.model = model
        self.fields: list[Field[Any, Any]] = [
            cast("Field[Any, Any]", model._meta.get_field(name))
            for name in fields  # concrete ones
        ]
        self._sql: dict[str, str] = {}

    def sql(self, connection: BaseDatabaseWrapper) -> str:
        if connection.vendor not in self._sql:
            quote = connection.ops.quote_name
            assignments = ", ".join(f"{quote(field.column)} = %s" for field in self.fields)
            self._sql[connection.vendor] = (
                f"UPDATE {quote(self.model._meta.db_table)} SET {assignments} "
                f"WHERE {quote(self.model._meta.pk.column)} = %s"
            )
        return self._sql[connection.vendor]

    def params(self, instance: Model, connection: BaseDatabaseWrapper) -> list[Any]:
        values = [
            field.get_db_prep_save(field.pre_save(instance, False), connection) for field in self.fields
        ]
        return [*values, instance.pk]

    def save(self, instance: Model) -> None:
        batch = WriteBatch()
        batch.update(self, instance)
        batch.run()


def _check_updated(rowcount: int) -> None:
    if rowcount != 1:  # as save(update_fields=...) does
        raise DatabaseError("Save with update_fields did not affect any rows.")


class CompiledInsert(Generic[M]):
    """``Model.objects.create(**values)`` for one model whose primary key the database assigns."""

    def __init__(self, model: type[M]):
        self.model = model
        self.fields: list[Field[Any, Any]] = [
            field for field in model._meta.concrete_fields if not field.primary_key
        ]
        self._sql: dict[str, str] = {}

    def sql(self, connection: BaseDatabaseWrapper) -> str:
        if connection.vendor not in self._sql:
            quote = connection.ops.quote_name
            columns = ", ".join(quote(field.column) for field in self.fields)
            marks = ", ".join("%s" for _ in self.fields)
            returning = ""
            if connection.features.can_return_columns_from_insert:
                returning = f" RETURNING {quote(self.model._meta.pk.column)}"
            self._sql[connection.vendor] = (
                f"INSERT INTO {quote(self.model._meta.db_table)} ({columns}) VALUES ({marks}){returning}"
            )
        return self._sql[connection.vendor]

    def prepare(self, connection: BaseDatabaseWrapper, **values: Any) -> tuple[M, list[Any]]:
        """The new instance (its key still unset) and the parameters of its row."""
        instance = self.model(**values)
        params = [field.get_db_prep_save(field.pre_save(instance, True), connection) for field in self.fields]
        return instance, params

    def create(self, **values: Any) -> M:
        batch = WriteBatch()
        instance = batch.insert(self, **values)
        batch.run()
        return instance


def _inserted(instance: Model, pk: Any) -> None:
    instance.pk = pk
    instance._state.adding = False
    instance._state.db = DEFAULT_DB_ALIAS


class WriteBatch:
    """Compiled writes queued in order and sent by ``run()``: one statement on PostgreSQL.
    An inserted instance gets its key when the batch runs. Each row is updated at most once
    (in one PostgreSQL statement a second update of a row would not see the first)."""

    def __init__(self) -> None:
        self.connection = _connection()
        self.writes: list[tuple[CompiledInsert[Any] | CompiledUpdate, Model, list[Any]]] = []

    def insert(self, compiled: CompiledInsert[M], **values: Any) -> M:
        instance, params = compiled.prepare(self.connection, **values)
        self.writes.append((compiled, instance, params))
        return instance

    def update(self, compiled: CompiledUpdate, instance: Model) -> None:
        if any(
            isinstance(queued, CompiledUpdate) and queued.model is compiled.model and row.pk == instance.pk
            for queued, row, _ in self.writes
        ):
            raise ValueError(f"{compiled.model.__name__} {instance.pk} is already updated in this batch")
        self.writes.append((compiled, instance, compiled.params(instance, self.connection)))

    def run(self) -> None:
        writes, self.writes = self.writes, []
        with self.connection.cursor() as cursor:
            if self.connection.vendor == "postgresql" and len(writes) > 1:
                cursor.execute(
                    self._combined_sql(writes), [value for *_, params in writes for value in params]
                )
                results = cursor.fetchone()
            else:
                results = [self._one(cursor, compiled, params) for compiled, _, params in writes]
        for (compiled, instance, _), result in zip(writes, results, strict=True):
            if isinstance(compiled, CompiledInsert):
                _inserted(instance, result)
            else:
                _check_updated(result)

    def _one(
        self, cursor: CursorWrapper, compiled: CompiledInsert[Any] | CompiledUpdate, params: list[Any]
    ) -> Any:
        cursor.execute(compiled.sql(self.connection), params)
        if isinstance(compiled, CompiledUpdate):
            return cursor.rowcount
        return (
            cursor.fetchone()[0]
            if self.connection.features.can_return_columns_from_insert
            else cursor.lastrowid
        )

    def _combined_sql(
        self, writes: list[tuple[CompiledInsert[Any] | CompiledUpdate, Model, list[Any]]]
    ) -> str:
        """WITH w0 AS (INSERT ... RETURNING id), w1 AS (UPDATE ... RETURNING 1) SELECT the new
        key of each insert and the row count of each update, in order."""
        shape = tuple(compiled for compiled, *_ in writes)
        sql = _COMBINED.get(shape)
        if sql is None:
            clauses, results = [], []
            for number, compiled in enumerate(shape):
                if isinstance(compiled, CompiledUpdate):
                    clauses.append(f"w{number} AS ({compiled.sql(self.connection)} RETURNING 1)")
                    results.append(f"(SELECT count(*) FROM w{number})")
                else:
                    key = self.connection.ops.quote_name(compiled.model._meta.pk.column)
                    clauses.append(f"w{number} AS ({compiled.sql(self.connection)})")
                    results.append(f"(SELECT {key} FROM w{number})")
            sql = _COMBINED[shape] = f"WITH {', '.join(clauses)} SELECT {', '.join(results)}"
        return sql


# PostgreSQL's statement for each sequence of compiled writes a batch has run.
_COMBINED: dict[tuple[CompiledInsert[Any] | CompiledUpdate, ...], str] = {}
