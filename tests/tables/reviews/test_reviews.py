"""Deal reviews through the API: who gets which seat's review and when, one review per deal and
seat even when asked twice at once, progress while it is computed, the stored result."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace

import pytest
from django.db import connection
from django.test import Client

from bots.review import REVIEW_SETTINGS, decision_points
from config.celery import app
from tables.play import engine
from tables.play.models import Deal, Match, Table
from tables.reviews import services as reviews
from tables.reviews.models import DealReview
from tests.tables.helpers import ApiClient, cards_in, make_account_client, play_deal, secret_cards, started

CHEAP = replace(REVIEW_SETTINGS, draw_samples=8, discard_samples=6)
needs_row_locks = pytest.mark.skipif(
    connection.vendor == "sqlite",
    reason="SQLite has no row locks or concurrent writers; run on PostgreSQL (DATABASE_URL)",
)


@pytest.fixture(autouse=True)
def _reviews_run_inline(monkeypatch):
    """No Celery worker runs in these tests: a requested review is computed inline, with Redis
    (.ci/run) as without it."""
    monkeypatch.setitem(app.conf, "task_always_eager", True)


@pytest.fixture(autouse=True)
def _cheap_reviews(monkeypatch):
    """A small search budget: these tests check who gets what, bench/review.py the cost."""
    monkeypatch.setattr(reviews, "REVIEW_SETTINGS", CHEAP)


@pytest.fixture
def runs(monkeypatch):
    """Every review actually computed: (deal id, seats)."""
    computed: list[tuple[int, tuple[int, ...]]] = []
    real = reviews.review_deal

    def counted(deal, seats, *args, **kwargs):
        computed.append((deal.deck, tuple(seats)))
        return real(deal, seats, *args, **kwargs)

    monkeypatch.setattr(reviews, "review_deal", counted)
    return computed


def review_path(token: str, deal: int = 1, match: int = 1) -> str:
    return f"/tables/{token}/matches/{match}/deals/{deal}/review"


def finished_first_deal(alice: ApiClient, bob: ApiClient, **options) -> tuple[str, dict[int, ApiClient]]:
    token, players = started(alice, bob, **options)
    play_deal(token, players)
    return token, players


def resign(client: ApiClient, token: str) -> None:
    version = client.state(token)["version"]
    client.ok("post", f"/tables/{token}/resign", {"expected_version": version})


def test_a_running_deal_is_never_reviewed(alice, bob):
    token, players = started(alice, bob)
    for client in players.values():
        assert client.post(review_path(token)).status_code == 409
        assert client.get(review_path(token)).status_code == 409
    assert not DealReview.objects.exists()


@pytest.mark.slow  # deals reviewed, 1 to 2 s
def test_while_the_match_goes_on_a_player_gets_only_their_own_decisions(alice, bob, runs):
    token, _ = finished_first_deal(alice, bob, target=100)
    assert alice.state(token)["status"] == "between_deals"
    seat = alice.state(token)["you"]["seat"]
    answer = alice.ok("post", review_path(token), status=202)
    (review,) = answer["reviews"]
    assert (review["seat"], review["status"]) == (seat, "done")
    decisions = review["result"]["decisions"]
    assert decisions and {decision["seat"] for decision in decisions} == {seat}
    assert review["done"] == review["total"] == len(decisions)
    assert [row["verdict"] for row in answer["thresholds"]] == ["blunder", "mistake", "inaccuracy"]
    # the opponent sees only their own seat (nothing yet), a spectator nothing at all
    assert bob.ok("get", review_path(token))["reviews"] == []
    carol = make_account_client("carol@example.com")
    assert carol.get(review_path(token)).status_code == 403
    assert carol.post(review_path(token)).status_code == 403
    assert runs == [(runs[0][0], (seat,))]
    # what the review names is what the player saw: never a card still in the stock
    deal = engine.load_deal(Deal.objects.get())
    body = alice.get(review_path(token)).content.decode()
    assert cards_in(body) and not cards_in(body) & secret_cards(deal, seat)


@pytest.mark.slow  # a whole match reviewed, some 4 s
def test_once_the_match_is_over_both_seats_are_reviewed_and_a_public_table_shows_anyone(alice, bob, runs):
    token, _ = finished_first_deal(alice, bob, target=100, visibility="public")
    resign(alice, token)
    answer = bob.ok("post", review_path(token), status=202)
    assert [(review["seat"], review["status"]) for review in answer["reviews"]] == [(0, "done"), (1, "done")]
    carol = make_account_client("carol@example.com")
    assert carol.ok("get", review_path(token)) == bob.ok("get", review_path(token))
    assert carol.ok("post", review_path(token), status=202) == answer  # already there: nothing recomputed
    assert sorted(seats for _, seats in runs) == [(0,), (1,)]


def archive_review_path(deal: int = 1) -> str:
    return f"/matches/{Match.objects.get().pk}/deals/{deal}/review"


@pytest.mark.slow  # a whole match reviewed, some 5 s
def test_an_anonymous_visitor_reads_a_public_finished_matchs_review_but_may_not_ask_for_one(alice, bob, runs):
    token, _ = finished_first_deal(alice, bob, target=100, visibility="public")
    resign(alice, token)
    anonymous = ApiClient()
    for path in (review_path(token), archive_review_path()):
        assert anonymous.ok("get", path)["reviews"] == []  # nothing asked yet: nothing to read
        refused = anonymous.post(path)
        assert (refused.status_code, refused.json()["error"]) == (401, "not_authenticated")
    assert not DealReview.objects.exists() and not runs
    answer = bob.ok("post", archive_review_path(), status=202)
    assert [review["status"] for review in answer["reviews"]] == ["done", "done"]
    assert anonymous.ok("get", archive_review_path()) == anonymous.ok("get", review_path(token)) == answer


@pytest.mark.slow  # a whole match reviewed, some 4 s
def test_the_archive_address_keeps_the_archives_and_the_reviews_rules(alice, bob, runs):
    token, _ = finished_first_deal(alice, bob, target=100)
    path = archive_review_path()
    # while the match runs the archive shows it to nobody but staff: 404, as its replay
    assert alice.get(path).status_code == alice.post(path).status_code == 404
    resign(bob, token)
    carol, anonymous = make_account_client("carol@example.com"), ApiClient()
    for stranger in (carol, anonymous):  # an invite-only table's match is not even revealed
        assert stranger.get(path).status_code == 404
    assert carol.post(path).status_code == 404
    assert anonymous.post(path).status_code == 401
    assert alice.get(archive_review_path(deal=2)).status_code == 404  # resigned between deals
    answer = alice.ok("post", path, status=202)
    assert [review["seat"] for review in answer["reviews"]] == [0, 1]
    assert alice.ok("get", review_path(token)) == answer


@pytest.mark.slow  # deals reviewed, 1 to 2 s
def test_staff_may_not_read_the_opponents_decisions_of_a_running_match_through_the_archive(alice, bob):
    finished_first_deal(alice, bob, target=100)
    staff = make_account_client("staff@example.com", staff=True)
    assert staff.get(archive_review_path()).status_code == 403
    assert staff.post(archive_review_path()).status_code == 403


@pytest.mark.slow  # a whole match reviewed, 1 to 4 s
def test_an_invite_only_table_shows_its_reviews_to_its_players_only(alice, bob):
    token, _ = finished_first_deal(alice, bob, target=100)
    resign(bob, token)
    carol = make_account_client("carol@example.com")
    assert carol.post(review_path(token)).status_code == 403
    assert alice.ok("post", review_path(token), status=202)["reviews"]


def test_a_deal_abandoned_by_a_resignation_has_no_review(alice, bob):
    token, _ = started(alice, bob, target=100)
    resign(alice, token)
    assert Deal.objects.get().status == Deal.Status.ABANDONED
    assert alice.post(review_path(token)).status_code == 409


def test_unknown_deals_are_404(alice, bob):
    token, _ = finished_first_deal(alice, bob)
    assert alice.get(review_path(token, deal=2)).status_code == 404
    assert alice.get(review_path(token, match=2)).status_code == 404
    assert alice.get(review_path("nope")).status_code == 404


@pytest.mark.slow  # a whole deal reviewed twice over, some 3 s
def test_asked_twice_it_is_computed_once(alice, bob, runs):
    token, _ = finished_first_deal(alice, bob, target=100)
    first = alice.ok("post", review_path(token), status=202)
    assert alice.ok("post", review_path(token), status=202) == first
    assert len(runs) == 1 and DealReview.objects.count() == 1


def test_progress_is_stored_while_the_review_is_computed(alice, bob):
    token, _ = finished_first_deal(alice, bob, target=100)
    player = Table.objects.get(invite_token=token).seat0
    rows, to_run = reviews.request_review(
        reviews.deal_by_token(token, 1, 1), player
    )  # asked, not yet handed to a worker
    assert [row.pk for row in rows] == to_run
    pending = reviews.review_status(reviews.deal_by_token(token, 1, 1), player)["reviews"]
    assert pending == [{"seat": 0, "status": "pending", "done": 0, "total": 0, "result": None}]
    seen: list[tuple[str, int, int]] = []
    real = reviews.review_deal

    def watched(deal, seats, scores, seed, settings, progress):
        def saved(done, total):
            progress(done, total)
            row = DealReview.objects.get(pk=to_run[0])
            seen.append((row.status, row.done, row.total))

        return real(deal, seats, scores, seed, settings, saved)

    reviews.review_deal, saved_function = watched, reviews.review_deal
    try:
        assert reviews.run_review(to_run[0]) == "done"
    finally:
        reviews.review_deal = saved_function
    deal = engine.load_deal(Deal.objects.get())
    total = len(decision_points(deal, (0,)))
    assert seen == [("running", done, total) for done in range(1, total + 1)]
    assert reviews.run_review(to_run[0]) == "nothing to do"  # a duplicate task
    (done,) = reviews.review_status(reviews.deal_by_token(token, 1, 1), player)["reviews"]
    assert (done["status"], done["done"], done["total"]) == ("done", total, total)


@pytest.mark.slow  # a whole deal reviewed, 1 to 2 s
def test_a_failed_review_is_handed_again_when_asked_again(alice, bob, monkeypatch):
    token, _ = finished_first_deal(alice, bob, target=100)
    player = Table.objects.get(invite_token=token).seat0
    _, to_run = reviews.request_review(reviews.deal_by_token(token, 1, 1), player)

    def broken(*args, **kwargs):
        raise RuntimeError("a worker's bad day")

    monkeypatch.setattr(reviews, "review_deal", broken)
    assert reviews.run_review(to_run[0]) == "failed"
    monkeypatch.undo()
    monkeypatch.setattr(reviews, "REVIEW_SETTINGS", CHEAP)
    assert reviews.request_review(reviews.deal_by_token(token, 1, 1), player)[1] == to_run
    assert reviews.run_review(to_run[0]) == "done"


@needs_row_locks
@pytest.mark.django_db(transaction=True)
def test_ten_requests_at_once_make_one_review_computed_once(runs):
    alice = make_account_client("alice@example.com")
    bob = make_account_client("bob@example.com")
    token, _ = finished_first_deal(alice, bob, target=100)
    cookies = alice.client.cookies
    barrier = threading.Barrier(10)

    def ask(_: int) -> int:
        client = Client()
        client.cookies = cookies
        barrier.wait()
        try:
            return ApiClient(client).post(review_path(token)).status_code
        finally:
            connection.close()

    with ThreadPoolExecutor(max_workers=10) as pool:
        statuses = list(pool.map(ask, range(10)))
    assert statuses == [202] * 10
    assert DealReview.objects.count() == 1 and len(runs) == 1
    assert DealReview.objects.get().status == DealReview.Status.DONE


def test_the_asker_finds_one_line_in_the_inbox_once_the_review_is_done(
    alice, bob, django_capture_on_commit_callbacks
):
    """The line "a review is ready": to whoever asked, once, in their language, linking to the replay; an
    announcement heard twice and a request made again keep one line."""
    from tables.accounts.identity import player_for_user
    from tables.accounts.models import Player
    from tables.alerts.models import InboxItem
    from tables.reviews.services import tell_ready

    token, _ = finished_first_deal(alice, bob, target=100)
    ana, ben = player_for_user(alice.user), player_for_user(bob.user)
    Player.objects.filter(pk=ana.pk).update(language="en")
    assert not InboxItem.objects.filter(kind="review_ready").exists()  # nobody asked yet
    with django_capture_on_commit_callbacks(execute=True):  # the line follows the review's commit
        alice.ok("post", review_path(token), status=202)
    assert InboxItem.objects.filter(kind="review_ready").count() == 1
    review = DealReview.objects.get(requested_by=ana)
    assert review.status == DealReview.Status.DONE
    tell_ready(review)  # its writer run again
    alice.ok("post", review_path(token), status=202)  # asked again: already there
    [line] = InboxItem.objects.filter(kind="review_ready")
    match = Match.objects.get()
    assert line.player_id == ana.pk and line.path == f"/matches/{match.pk}/deals/1/"
    assert line.title == "LUNA's review of deal 1 is ready" and "replay" in line.body
    with django_capture_on_commit_callbacks(execute=True):
        bob.ok("post", review_path(token), status=202)  # his own seat: his line, in Spanish
    mine = InboxItem.objects.get(kind="review_ready", player=ben)
    assert mine.title == "El análisis de LUNA de la mano 1 está listo"


def test_no_review_ready_line_while_the_review_is_not_done(
    alice, bob, monkeypatch, django_capture_on_commit_callbacks
):
    from tables.alerts.models import InboxItem

    token, _ = finished_first_deal(alice, bob, target=100)

    def broken(*args, **kwargs):
        raise RuntimeError("the search failed")

    monkeypatch.setattr(reviews, "review_deal", broken)
    with django_capture_on_commit_callbacks(execute=True):
        alice.ok("post", review_path(token), status=202)
    assert DealReview.objects.get().status == DealReview.Status.FAILED
    assert not InboxItem.objects.filter(kind="review_ready").exists()


def test_a_review_of_the_old_scale_is_shown_as_such_and_computed_anew_when_asked_again(alice, bob, runs):
    token, _ = finished_first_deal(alice, bob, target=100)
    alice.ok("post", review_path(token), status=202)
    row = DealReview.objects.get()
    fresh = alice.ok("get", review_path(token))["reviews"][0]["result"]
    assert fresh["scale"] == "points" and fresh["thresholds"][0][0] == "blunder"
    old = {key: value for key, value in row.result.items() if key not in ("scale", "accuracy")}
    DealReview.objects.filter(pk=row.pk).update(result=old)  # as stored before the points scale
    shown = alice.ok("get", review_path(token))["reviews"][0]
    assert shown["status"] == "done" and shown["result"]["scale"] == "match_chance"
    assert shown["result"]["accuracy"] is None and len(runs) == 1
    again = alice.ok("post", review_path(token), status=202)["reviews"][0]
    assert len(runs) == 2 and again["result"]["scale"] == "points"
