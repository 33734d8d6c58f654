"""Web-push subscriptions: which endpoints the server will post to, whose they are, how many a
player keeps, and sending off the path of clocks. No network: the project's DNS look-up
(``push.resolve``) and its HTTP post (``push.post``) are replaced here, nothing below them."""

from __future__ import annotations

import socket
import time

import pytest

from config.celery import app
from tables.accounts.models import Player
from tables.alerts import push
from tables.alerts.models import PushSubscription
from tables.background import scheduling
from tables.play import tasks
from tables.play.models import Table
from tests.tables.helpers import started
from tests.tables.play.test_lifecycle import _expire

pytestmark = pytest.mark.django_db

PUBLIC = "142.250.180.10"  # a Google address: what fcm.googleapis.com resolves to
FCM = "https://fcm.googleapis.com/fcm/send/"


def body(endpoint: str, p256dh: str = "BPublicKeyOfTheBrowser", auth: str = "authsecret") -> dict:
    return {"endpoint": endpoint, "keys": {"p256dh": p256dh, "auth": auth}}


@pytest.fixture
def dns(monkeypatch) -> dict[str, list[str]]:
    """Host → addresses for push.resolve; an unknown host does not resolve."""
    table: dict[str, list[str]] = {}

    def resolve(host: str) -> list[str]:
        if host not in table:
            raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")
        return table[host]

    monkeypatch.setattr(push, "resolve", resolve)
    table["fcm.googleapis.com"] = [PUBLIC]
    return table


@pytest.fixture
def posted(monkeypatch, settings) -> list[tuple[str, str, dict]]:
    """Push is configured; each post to a push service is recorded as (endpoint, p256dh, payload)."""
    settings.VAPID_PUBLIC_KEY, settings.VAPID_PRIVATE_KEY = "public", "private"
    sent: list[tuple[str, str, dict]] = []

    def post(subscription: PushSubscription, payload: dict, topic: str) -> None:
        sent.append((subscription.endpoint, subscription.p256dh, payload))

    monkeypatch.setattr(push, "post", post)
    return sent


def player_of(client) -> Player:
    client.ok("post", "/tables", {}, status=201)  # the account's player exists from now on
    return Player.objects.get(user=client.user)


# -- which endpoints ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "address",
    [
        "127.0.0.1",
        "10.1.2.3",
        "172.16.0.9",
        "192.168.1.20",
        "169.254.169.254",  # the cloud metadata service
        "100.64.0.1",  # carrier-grade NAT
        "0.0.0.0",
        "240.0.0.1",  # reserved
        "::1",
        "fd00::1",
        "fe80::1%eth0",
        "::ffff:127.0.0.1",
    ],
)
def test_an_endpoint_resolving_to_a_private_or_loopback_address_is_refused(alice, dns, address):
    player_of(alice)
    dns["fcm.googleapis.com"] = [PUBLIC, address]  # one bad address is enough
    answer = alice.request("post", "/me/push/subscriptions", body(FCM + "abc"))
    assert answer.status_code == 400
    refusal = answer.json()
    assert refusal["error"] == "invalid_input" and refusal["field"] == "endpoint"
    assert "private" in refusal["detail"]
    assert not PushSubscription.objects.exists()


@pytest.mark.parametrize(
    "endpoint",
    [
        "https://127.0.0.1/push/abc",  # an address, not a push service
        "https://localhost/push/abc",
        "https://push.example/abc",  # not a known push service
        "https://fcm.googleapis.com.evil.example/abc",
        "https://evilfcm.googleapis.com.example/abc",
        "https://fcm.googleapis.com:8443/fcm/send/abc",  # another port
        "https://user@fcm.googleapis.com/fcm/send/abc",
        "https://[fcm.googleapis.com/fcm/send/abc",  # not a URL at all (an unclosed IPv6 host)
        "http://fcm.googleapis.com/fcm/send/abc",
    ],
)
def test_an_endpoint_off_the_known_push_services_is_refused(alice, dns, endpoint):
    player_of(alice)
    dns.update({"localhost": ["127.0.0.1"], "push.example": [PUBLIC]})
    answer = alice.request("post", "/me/push/subscriptions", body(endpoint))
    assert answer.status_code == 400 and answer.json()["field"] == "endpoint"
    assert not PushSubscription.objects.exists()


def test_an_endpoint_whose_host_does_not_resolve_is_refused(alice, dns, settings):
    player_of(alice)
    settings.PUSH_SERVICE_HOSTS = ["fcm.googleapis.com", "push.example"]
    answer = alice.request("post", "/me/push/subscriptions", body("https://gone.push.example/abc"))
    assert answer.status_code == 400
    assert answer.json() == {
        "error": "invalid_input",
        "detail": "endpoint: its host does not resolve.",
        "field": "endpoint",
    }


def test_the_real_push_services_are_accepted(alice, dns):
    player_of(alice)
    endpoints = [
        FCM + "abc",
        "https://updates.push.services.mozilla.com/wpush/v2/abc",
        "https://wns2-db5p.notify.windows.com/w/?token=abc",
        "https://web.push.apple.com/QGuQyavXutnMH",
    ]
    for endpoint in endpoints:
        dns[endpoint.split("/")[2]] = [PUBLIC, "2a00:1450:4001:82b::200a"]
        alice.ok("post", "/me/push/subscriptions", body(endpoint), status=201)
    assert PushSubscription.objects.count() == 4


def test_a_subscription_on_a_host_no_longer_listed_is_not_posted_to(alice, dns, posted, settings):
    player = player_of(alice)
    alice.ok("post", "/me/push/subscriptions", body(FCM + "abc"), status=201)
    settings.PUSH_SERVICE_HOSTS = ["push.apple.com"]
    assert push.send_to_player(player, {"title": "x"}, topic="t") == 0
    assert posted == []


# -- whose ----------------------------------------------------------------------------------


def test_a_subscription_is_never_taken_over_and_its_player_keeps_the_pushes(alice, bob, dns, posted):
    token, _ = started(alice, bob)
    table = Table.objects.get(invite_token=token)
    first, other = (table.seat0, table.seat1)
    owner, intruder = (alice, bob) if first.user == alice.user else (bob, alice)
    owner.ok("post", "/me/push/subscriptions", body(FCM + "mine", p256dh="OWNERS-KEY"), status=201)

    answer = intruder.request("post", "/me/push/subscriptions", body(FCM + "mine", p256dh="INTRUDERS-KEY"))
    assert answer.status_code == 409
    assert answer.json()["error"] == "conflict" and answer.json()["field"] == "endpoint"
    kept = PushSubscription.objects.get(endpoint=FCM + "mine")
    assert kept.player == first and kept.p256dh == "OWNERS-KEY"
    taken = intruder.request("post", "/me/push/subscriptions/delete", {"endpoint": FCM + "mine"})
    assert taken.status_code == 404

    assert push.send_to_player(first, {"title": "yours"}, topic="t") == 1
    assert push.send_to_player(other, {"title": "theirs"}, topic="t") == 0
    assert posted == [(FCM + "mine", "OWNERS-KEY", {"title": "yours"})]


def test_its_owner_renews_a_subscription_with_new_keys(alice, dns):
    player = player_of(alice)
    alice.ok("post", "/me/push/subscriptions", body(FCM + "abc", p256dh="OLD"), status=201)
    alice.ok("post", "/me/push/subscriptions", body(FCM + "abc", p256dh="NEW"), status=201)
    [subscription] = PushSubscription.objects.all()
    assert subscription.player == player and subscription.p256dh == "NEW"


# -- how many -------------------------------------------------------------------------------


def test_a_player_keeps_the_newest_few_subscriptions(alice, bob, dns):
    player = player_of(alice)
    bobs = player_of(bob)
    bob.ok("post", "/me/push/subscriptions", body(FCM + "bob"), status=201)
    for n in range(push.MAX_SUBSCRIPTIONS + 3):
        alice.ok("post", "/me/push/subscriptions", body(FCM + f"alice-{n}"), status=201)
    kept = set(PushSubscription.objects.filter(player=player).values_list("endpoint", flat=True))
    assert kept == {FCM + f"alice-{n}" for n in range(3, push.MAX_SUBSCRIPTIONS + 3)}
    assert PushSubscription.objects.filter(player=bobs).count() == 1  # another player's are not touched


# -- sending off the clocks' path -----------------------------------------------------------


SLOW_SECONDS = 3.0  # a push service this slow would hold the timeout at least this long


def _messages(queue: str) -> list:
    """Take every message waiting on ``queue`` of this process's (memory) broker."""
    taken = []
    with app.connection_for_read() as connection:
        bound = app.amqp.queues[queue].bind(connection.default_channel)
        bound.declare()
        while (message := bound.get(no_ack=True)) is not None:
            taken.append(message)
    return taken


def _work(queue: str) -> list[str]:
    """Be a worker of ``queue``: run each waiting task; their names."""
    names = []
    for message in _messages(queue):
        args, kwargs, _ = message.decode()
        names.append(message.headers["task"])
        app.tasks[message.headers["task"]](*args, **kwargs)
    return names


@pytest.fixture
def broker(monkeypatch):
    """Celery as in production (not eager), on an in-memory broker of this process."""
    saved = app.conf.broker_url
    monkeypatch.setitem(app.conf, "task_always_eager", False)
    app.conf.broker_url = "memory://"
    app._pool = None
    app.amqp._producer_pool = None
    for queue in ("celery", "clocks", "push"):
        _messages(queue)
    batcher = scheduling.FollowUps(scheduling._send_follow_ups, window=3600)  # flushed by the test
    monkeypatch.setattr(scheduling, "follow_ups", batcher)
    yield batcher
    if batcher.timer is not None:
        batcher.timer.cancel()
    app.conf.broker_url = saved
    app._pool = None
    app.amqp._producer_pool = None


@pytest.mark.slow  # waits out a slow push service, some 3 s
def test_a_slow_push_service_never_delays_a_timeout_played_by_the_sweeper(
    alice, bob, dns, posted, broker, monkeypatch, django_capture_on_commit_callbacks
):
    token, _ = started(alice, bob)
    for client in (alice, bob):
        client.ok("post", "/me/push/subscriptions", body(FCM + client.user.username), status=201)
    recorded = push.post

    def slow_post(subscription, payload, topic):  # a push service that takes its time
        time.sleep(SLOW_SECONDS)  # what is tested: a push that takes this long
        recorded(subscription, payload, topic)

    monkeypatch.setattr(push, "post", slow_post)
    _expire(token)
    began = time.monotonic()
    with django_capture_on_commit_callbacks(execute=True):
        assert tasks.sweep_overdue() == 1
    timer = broker.timer
    broker.flush()  # the web or sweep process hands what follows the change to the workers
    if timer is not None:
        timer.cancel()
    ran = _work("celery") + _work("clocks")  # a worker of the celery and clocks queues
    took = time.monotonic() - began
    assert "tables.play.tasks.tables_changed" in ran
    assert took < SLOW_SECONDS - 1, f"the timeout and what follows it took {took:.2f} s"
    assert posted == []

    table = Table.objects.select_related("current_deal").get(invite_token=token)
    to_play = table.seats[table.current_deal.to_play]
    assert _work("push") == ["tables.alerts.tasks.send_push"]  # the push worker delivers it
    [(endpoint, _, payload)] = posted
    assert endpoint == FCM + to_play.user.username
    assert payload["kind"] == "your_move" and payload["tag"] == f"table-{token}"
