"""tables.core.reads.CompiledRead: the same rows and related objects as the ORM's get(), in one query."""

from __future__ import annotations

import pytest
from django.db import transaction
from django.db.transaction import TransactionManagementError

from tables.accounts import identity
from tables.core.reads import KEY_SAMPLE, CompiledRead
from tables.play import services
from tables.play.models import Table
from tests.tables.helpers import started

pytestmark = pytest.mark.django_db

BY_KEY = CompiledRead(
    lambda pk: Table.objects.select_related("seat0", "seat1", "current_deal__match").filter(pk=pk),
    sample=KEY_SAMPLE,
)
LOCKING = CompiledRead(lambda token: Table.objects.select_for_update().filter(invite_token=token))


def _fields(row) -> dict:
    return {field.attname: getattr(row, field.attname) for field in row._meta.concrete_fields}


def test_a_compiled_read_loads_what_the_orm_loads_with_its_related_rows(
    alice, bob, django_assert_num_queries
):
    token, _ = started(alice, bob)
    expected = Table.objects.select_related("seat0", "seat1", "current_deal__match").get(invite_token=token)
    BY_KEY.get(expected.pk)  # compiled on first use
    with django_assert_num_queries(1):
        row = BY_KEY.get(expected.pk)
        seats, deal, match = row.seats, row.current_deal, row.current_deal.match
    assert _fields(row) == _fields(expected)
    assert [_fields(seat) for seat in seats] == [_fields(seat) for seat in expected.seats]
    assert _fields(deal) == _fields(expected.current_deal)
    assert _fields(match) == _fields(expected.current_deal.match)
    assert not row._state.adding and row._state.db == "default"


def test_a_null_relation_stays_none_without_a_query(alice, django_assert_num_queries):
    owner = identity.player_for_user(alice.user)
    table = services.create_table(owner)
    BY_KEY.get(table.pk)
    with django_assert_num_queries(1):
        row = BY_KEY.get(table.pk)
        assert row.current_deal is None and row.seat1 is None and row.seat0.pk == owner.pk


def test_a_missing_row_raises_does_not_exist_each_time():
    for _ in range(2):
        with pytest.raises(Table.DoesNotExist):
            BY_KEY.get(10**9)


@pytest.mark.django_db(transaction=True)  # autocommit outside the atomic block, as in production
def test_a_locking_read_needs_a_transaction(alice):
    table = services.create_table(identity.player_for_user(alice.user))
    with transaction.atomic():
        assert LOCKING.get(table.invite_token).pk == table.pk
    with pytest.raises(TransactionManagementError):
        LOCKING.get(table.invite_token)


def test_a_read_of_two_values_is_refused():
    read = CompiledRead(lambda token: Table.objects.filter(invite_token=token, owner__display_name=token))
    with pytest.raises(ValueError, match="exactly one"):
        read.get("abc")
