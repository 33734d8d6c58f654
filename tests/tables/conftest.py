"""Fixtures for the tables suite: clients for accounts, guests and spectators, and the check
that every deal the suite stored replays through rules.replay to the stored state."""

from __future__ import annotations

import pytest
from django.core.cache import cache

from tables.play.models import Deal

from .helpers import assert_deals_replay, make_account_client


@pytest.fixture(autouse=True)
def _fast_passwords(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _clean_cache():
    cache.clear()  # chat rate limits must not leak between tests
    yield


@pytest.fixture(autouse=True)
def _every_deal_replays(request):
    """After each database test: each stored deal equals rules.replay of its move log."""
    yield
    if "django_db" in request.keywords or "db" in request.fixturenames:
        try:
            deals = list(Deal.objects.all())
        except Exception:  # the test's database is already gone (non-db test)
            return
        assert_deals_replay(deals)


@pytest.fixture
def alice(db):
    return make_account_client("alice@example.com")


@pytest.fixture
def bob(db):
    return make_account_client("bob@example.com")
