"""Fixtures of the hostile-input suite: the tables suite's clients, cache and password settings,
and its end-of-test check that every stored deal replays to its stored state."""

from __future__ import annotations

import pytest

from tests.tables.conftest import (  # noqa: F401  (fixtures, autouse ones included)
    _clean_cache,
    _every_deal_replays,
    _fast_passwords,
    alice,
    bob,
)
from tests.tables.helpers import make_account_client


@pytest.fixture
def carol(db):
    return make_account_client("carol@example.com")
