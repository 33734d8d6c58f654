"""Fixtures for the tables suite: clients for accounts, guests and spectators, the check that
every deal the suite stored replays through rules.replay to the stored state, and the alert
channels recorded instead of sent (pushes, later, site)."""

from __future__ import annotations

import pytest
from django.core.cache import cache

from tables.alerts import notify, push
from tables.background import registry, scheduling
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


@pytest.fixture
def pushes(monkeypatch, settings):
    """Web push set up, with the project's sender mocked: what each player was pushed."""
    settings.VAPID_PUBLIC_KEY, settings.VAPID_PRIVATE_KEY = "public", "private"
    sent = []
    monkeypatch.setattr(
        push, "send_to_player", lambda player, payload, topic: sent.append((player.pk, payload))
    )
    return sent


@pytest.fixture
def later(monkeypatch):
    """Work handed to the background is recorded (a delivery put off, a task), instead of a
    broker or scheduler; a push's task runs at once."""
    calls = []

    def run_task(task, *args, eta=None):
        if task == registry.SEND_PUSH and eta is None:
            push.send_to_player_id(*args)
        else:
            calls.append((task, args, eta))

    monkeypatch.setattr(scheduling, "run_task", run_task)
    return calls


@pytest.fixture
def site(monkeypatch):
    """On-site alerts, recorded instead of published: (player id, message)."""
    messages = []
    monkeypatch.setattr(
        notify.events, "publish_to_player", lambda pid, message: messages.append((pid, message))
    )
    return messages
