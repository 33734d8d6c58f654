"""The inbox: one line per occasion of the alerts that matter later (challenges and their answers,
rematch offers, results, a slow turn waiting), written where the alert is decided, read and
marked read through /api/me/inbox, forgotten after 90 days."""

from __future__ import annotations

import datetime as dt
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.db import connection, transaction
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from tables.accounts.identity import player_for_user
from tables.alerts import inbox, notify
from tables.alerts import services as inbox_lines
from tables.alerts.models import InboxItem
from tables.background import registry, scheduling
from tables.challenges import alerts as challenge_alerts
from tables.challenges import services as challenge_services
from tables.core.announcements import Alerts
from tables.play.models import Table
from tests.tables.helpers import ApiClient, make_account_client, play_match, started

pytestmark = pytest.mark.django_db

SLOW = {"ruleset": "classic", "turn_seconds": 86400}


@pytest.fixture
def sent(monkeypatch):
    """Challenge alerts run at once instead of through a broker; pushes and later runs are dropped."""

    def run_task(task, *args, eta=None):
        if task == registry.ALERT_CHALLENGE and eta is None:
            challenge_alerts.deliver(*args)

    monkeypatch.setattr(scheduling, "run_task", run_task)


def _table(token: str) -> Table:
    return Table.objects.select_related("seat0", "seat1", "current_deal__match").get(invite_token=token)


def _lines(client: ApiClient) -> list[InboxItem]:
    return list(InboxItem.objects.filter(player=player_for_user(client.user)).order_by("pk"))


def test_a_finished_match_leaves_one_result_line_per_player_however_often_it_is_alerted(alice, bob):
    token, players = started(alice, bob, target=10)
    play_match(token, players)
    for _ in range(2):  # the follow-up task retried: still one line each
        for alert in notify.alerts_for(_table(token), Alerts.TURN):
            assert alert.kind == "match_over"
            notify.deliver(alert)
    for client in (alice, bob):
        [line] = [row for row in _lines(client) if row.kind == "match_over"]
        assert line.path == f"/t/{token}/" and line.read_at is None and line.title


def test_a_move_or_a_chat_message_leaves_no_line(alice, bob):
    token, _ = started(alice, bob)
    for alert in notify.alerts_for(_table(token), Alerts.TURN):
        assert alert.kind == "your_move"
        notify.deliver(alert)
    alice.ok("post", f"/tables/{token}/chat", {"text": "hola"}, status=201)
    for alert in notify.alerts_for(_table(token), Alerts.CHAT):
        notify.deliver(alert)
    assert _lines(alice) == [] and _lines(bob) == []


def test_a_challenge_and_its_answer_leave_one_line_each(alice, bob, sent):
    ana, ben = player_for_user(alice.user), player_for_user(bob.user)
    challenge = challenge_services.challenge_player(ana, ben, dict(SLOW))
    challenge_alerts.deliver(challenge.pk, "received")  # a retried task
    [line] = _lines(bob)
    assert (line.kind, line.path) == ("challenge", "/challenges/")
    challenge_services.accept(challenge.pk, ben)
    challenge_alerts.deliver(challenge.pk, "accepted")
    [answer] = _lines(alice)
    assert answer.kind == "challenge_accepted" and answer.path.startswith("/t/")
    assert len(_lines(bob)) == 1


def test_the_api_lists_counts_and_marks_read(alice, bob, sent):
    ana, ben = player_for_user(alice.user), player_for_user(bob.user)
    for n in range(3):
        inbox_lines.keep(ben, "match_over", f"match:{n}", f"Result {n}", "body", f"/t/x{n}/")
    inbox_lines.keep(ana, "match_over", "match:9", "Hers", "", "/t/y/")
    body = bob.ok("get", "/me/inbox")
    assert [line["title"] for line in body["lines"]] == ["Result 2", "Result 1", "Result 0"]
    assert body["unread"] == 3 and body["before"] is None and body["kept_days"] == 90
    first, hers = body["lines"][0]["id"], _lines(alice)[0].pk
    marked = bob.ok("post", "/me/inbox/read", {"ids": [first, hers]})  # another's line is not his
    assert marked == {"marked": 1, "unread": 2}
    assert _lines(alice)[0].read_at is None
    assert bob.ok("post", "/me/inbox/read", {"all": True}) == {"marked": 2, "unread": 0}
    assert bob.ok("get", "/me/inbox")["lines"][0]["read"] is True
    refused = bob.post("/me/inbox/read", {})
    assert refused.status_code == 400 and refused.json()["error"]
    assert bob.post("/me/inbox/read", {"ids": ["x"]}).status_code in (400, 422)
    assert ApiClient(Client()).get("/me/inbox").status_code == 401


def test_the_inbox_pages_open_a_line_as_read_and_mark_all_read(alice):
    ana = player_for_user(alice.user)
    inbox_lines.keep(ana, "rematch_offer", "rematch:1:2", "Rematch?", "Ben offers", "/t/abc/")
    inbox_lines.keep(ana, "match_over", "match:1", "You won", "", "/t/abc/")
    page = alice.client.get("/me/inbox/")
    assert page.status_code == 200 and b"Rematch?" in page.content and b"inbox-read-all" in page.content
    opened = alice.client.get(f"/me/inbox/{_lines(alice)[0].pk}/")
    assert opened.status_code == 302 and opened["Location"] == "/t/abc/"
    assert inbox.unread(ana) == 1
    assert Client().get(f"/me/inbox/{_lines(alice)[0].pk}/").status_code == 404  # not someone else's
    assert alice.client.post("/me/inbox/").status_code == 302 and inbox.unread(ana) == 0
    header = alice.client.get("/")
    assert b'id="inbox-badge"' in header.content


def test_lines_are_kept_ninety_days_by_a_periodic_sweep(alice):
    ana = player_for_user(alice.user)
    inbox_lines.keep(ana, "match_over", "match:1", "old", "", "/t/a/")
    inbox_lines.keep(ana, "match_over", "match:2", "new", "", "/t/a/")
    InboxItem.objects.filter(occasion="match:1").update(created_at=timezone.now() - dt.timedelta(days=91))
    assert inbox.purge() == 1
    assert [line.title for line in _lines(alice)] == ["new"]
    assert registry.PURGE_INBOX in registry.PERIODIC


def test_the_sweep_keeps_an_account_newest_lines_only(alice, bob, monkeypatch):
    monkeypatch.setattr(inbox, "INBOX_MAX", 3)
    ana, ben = player_for_user(alice.user), player_for_user(bob.user)
    for n in range(5):
        inbox_lines.keep(ana, "match_over", f"match:{n}", f"r{n}", "", "/t/a/")
    inbox_lines.keep(ben, "match_over", "match:1", "his", "", "/t/a/")
    assert inbox.purge() == 2
    assert [line.title for line in _lines(alice)] == ["r2", "r3", "r4"] and len(_lines(bob)) == 1


@pytest.mark.skipif(
    connection.vendor == "sqlite",
    reason="SQLite takes one writer at a time; .ci/run runs this on PostgreSQL",
)
@pytest.mark.django_db(transaction=True)
def test_an_event_alerted_twice_at_once_leaves_one_line():
    ben = player_for_user(make_account_client("ben-twice@example.com").user)
    barrier = threading.Barrier(6)

    def keep(_: int) -> bool:
        barrier.wait()
        try:
            return inbox_lines.keep(ben, "match_over", "match:77", "You won", "", "/t/z/")
        finally:
            connection.close()

    with ThreadPoolExecutor(max_workers=6) as pool:
        results = list(pool.map(keep, range(6)))
    assert sorted(results) == [False] * 5 + [True]
    assert InboxItem.objects.filter(player=ben).count() == 1


def test_the_inbox_costs_the_same_queries_for_a_few_lines_or_a_full_page(alice):
    ana = player_for_user(alice.user)
    alice.ok("get", "/me/inbox")  # the session's first request writes its activity row

    def queries() -> int:
        with CaptureQueriesContext(connection) as captured:
            alice.ok("get", "/me/inbox")
            alice.client.get("/me/inbox/")
        return len(captured)

    for n in range(3):
        inbox_lines.keep(ana, "match_over", f"match:{n}", "r", "", "/t/a/")
    few = queries()
    for n in range(3, 120):
        inbox_lines.keep(ana, "match_over", f"match:{n}", "r", "", "/t/a/")
    assert queries() == few


class _RolledBack(Exception):
    pass


@pytest.mark.django_db(transaction=True)
def test_a_new_line_counts_again_on_every_device_once_committed(monkeypatch):
    """Over the real user socket: a line written in a transaction that rolls back tells no page;
    a committed one tells each open page of the player (two devices), and nobody else."""
    from tables.live import sockets
    from tests.tables.live.helpers import connect, drain, receive_type, run, sync

    monkeypatch.setattr(sockets, "SHARED_DB_THREAD", True)
    phone = make_account_client("ana-devices@example.com")
    desktop = ApiClient(Client(), name="desktop")
    desktop.client.force_login(phone.user)
    other = make_account_client("carl-devices@example.com")
    ana = player_for_user(phone.user)

    def rolled_back() -> None:
        try:
            with transaction.atomic():
                assert inbox_lines.keep(ana, "match_over", "match:5", "You won", "", "/t/a/")
                raise _RolledBack
        except _RolledBack:
            pass

    def committed() -> None:
        with transaction.atomic():
            assert inbox_lines.keep(ana, "match_over", "match:6", "You won", "", "/t/a/")

    async def body():
        sockets_open = [await connect("/ws/me/", client) for client in (phone, desktop, other)]
        for socket in sockets_open:
            await receive_type(socket, "pending")
        await sync(rolled_back)
        for socket in sockets_open:
            assert not [m for m in await drain(socket) if m["type"] == "inbox"]
        await sync(committed)
        for socket in sockets_open[:2]:
            assert await receive_type(socket, "inbox") == {"type": "inbox"}
        assert not [m for m in await drain(sockets_open[2]) if m["type"] == "inbox"]
        assert await sync(inbox.unread, ana) == 1
        for socket in sockets_open:
            await socket.disconnect()

    run(body)
