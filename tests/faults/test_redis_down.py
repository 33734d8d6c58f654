"""Redis down (cache, channel layer and Celery broker all pointed at a port where nothing
listens): moves still commit and answer at once, nothing is half-applied, the state reads
fine, and chat stays usable (its rate limit fails open rather than answering 500)."""

from __future__ import annotations

import time

import pytest
from django.core.cache import caches

from config.celery import app
from tables.play.models import ChatMessage, Move, Table
from tests.tables.helpers import started, to_play

pytestmark = pytest.mark.django_db

DEAD_REDIS = "redis://127.0.0.1:6398/0"  # nothing listens here


@pytest.fixture
def redis_down(settings):
    settings.CACHES = {"default": {"BACKEND": "config.cache.ReusingRedisCache", "LOCATION": DEAD_REDIS}}
    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "config.channel_layer.BatchingPubSubChannelLayer",
            "CONFIG": {"hosts": [DEAD_REDIS]},
        }
    }
    saved = app.conf.broker_url, app.conf.task_always_eager
    app.conf.broker_url, app.conf.task_always_eager = DEAD_REDIS, False
    app._pool = None
    yield
    app.conf.broker_url, app.conf.task_always_eager = saved
    app._pool = None
    for alias in caches:
        caches[alias].close()


def test_moves_commit_and_chat_works_while_redis_is_down(alice, bob, redis_down) -> None:
    token, players = started(alice, bob)
    for _ in range(4):
        mover, _, state = to_play(token, players)
        move = {"action": state["deal"]["view"]["legal_actions"][0], "expected_version": state["version"]}
        began = time.monotonic()
        reply = mover.ok("post", f"/tables/{token}/moves", move)
        assert time.monotonic() - began < 10, "a down broker must not hold a move for long"
        assert reply["applied"] and reply["state"]["version"] == state["version"] + 1
    assert Move.objects.count() == 4 and Table.objects.get(invite_token=token).version == state["version"] + 1
    posted = alice.request("post", f"/tables/{token}/chat", {"text": "still here?"})
    assert posted.status_code == 201, posted.content[:300]
    assert ChatMessage.objects.get().text == "still here?"
