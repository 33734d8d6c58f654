"""tables.core.writes: the compiled writes store exactly what the ORM's save and create store."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import DatabaseError, connection, transaction
from django.utils import timezone

from tables.core.writes import CompiledInsert, CompiledUpdate, WriteBatch
from tables.play.models import Deal, Move, Table
from tables.play.services.play import DEAL_PLAY_FIELDS
from tests.tables.helpers import started

pytestmark = pytest.mark.django_db

SAVE_PLAY = CompiledUpdate(Deal, DEAL_PLAY_FIELDS)
BUMP = CompiledUpdate(Table, ("version", "updated_at"))
INSERT_MOVE = CompiledInsert(Move)


def _fields(row) -> dict:
    return {field.attname: getattr(row, field.attname) for field in row._meta.concrete_fields}


def test_a_compiled_update_stores_the_fields_it_names_and_only_those(alice, bob, django_assert_num_queries):
    token, _ = started(alice, bob)
    deal = Table.objects.get(invite_token=token).current_deal
    original = Deal.objects.get(pk=deal.pk)
    deal.snapshot = {**deal.snapshot, "probe": ["a", 1, None]}
    deal.version += 5
    deal.deadline = timezone.now() + dt.timedelta(minutes=3)
    deal.number += 1  # not among the fields: stays as stored
    with django_assert_num_queries(1):
        SAVE_PLAY.save(deal)
    stored = Deal.objects.get(pk=deal.pk)
    assert stored.snapshot["probe"] == ["a", 1, None]
    assert (stored.version, stored.deadline) == (deal.version, deal.deadline)
    assert stored.number == deal.number - 1
    SAVE_PLAY.save(original)  # the move log must still replay to the stored state
    assert _fields(Deal.objects.get(pk=deal.pk)) == _fields(original)


def test_a_compiled_update_sets_auto_now_fields_like_save(alice, bob):
    token, _ = started(alice, bob)
    table = Table.objects.get(invite_token=token)
    before = table.updated_at
    table.version += 1
    BUMP.save(table)
    stored = Table.objects.get(pk=table.pk)
    assert stored.version == table.version and stored.updated_at == table.updated_at > before


def test_a_compiled_update_of_a_missing_row_fails_like_save(alice, bob):
    token, _ = started(alice, bob)
    table = Table.objects.get(invite_token=token)
    table.pk = table.pk + 10_000
    with pytest.raises(DatabaseError, match="did not affect any rows"):
        BUMP.save(table)


def test_a_compiled_insert_stores_what_create_stores(alice, bob, django_assert_num_queries):
    token, _ = started(alice, bob)
    table = Table.objects.get(invite_token=token)
    deal, player = table.current_deal, table.seat0
    values = {"deal": deal, "seat": 0, "action": "draw_stock", "card": "QH", "table_version": 9}
    with django_assert_num_queries(1):
        move = INSERT_MOVE.create(seq=1, actor=player, client_move_id="c-1", **values)
    expected = Move.objects.create(seq=2, actor=player, **values)
    stored = Move.objects.get(pk=move.pk)
    assert _fields(stored) == _fields(move)
    assert stored.source == expected.source and stored.client_move_id == "c-1"
    assert expected.client_move_id is None and stored.created_at <= expected.created_at
    assert not move._state.adding and move._state.db == "default"
    Move.objects.filter(pk__in=[move.pk, expected.pk]).delete()  # the log must still replay


def test_a_batch_stores_what_its_writes_store_in_one_statement_on_postgresql(
    alice, bob, django_assert_num_queries
):
    token, _ = started(alice, bob)
    table = Table.objects.get(invite_token=token)
    deal = table.current_deal
    deal.snapshot = {**deal.snapshot, "probe": [1]}
    deal.version += 1
    table.version += 1
    batch = WriteBatch()
    move = batch.insert(
        INSERT_MOVE, deal=deal, seq=1, seat=0, action="draw_stock", card="QH", table_version=9
    )
    batch.update(SAVE_PLAY, deal)
    batch.update(BUMP, table)
    assert move.pk is None  # nothing is sent before run()
    with django_assert_num_queries(1 if connection.vendor == "postgresql" else 3):
        batch.run()
    assert Move.objects.get(pk=move.pk).card == "QH" and not move._state.adding
    assert Deal.objects.get(pk=deal.pk).snapshot["probe"] == [1]
    assert Table.objects.get(pk=table.pk).version == table.version
    Move.objects.filter(pk=move.pk).delete()  # the log must still replay
    deal.snapshot.pop("probe")
    deal.version -= 1
    SAVE_PLAY.save(deal)


def test_a_batch_whose_update_misses_its_row_fails_and_writes_nothing(alice, bob):
    token, _ = started(alice, bob)
    table = Table.objects.get(invite_token=token)
    moves_before = Move.objects.count()
    table.pk += 10_000
    batch = WriteBatch()
    batch.insert(
        INSERT_MOVE, deal=table.current_deal, seq=1, seat=0, action="draw_stock", card="", table_version=9
    )
    batch.update(BUMP, table)
    with pytest.raises(DatabaseError, match="did not affect any rows"), transaction.atomic():
        batch.run()
    assert Move.objects.count() == moves_before


def test_a_batch_refuses_a_second_update_of_the_same_row(alice, bob):
    token, _ = started(alice, bob)
    table = Table.objects.get(invite_token=token)
    batch = WriteBatch()
    batch.update(BUMP, table)
    with pytest.raises(ValueError, match="already updated"):
        batch.update(BUMP, table)
