"""Hot writes compiled once: the move row every move inserts and the deal and table rows it
updates.

Measured under load (bench/README.md, "Live load"), the ORM's ``save`` and ``create`` spent
more of the server's time building their SQL than PostgreSQL spent running it. A compiled
write keeps its SQL per database vendor and, each time, only turns the instance's values into
parameters the way ``save`` does (``pre_save`` for auto_now fields, ``get_db_prep_save`` for
JSON and dates). No signals are sent: no code of this project listens to these models' saves.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import DEFAULT_DB_ALIAS, DatabaseError, connections
from django.db.models import Field, Model


def _connection():
    return connections[DEFAULT_DB_ALIAS]


class CompiledUpdate:
    """``instance.save(update_fields=fields)`` for one model and one list of fields."""

    def __init__(self, model: type[Model], fields: Sequence[str]):
        self.model = model
        self.fields: list[Field] = [model._meta.get_field(name) for name in fields]
        self._sql: dict[str, str] = {}

    def sql(self, connection) -> str:
        if connection.vendor not in self._sql:
            quote = connection.ops.quote_name
            assignments = ", ".join(f"{quote(field.column)} = %s" for field in self.fields)
            self._sql[connection.vendor] = (
                f"UPDATE {quote(self.model._meta.db_table)} SET {assignments} "
                f"WHERE {quote(self.model._meta.pk.column)} = %s"
            )
        return self._sql[connection.vendor]

    def save(self, instance: Model) -> None:
        connection = _connection()
        values = [
            field.get_db_prep_save(field.pre_save(instance, False), connection) for field in self.fields
        ]
        with connection.cursor() as cursor:
            cursor.execute(self.sql(connection), [*values, instance.pk])
            if cursor.rowcount != 1:  # as save(update_fields=...) does
                raise DatabaseError("Save with update_fields did not affect any rows.")


class CompiledInsert:
    """``Model.objects.create(**values)`` for one model whose primary key the database assigns."""

    def __init__(self, model: type[Model]):
        self.model = model
        self.fields: list[Field] = [field for field in model._meta.concrete_fields if not field.primary_key]
        self._sql: dict[str, str] = {}

    def sql(self, connection) -> str:
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

    def create(self, **values: Any) -> Model:
        instance = self.model(**values)
        connection = _connection()
        params = [field.get_db_prep_save(field.pre_save(instance, True), connection) for field in self.fields]
        with connection.cursor() as cursor:
            cursor.execute(self.sql(connection), params)
            if connection.features.can_return_columns_from_insert:
                instance.pk = cursor.fetchone()[0]
            else:
                instance.pk = cursor.lastrowid
        instance._state.adding = False
        instance._state.db = DEFAULT_DB_ALIAS
        return instance
