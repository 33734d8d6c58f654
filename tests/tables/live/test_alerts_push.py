"""Web push end to end: a fake push service on loopback receives pywebpush's real request,
checks the VAPID authorization and decrypts the payload with a subscriber key made here."""

from __future__ import annotations

import base64
import json
import os
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import http_ece
import pytest
from celery import current_app
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature

from tables.accounts.models import Player
from tables.alerts import notify, push
from tables.alerts.management.commands.vapid_keys import b64url, generate_keys
from tables.alerts.models import Activity, PushSubscription
from tables.core.announcements import Alerts
from tables.play.models import Table
from tests.tables.helpers import started

pytestmark = pytest.mark.django_db


def unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class FakePushService:
    """Answers every POST with ``status`` and keeps what it received."""

    def __init__(self) -> None:
        self.status = 201
        self.received: list[tuple[str, dict[str, str], bytes]] = []
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers["Content-Length"]))
                service.received.append((self.path, {k.lower(): v for k, v in self.headers.items()}, body))
                self.send_response(service.status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.origin = f"http://127.0.0.1:{self.server.server_port}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()


class Subscriber:
    """A browser's side of a subscription: its own key pair and auth secret."""

    def __init__(self) -> None:
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.auth = os.urandom(16)
        point = self.key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        self.p256dh = b64url(point)

    def decrypt(self, body: bytes) -> dict:
        return json.loads(
            http_ece.decrypt(body, private_key=self.key, auth_secret=self.auth, version="aes128gcm")
        )


@pytest.fixture
def vapid(settings):
    public, private = generate_keys()
    settings.VAPID_PUBLIC_KEY, settings.VAPID_PRIVATE_KEY = public, private
    settings.VAPID_SUBJECT = "mailto:alerts@ginmesa.example"
    return public


@pytest.fixture
def service(settings, monkeypatch):
    # The push task runs inline here, with or without a broker (REDIS_URL, as .ci/run sets).
    monkeypatch.setitem(current_app.conf, "task_always_eager", True)
    fake = FakePushService()
    settings.PUSH_SERVICE_HOSTS = ["127.0.0.1"]  # sending checks the host; subscribing never accepts loopback
    yield fake
    fake.server.shutdown()


def _subscribe(
    player, service: FakePushService, name: str = "browser-1"
) -> tuple[PushSubscription, Subscriber]:
    """A subscription to the fake service, stored as is: the API refuses a loopback endpoint
    (tests/tables/alerts/test_push_subscriptions.py)."""
    browser = Subscriber()
    subscription = PushSubscription.objects.create(
        player=player,
        endpoint=f"{service.origin}/push/{name}",
        p256dh=browser.p256dh,
        auth=b64url(browser.auth),
    )
    return subscription, browser


def _check_vapid(headers: dict[str, str], public_key: str, audience: str) -> dict:
    """The authorization header (names lowercased) is ``vapid t=<JWT>, k=<public key>``; the JWT is ES256-signed."""
    scheme, _, params = headers["authorization"].partition(" ")
    assert scheme == "vapid"
    fields = dict(part.strip().split("=", 1) for part in params.split(","))
    assert fields["k"] == public_key
    header, claims, signature = fields["t"].split(".")
    raw = unb64(signature)
    der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
    key = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64(public_key))
    key.verify(der, f"{header}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))  # raises if forged
    assert json.loads(unb64(header))["alg"] == "ES256"
    payload = json.loads(unb64(claims))
    assert payload["aud"] == audience and payload["sub"] == "mailto:alerts@ginmesa.example"
    assert time.time() < payload["exp"] <= time.time() + 24 * 3600
    return payload


def test_a_push_reaches_the_push_service_signed_and_encrypted(alice, vapid, service):
    alice.ok("post", "/tables", {}, status=201)  # the account's player exists from now on
    player = Player.objects.get(user=alice.user)
    _, browser = _subscribe(player, service)
    message = {"type": "alert", "kind": "your_move", "title": "Te toca", "tag": "table-abc"}
    assert push.send_to_player(player, message, topic="table-abc") == 1
    [(path, headers, body)] = service.received
    assert path == "/push/browser-1"
    _check_vapid(headers, vapid, service.origin)
    assert headers["content-encoding"] == "aes128gcm" and headers["topic"] == "table-abc"
    assert int(headers["ttl"]) > 0
    assert browser.decrypt(body) == message


def test_your_move_is_pushed_with_a_tag_per_table(alice, bob, vapid, service):
    token, _ = started(alice, bob)
    table = Table.objects.select_related("seat0", "seat1", "current_deal__match").get(invite_token=token)
    [alert] = notify.alerts_for(table, Alerts.TURN)
    alert.player.alert_prefs = {"your_move": ["push"]}
    alert.player.save()
    Activity.objects.create(player=alert.player, last_seen=table.created_at)
    _, browser = _subscribe(alert.player, service)
    assert notify.deliver(alert) == {"push"}
    [(_, headers, body)] = service.received
    pushed = browser.decrypt(body)
    assert pushed["tag"] == f"table-{token}" and pushed["url"].endswith(f"/t/{token}/")
    assert pushed["kind"] == "your_move" and headers["topic"] == f"table-{token}"


@pytest.mark.parametrize("status", [404, 410])
def test_a_subscription_the_push_service_calls_gone_is_removed(alice, vapid, service, status):
    alice.ok("post", "/tables", {}, status=201)
    player = Player.objects.get(user=alice.user)
    gone, _ = _subscribe(player, service, "gone")
    service.status = status
    assert push.send_to_player(player, {"title": "x"}, topic="t") == 0
    assert not PushSubscription.objects.filter(pk=gone.pk).exists()


def test_a_failing_push_service_keeps_the_subscription(alice, vapid, service):
    alice.ok("post", "/tables", {}, status=201)
    player = Player.objects.get(user=alice.user)
    kept, _ = _subscribe(player, service)
    service.status = 500
    assert push.send_to_player(player, {"title": "x"}, topic="t") == 0
    assert PushSubscription.objects.filter(pk=kept.pk).exists()


def test_subscribe_and_unsubscribe_through_the_api(alice, vapid, monkeypatch):
    monkeypatch.setattr(push, "resolve", lambda host: ["142.250.180.10"])  # no DNS in tests
    alice.ok("post", "/tables", {}, status=201)
    assert alice.ok("get", "/me/push/key") == {"public_key": vapid}
    browser = Subscriber()
    body = {
        "endpoint": "https://fcm.googleapis.com/fcm/send/abc",
        "keys": {"p256dh": browser.p256dh, "auth": b64url(browser.auth)},
    }
    alice.ok("post", "/me/push/subscriptions", body, status=201)
    assert PushSubscription.objects.filter(endpoint="https://fcm.googleapis.com/fcm/send/abc").exists()
    insecure = {**body, "endpoint": "http://fcm.googleapis.com/fcm/send/abc"}
    assert alice.request("post", "/me/push/subscriptions", insecure).status_code == 400
    alice.ok("post", "/me/push/subscriptions/delete", {"endpoint": "https://fcm.googleapis.com/fcm/send/abc"})
    assert not PushSubscription.objects.exists()
