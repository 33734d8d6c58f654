"""A committed move's follow-up (alerts, counts, the deadline's fast path) reaches a real Celery
worker through the batched hand-off (scheduling.FollowUps) and is carried out there."""

from __future__ import annotations

import pytest
import redis
from django.conf import settings

from tables.alerts.notify import turn_occasion
from tables.play.models import Table
from tests.polling import wait_until
from tests.tables.helpers import started, to_play

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

if not settings.REDIS_URL:
    pytest.skip("real Celery needs Redis: set REDIS_URL (.ci/run does)", allow_module_level=True)


def test_a_passed_turn_alerts_the_next_player_through_a_batched_task(alice, bob, broker, worker):
    token, players = started(alice, bob)
    mover, _, state = to_play(token, players)
    version = state["version"]
    for _ in range(2):  # draw, then the best discard: the turn passes
        view = mover.state(token)["deal"]["view"]
        action = next(
            a for a in view["legal_actions"] if a in ("draw_stock", "pass") or a.startswith("discard")
        )
        mover.ok("post", f"/tables/{token}/moves", {"action": action, "expected_version": version})
        version += 1
    table = Table.objects.select_related("current_deal").get(invite_token=token)
    deal = table.current_deal
    waiting = table.seats[deal.to_play]
    key = f":1:alert:{waiting.pk}:{table.pk}:your_move:{turn_occasion(deal)}:site"
    cache = redis.Redis.from_url(broker)  # the worker's cache is the tests' broker database
    wait_until(lambda: cache.exists(key), timeout=10, message="the worker sent the on-site 'your move' alert")
    assert "tables.play.tasks.tables_changed" in worker.log_path.read_text()
