"""Turn clocks with real Celery: a worker subprocess against Redis and the test database.

The deadline lives on the deal; the ETA task is the fast path and the beat-driven sweeper the
guarantee. Both go through services.apply_timeout with the expected version, so duplicates,
stale tasks and a move racing the clock apply exactly one change.
"""

from __future__ import annotations

import time

import pytest
from django.conf import settings
from django.utils import timezone

from tables.background import registry, scheduling
from tables.play.models import Match, Move, Table
from tests.polling import wait_until
from tests.tables.helpers import started, to_play

from . import servers
from .clocks import timeout_moves, turn_due_in, wait_for_version

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.slow,
    pytest.mark.skipif(
        not settings.REDIS_URL, reason="real Celery needs Redis: set REDIS_URL (.ci/run does)"
    ),
]


def test_a_deadline_applies_the_fallback_move_exactly_once(alice, bob, worker):
    token, _ = started(alice, bob)
    table, deal, deadline = turn_due_in(token, 2)
    seat = deal.to_play
    done = servers.tasks_done(worker.log_path, registry.EXPIRE_TURN.name)
    for _ in range(3):  # duplicated fast paths: the expected version makes all but one stale
        assert scheduling.schedule_deadline(deal.pk, table.version, deadline)
    wait_for_version(table, table.version + 1)
    wait_until(
        lambda: servers.tasks_done(worker.log_path, registry.EXPIRE_TURN.name) >= done + 3,
        message="the three ETA tasks ran",
    )
    assert Table.objects.get(pk=table.pk).version == table.version + 1
    moves = timeout_moves(deal)
    assert moves and {move.seat for move in moves} == {seat}
    assert [move.action.split()[0] for move in moves] in (["pass"], ["draw_stock", "discard"])
    assert Match.objects.get(pk=deal.match_id).timeouts_in_row[seat] == 1
    lateness = (moves[0].created_at - deadline).total_seconds()
    assert 0 <= lateness < 1.0, f"applied {lateness:.3f} s after the deadline"


@pytest.mark.parametrize("offset", [-0.03, 0.0, 0.03])
def test_a_move_in_the_same_instant_as_the_timeout_applies_exactly_one(alice, bob, worker, offset):
    # classic opens with the offer round, where one action (pass) ends the turn: after it the
    # clock is the other seat's, so the move and the timeout really compete for one change.
    token, players = started(alice, bob, ruleset="classic")
    mover, _, state = to_play(token, players)
    table, deal, deadline = turn_due_in(token, 1.5)
    done = servers.tasks_done(worker.log_path, registry.EXPIRE_TURN.name)
    scheduling.schedule_deadline(deal.pk, table.version, deadline)
    # what is tested: the move sent at the deadline (give or take 30 ms), so a wait for the clock
    time.sleep(max(0.0, (deadline - timezone.now()).total_seconds() + offset))
    assert "pass" in state["deal"]["view"]["legal_actions"]
    response = mover.post(f"/tables/{token}/moves", {"action": "pass", "expected_version": table.version})
    assert response.status_code in (200, 409), response.content
    wait_until(
        lambda: servers.tasks_done(worker.log_path, registry.EXPIRE_TURN.name) > done,
        message="the ETA task ran (or found the move had won)",
    )
    sources = set(Move.objects.filter(deal=deal).values_list("source", flat=True))
    assert Table.objects.get(pk=table.pk).version == table.version + 1
    if response.status_code == 200:
        assert sources == {"player"}
    else:
        assert sources == {"timeout"}
