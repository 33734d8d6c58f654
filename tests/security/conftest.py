"""Fixtures of the hostile-input suite: the tables suite's clients and its end-of-test check
that every stored deal replays to its stored state."""

from __future__ import annotations

import pytest
from django.core.cache import cache

from tests.tables.conftest import _every_deal_replays  # noqa: F401  (an autouse fixture)
from tests.tables.helpers import make_account_client


@pytest.fixture(autouse=True)
def _fast_passwords(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _clean_cache():
    cache.clear()  # rate limits must not leak between tests
    yield


@pytest.fixture
def alice(db):
    return make_account_client("alice@example.com")


@pytest.fixture
def bob(db):
    return make_account_client("bob@example.com")


@pytest.fixture
def carol(db):
    return make_account_client("carol@example.com")
