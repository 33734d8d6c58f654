"""Asking for reviews is metered (tables.reviews.services): who may ask, the limits per asker and
per address, the backlog's cap, the players' own requests first, lost reviews marked failed, and
the reviews' queue kept away from the clocks and the bots (README, "Production")."""

from __future__ import annotations

import datetime as dt
import re
import threading
from pathlib import Path

import pytest
from django.db import connection
from django.utils import timezone

from config.celery import app
from tables.background import registry, scheduling
from tables.play.models import Match
from tables.reviews import services as reviews
from tables.reviews.models import DealReview
from tests.tables.helpers import ApiClient, make_account_client, open_table, play_deal, started

from .test_reviews import CHEAP, needs_row_locks, resign

pytestmark = pytest.mark.django_db
README = Path(__file__).resolve().parents[3] / "README.md"


@pytest.fixture
def handed(monkeypatch) -> list[int]:
    """No worker: the ids handed to the workers, the reviews left pending as behind a busy queue."""
    ids: list[int] = []
    monkeypatch.setattr(scheduling, "schedule_review", ids.append)
    monkeypatch.setattr(reviews, "REVIEW_SETTINGS", CHEAP)
    return ids


def finished_public_match(owner: ApiClient, other: ApiClient) -> int:
    """A public match over after one played deal: its id (two reviews to ask, one per seat)."""
    owner.received, other.received = [], []  # a previous match's cards are not this deal's secrets
    token, players = started(owner, other, target=100, visibility="public")
    play_deal(token, players)
    resign(owner, token)
    return Match.objects.get(table__invite_token=token).pk


def path_of(match_id: int) -> str:
    return f"/matches/{match_id}/deals/1/review"


def reviews_now() -> list[tuple]:
    return list(
        DealReview.objects.order_by("pk").values_list("pk", "deal_id", "seat", "status", "created_at")
    )


def assert_refused(response, status: int, error: str, retry_after: int | None = None) -> None:
    assert response.status_code == status, response.content
    body = response.json()
    assert body["error"] == error and body["detail"]
    if retry_after is not None:
        assert body["retry_after"] == retry_after
        assert response["Retry-After"] == str(retry_after)


@pytest.mark.slow  # a whole deal reviewed, 2 to 3 s
def test_a_guest_asks_only_at_their_own_table(handed):
    alice, gus = make_account_client("alice@example.com"), ApiClient(name="Gus")
    match_id = finished_public_match(alice, gus)  # gus, a guest, played it
    stranger = ApiClient()
    open_table(stranger, name="Stranger")  # a guest, with a seat at another table
    assert_refused(stranger.post(path_of(match_id)), 403, "forbidden")
    assert_refused(ApiClient().post(path_of(match_id)), 401, "not_authenticated")
    assert not DealReview.objects.exists() and not handed
    assert stranger.get(path_of(match_id)).status_code == 200  # reading is still anyone's
    answer = gus.ok("post", path_of(match_id), status=202)
    assert [review["status"] for review in answer["reviews"]] == ["pending", "pending"]
    assert DealReview.objects.filter(for_players=True).count() == 2 and len(handed) == 2


@pytest.mark.slow  # many reviews asked, some 3 s
def test_the_asker_and_address_limits_answer_429_with_retry_after_and_change_nothing(handed, monkeypatch):
    monkeypatch.setattr(reviews, "ASKER_LIMIT", reviews.Limit(in_flight=2, per_day=3))
    monkeypatch.setattr(reviews, "ADDRESS_LIMIT", reviews.Limit(in_flight=2, per_day=100))
    alice, bob = make_account_client("alice@example.com"), make_account_client("bob@example.com")
    first, second = finished_public_match(alice, bob), finished_public_match(bob, alice)
    carol, dave = make_account_client("carol@example.com"), make_account_client("dave@example.com")
    carol.ok("post", path_of(first), status=202)
    before = reviews_now()
    assert_refused(carol.post(path_of(second)), 429, "rate_limited", reviews.RETRY_IN_FLIGHT_SECONDS)
    assert carol.ok("post", path_of(first), status=202)  # asking again for the same costs nothing
    # the same address (the test client's) as carol's two reviews in flight
    assert_refused(dave.post(path_of(second)), 429, "rate_limited", reviews.RETRY_IN_FLIGHT_SECONDS)
    assert reviews_now() == before and len(handed) == 2
    DealReview.objects.update(status=DealReview.Status.DONE)  # computed: none in flight now
    refused = carol.post(path_of(second))  # 2 asked today + 2 > 3 a day
    assert_refused(refused, 429, "rate_limited")
    assert 86_000 < refused.json()["retry_after"] <= 86_400
    assert DealReview.objects.count() == 2
    dave.ok("post", path_of(second), status=202)


@pytest.mark.slow  # many reviews computed, 2 to 4 s
def test_the_backlog_has_a_cap_and_the_players_own_requests_a_backlog_of_their_own(handed, monkeypatch):
    monkeypatch.setattr(reviews, "BACKLOG_LIMIT", 2)
    alice, bob = make_account_client("alice@example.com"), make_account_client("bob@example.com")
    first, second = finished_public_match(alice, bob), finished_public_match(bob, alice)
    make_account_client("carol@example.com").ok("post", path_of(first), status=202)
    before = reviews_now()
    busy = make_account_client("dave@example.com").post(path_of(second))
    assert_refused(busy, 429, "rate_limited", reviews.RETRY_BUSY_SECONDS)
    assert "busy" in busy.json()["detail"] and reviews_now() == before
    answer = alice.ok("post", path_of(second), status=202)  # her own match: not behind strangers
    assert [review["status"] for review in answer["reviews"]] == ["pending", "pending"]


@pytest.mark.slow  # reviews computed, 2 to 3 s
def test_the_players_own_requests_are_computed_first(handed):
    alice, bob = make_account_client("alice@example.com"), make_account_client("bob@example.com")
    first, second = finished_public_match(alice, bob), finished_public_match(bob, alice)
    make_account_client("carol@example.com").ok("post", path_of(first), status=202)  # asked first
    bob.ok("post", path_of(second), status=202)
    own = set(DealReview.objects.filter(deal__match_id=second).values_list("pk", flat=True))
    order: list[int] = []
    for _ in range(4):
        assert reviews.run_next_review() == "done"
        done = DealReview.objects.filter(status=DealReview.Status.DONE).exclude(pk__in=order)
        order.append(done.get().pk)
    assert set(order[:2]) == own and set(order[2:]).isdisjoint(own)
    assert reviews.run_next_review() == "nothing to do"


def test_a_review_whose_worker_died_is_failed_and_asked_again_computed_once(handed):
    alice, bob = make_account_client("alice@example.com"), make_account_client("bob@example.com")
    match_id = finished_public_match(alice, bob)
    alice.ok("post", path_of(match_id), status=202)
    long_ago = timezone.now() - dt.timedelta(seconds=reviews.RUNNING_STALE_SECONDS + 1)
    died, waiting = DealReview.objects.order_by("seat")
    DealReview.objects.filter(pk=died.pk).update(status=DealReview.Status.RUNNING, started_at=long_ago)
    DealReview.objects.filter(pk=waiting.pk).update(
        created_at=timezone.now() - dt.timedelta(seconds=reviews.STALE_SECONDS + 1)
    )
    answer = alice.ok("get", path_of(match_id))
    assert [review["status"] for review in answer["reviews"]] == ["failed", "failed"]
    assert reviews.run_next_review() == "nothing to do"  # the lost are marked failed, not run
    assert set(DealReview.objects.values_list("status", flat=True)) == {DealReview.Status.FAILED}
    handed.clear()
    alice.ok("post", path_of(match_id), status=202)
    assert sorted(handed) == [died.pk, waiting.pk]
    assert [reviews.run_next_review() for _ in range(3)] == ["done", "done", "nothing to do"]


@needs_row_locks
@pytest.mark.django_db(transaction=True)
def test_two_workers_at_once_never_compute_one_review_twice(handed):
    alice, bob = make_account_client("alice@example.com"), make_account_client("bob@example.com")
    alice.ok("post", path_of(finished_public_match(alice, bob)), status=202)
    barrier, outcomes = threading.Barrier(4), []

    def work() -> None:
        barrier.wait()
        try:
            outcomes.append(reviews.run_next_review())
        finally:
            connection.close()

    threads = [threading.Thread(target=work) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["done", "done", "nothing to do", "nothing to do"]
    assert [row.status for row in DealReview.objects.all()] == [DealReview.Status.DONE] * 2


def test_reviews_have_a_queue_the_clocks_and_bots_worker_never_consumes():
    routes = app.conf.task_routes
    for name in registry.REVIEW_DEAL.names:
        assert routes[name] == {"queue": registry.REVIEWS_QUEUE}
    assert registry.REVIEWS_QUEUE in {queue.name for queue in app.conf.task_queues}
    commands = re.findall(r"`celery -A config worker -Q ([\w,]+)[^`]*`", README.read_text())
    default = next(queues.split(",") for queues in commands if "clocks" in queues.split(","))
    assert registry.DEFAULT_QUEUE in default and registry.REVIEWS_QUEUE not in default
    assert routes.get(registry.PLAY_BOT_TURN.name, {"queue": registry.DEFAULT_QUEUE})["queue"] in default
    assert ["reviews"] in [queues.split(",") for queues in commands]  # and a worker of its own
    assert registry.REVIEW_DEAL.pool not in (None, registry.SEND_PUSH.pool)  # embedded: a pool of its own
