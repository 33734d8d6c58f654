"""Hot reads compiled once: the table behind every state answer and socket event, and the API
token behind every program's request.

Measured in-process (bench/README.md, "HTTP"), compiling the SQL of a wide select_related query
costs the ORM more than running it. A CompiledRead builds the queryset once per process (and
database vendor: under ASGI each request runs in a thread of its own, so a per-thread cache
would compile every time), keeps its SQL, and then only swaps in the looked-up value, runs it
on the calling thread's connection and turns the row into model instances the way the ORM's
own iterator does. Selects only (a SELECT ... FOR UPDATE
included, inside a transaction as the ORM demands); never a write.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from django.db import DEFAULT_DB_ALIAS, connections
from django.db.models import Model, QuerySet
from django.db.models.query import get_related_populators  # type: ignore[attr-defined]  # private: not in django-stubs 5.2
from django.db.transaction import TransactionManagementError

M = TypeVar("M", bound=Model)

# Values no real lookup uses: they mark where the looked-up value goes among the parameters.
TEXT_SAMPLE = "\x01compiled-read-sample\x01"
KEY_SAMPLE = -7_919_191_919


@dataclass
class _Plan(Generic[M]):
    model: type[M]
    compiler: Any  # its connection only passes through to field converters, which ignore it
    sql: str
    params: tuple[Any, ...]
    slot: int
    locks: bool
    converters: dict[int, Any]
    init_list: list[str]
    fields: slice
    populators: list[Any]


class CompiledRead(Generic[M]):
    """``make(value)`` is the queryset of one row; ``get(value)`` runs it without recompiling."""

    def __init__(self, make: Callable[[Any], QuerySet[M]], sample: Any = TEXT_SAMPLE):
        self.make, self.sample = make, sample
        self.plans: dict[str, _Plan[M]] = {}
        self.lock = threading.Lock()

    def get(self, value: Any) -> M:
        connection = connections[DEFAULT_DB_ALIAS]
        plan = self._plan(connection)
        if plan.locks and connection.get_autocommit():
            raise TransactionManagementError("select_for_update cannot be used outside of a transaction.")
        params = (*plan.params[: plan.slot], value, *plan.params[plan.slot + 1 :])
        with connection.cursor() as cursor:
            cursor.execute(plan.sql, params)
            rows = cursor.fetchmany(2)
        model = plan.model
        if not rows:
            # The plugin keeps DoesNotExist and MultipleObjectsReturned off Model itself; every
            # concrete model, the only kind a compiled read selects, has both.
            raise model.DoesNotExist(f"no {model.__name__} for {value!r}")  # type: ignore[attr-defined]
        if len(rows) > 1:
            raise model.MultipleObjectsReturned(f"several {model.__name__} rows for {value!r}")  # type: ignore[attr-defined]
        [row] = plan.compiler.apply_converters(rows, plan.converters) if plan.converters else rows
        return self._instance(plan, row)

    def _instance(self, plan: _Plan[M], row: tuple[Any, ...]) -> M:
        obj = plan.model.from_db(DEFAULT_DB_ALIAS, plan.init_list, row[plan.fields])
        for populator in plan.populators:
            populator.populate(row, obj)
        return obj

    def _plan(self, connection: Any) -> _Plan[M]:
        plan = self.plans.get(connection.vendor)
        if plan is None:
            with self.lock:
                plan = self.plans.get(connection.vendor) or self._compile(connection)
                self.plans[connection.vendor] = plan
        return plan

    def _compile(self, connection: Any) -> _Plan[M]:
        queryset = self.make(self.sample)
        compiler = queryset.query.get_compiler(using=DEFAULT_DB_ALIAS)
        sql, params = compiler.as_sql()  # also fills compiler.select and klass_info
        if list(params).count(self.sample) != 1:
            raise ValueError("a compiled read takes exactly one looked-up value")
        select, klass_info = compiler.select, compiler.klass_info
        if compiler.has_composite_fields([column[0] for column in select]):
            raise ValueError("a compiled read does not take composite primary keys")
        first, last = klass_info["select_fields"][0], klass_info["select_fields"][-1] + 1
        return _Plan(
            model=klass_info["model"],
            compiler=compiler,
            sql=sql,
            params=tuple(params),
            slot=list(params).index(self.sample),
            locks=bool(queryset.query.select_for_update),
            converters=compiler.get_converters([column[0] for column in select[: compiler.col_count]]),
            init_list=[column[0].target.attname for column in select[first:last]],
            fields=slice(first, last),
            populators=get_related_populators(klass_info, select, DEFAULT_DB_ALIAS),
        )
