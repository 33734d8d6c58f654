"""A flood of review requests never stalls a robot or a clock: real Celery workers started as
README's "Production" has them (a `-Q celery,clocks` worker, a `-Q reviews` worker), each of one
process, against PostgreSQL and Redis. While the reviews' worker computes, a robot answers within
its usual time and a live turn times out within its usual lateness."""

from __future__ import annotations

import time

import pytest
from django.conf import settings
from django.db import connection
from django.db.models import Q

from tables.background import registry, scheduling
from tables.play.models import Deal, Match, Table
from tables.reviews.models import DealReview
from tests.polling import wait_until
from tests.tables.helpers import ApiClient, choose_action, make_account_client, open_table, play_deal, started

from . import servers
from .clocks import timeout_moves, turn_due_in

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.slow,
    pytest.mark.skipif(
        not settings.REDIS_URL, reason="real Celery needs Redis: set REDIS_URL (.ci/run does)"
    ),
    pytest.mark.skipif(
        connection.vendor == "sqlite",
        reason="three processes writing at once: run on PostgreSQL (DATABASE_URL)",
    ),
]

# A robot's turn on a live clock is two moves (draw, discard), each after a pause of 1-2 s
# (scheduling.LIVE_BOT_PAUSE_SECONDS) and a few milliseconds of thought; a turn's ETA task fires
# well within 1 s of its deadline (test_timeouts_celery). One review takes about 10 s of CPU:
# any review ahead of them would blow both bounds.
ROBOT_REPLY_SECONDS = 2 * scheduling.LIVE_BOT_PAUSE_SECONDS[1] + 2.0
TIMEOUT_LATENESS_SECONDS = 1.0


@pytest.fixture
def production_workers(worker_env, tmp_path_factory):
    logs = tmp_path_factory.mktemp("production")
    main = servers.celery_worker(worker_env, logs / "main.log", queues="celery,clocks")
    reviewer = servers.celery_worker(worker_env, logs / "reviews.log", queues="reviews")
    main.log_path, reviewer.log_path = logs / "main.log", logs / "reviews.log"
    yield main, reviewer
    servers.stop(reviewer)
    servers.stop(main)


def finished_public_match(owner: ApiClient, other: ApiClient) -> int:
    owner.received, other.received = [], []
    token, players = started(owner, other, target=100, visibility="public")
    play_deal(token, players)
    owner.ok("post", f"/tables/{token}/resign", {"expected_version": owner.state(token)["version"]})
    return Match.objects.get(table__invite_token=token).pk


def flood(askers: list[ApiClient], match_ids: list[int]) -> list[int]:
    """Every asker asks for every deal's review, twice: the statuses answered."""
    paths = [f"/matches/{match_id}/deals/1/review" for match_id in match_ids] * 2
    return [asker.post(path).status_code for asker in askers for path in paths]


def robot_reply_seconds(human: ApiClient, token: str) -> float:
    """Play the human's turn until it passes to the robot; the seconds until it is theirs again."""
    turn = 0
    while True:
        state = human.state(token)
        seat, view = state["you"]["seat"], state["deal"]["view"]
        if view["to_play"] != seat:
            break
        body = {"action": choose_action(view, turn), "expected_version": state["version"]}
        human.ok("post", f"/tables/{token}/moves", body)
        turn += 1

    def human_to_play() -> bool:
        deal = Deal.objects.get(pk=Table.objects.get(invite_token=token).current_deal_id)
        return deal.status != Deal.Status.PLAYING or deal.to_play == seat

    start = time.monotonic()
    wait_until(human_to_play, timeout=60, message="the robot answered")
    return time.monotonic() - start


def test_a_flood_of_reviews_leaves_robots_and_clocks_on_time(production_workers):
    main, reviewer = production_workers
    alice, bob = make_account_client("alice@example.com"), make_account_client("bob@example.com")
    match_ids = [finished_public_match(alice, bob), finished_public_match(bob, alice)]
    robot_table = open_table(alice, turn_seconds=30, ruleset="playgridia")["table"]
    alice.ok("post", f"/tables/{robot_table}/bot", {"level": "tito"})
    alice.ok("post", f"/tables/{robot_table}/start", {})
    usual = robot_reply_seconds(alice, robot_table)
    clock_token, _ = started(
        make_account_client("carol@example.com"), make_account_client("dave@example.com")
    )

    askers = [make_account_client(f"guest{n}@example.com") for n in range(3)]
    statuses = flood(askers, match_ids)
    assert set(statuses) <= {202, 429} and statuses.count(202) >= 2
    wait_until(
        lambda: DealReview.objects.filter(status="running").exists(), 30, message="a worker took a review"
    )

    table, deal, deadline = turn_due_in(clock_token, 3)
    assert scheduling.schedule_deadline(deal.pk, table.version, deadline)
    reply = robot_reply_seconds(alice, robot_table)
    wait_until(lambda: timeout_moves(deal), 30, message="the turn timed out")
    lateness = (timeout_moves(deal)[0].created_at - deadline).total_seconds()
    timed_out_at = timeout_moves(deal)[0].created_at
    # Reviews still waiting or computing, or finished only after the timeout: the flood lasted.
    running = DealReview.objects.filter(
        Q(status__in=("pending", "running")) | Q(finished_at__gt=timed_out_at)
    ).count()
    print(
        f"robot reply {usual:.2f} s alone, {reply:.2f} s in the flood; timeout {lateness:.2f} s late; {running} reviews left"
    )
    assert reply < ROBOT_REPLY_SECONDS, f"the robot answered in {reply:.1f} s (alone: {usual:.1f} s)"
    assert 0 <= lateness < TIMEOUT_LATENESS_SECONDS, f"the turn timed out {lateness:.2f} s late"
    assert running, "the reviews were all done before the timeout: the flood did not last"
    wait_until(lambda: DealReview.objects.filter(status="done").exists(), 90, message="a review was computed")
    received = f"{registry.REVIEW_DEAL.name}["  # "Task <name>[<id>] received" (the banner lists names)
    assert received in reviewer.log_path.read_text()
    assert received not in main.log_path.read_text()
