"""On a fresh embedded start (no VAPID keys set), a browser turns notifications on from its
profile page and receives "your move" through a push service.

Headless Chromium has no push service of its own (it would register with Google's), so two
boundaries are stood in for, nothing of the site: the page's PushManager.subscribe answers
with an FCM endpoint and keys made here (what the browser's push service would hand out),
and the server's post to that endpoint reaches the fake push service of the alert tests.
That service decrypts the message with the subscription's key and hands it to the browser's
real service worker through DevTools (ServiceWorker.deliverPushMessage), which shows it."""

from __future__ import annotations

import json

import pytest
import requests
from playwright.sync_api import expect

from config import vapid
from tables.alerts import push
from tables.alerts.management.commands.vapid_keys import b64url
from tests.polling import browser_pause, wait_until
from tests.tables.helpers import make_account_client, seated_table, start_and_pass_the_turn
from tests.tables.live.test_alerts_push import FakePushService, Subscriber

from .profiles import playwright, profile_fixture  # noqa: F401  (fixtures)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ENDPOINT = "https://fcm.googleapis.com/fcm/send/alice-laptop"
WAIT_SECONDS = 10

# In the worker: note each notification it shows once the browser has shown it. (Headless
# Chromium's own list, registration.getNotifications(), sometimes drops one at once.)
RECORD_SHOWN = """() => {
  const show = self.registration.showNotification.bind(self.registration);
  self.shown = [];
  self.registration.showNotification = (title, options) =>
    show(title, options).then(() => self.shown.push({ title, body: options.body, tag: options.tag }));
}"""

STUB_SUBSCRIBE = """
([endpoint, p256dh, auth]) => {
  PushManager.prototype.subscribe = async function (options) {
    await navigator.serviceWorker.ready; // as the real one, which needs an active worker
    const key = btoa(String.fromCharCode(...new Uint8Array(options.applicationServerKey)));
    window.subscribedWithKey = key.replace(/\\+/g, "-").replace(/\\//g, "_").replace(/=+$/, "");
    return { endpoint, toJSON: () => ({ endpoint, keys: { p256dh, auth } }) };
  };
}
"""


@pytest.fixture
def fresh_embedded_keys(settings, tmp_path):
    """What settings do on a first `make run` with no keys: a pair made in an empty VAR_DIR."""
    settings.VAPID_PUBLIC_KEY, settings.VAPID_PRIVATE_KEY = vapid.embedded_keys(tmp_path)
    assert (tmp_path / vapid.KEYS_FILE).exists()
    return settings.VAPID_PUBLIC_KEY


@pytest.fixture
def push_service(monkeypatch):
    """The fake push service, reached by the server's posts to the FCM endpoint."""
    service = FakePushService()
    monkeypatch.setattr(push, "resolve", lambda host: ["142.250.180.10"])  # no DNS here: FCM's address
    post = requests.post

    def to_fake_service(url, *args, **kwargs):
        return post(url.replace("https://fcm.googleapis.com", service.origin), *args, **kwargs)

    monkeypatch.setattr(requests, "post", to_fake_service)
    yield service
    service.server.shutdown()


def wait_for(page, condition, what: str):
    """Poll ``condition``; waiting through the page lets Playwright deliver DevTools events."""
    return wait_until(condition, timeout=WAIT_SECONDS, interval=0.1, pause=browser_pause(page), message=what)


def test_a_fresh_embedded_site_pushes_your_move_to_a_browser(
    profile, live_url, console, fresh_embedded_keys, push_service
):
    alice, bob = make_account_client("alice@example.com"), make_account_client("bob@example.com")
    token = seated_table(bob, alice)
    browser_keys = Subscriber()

    context = profile("en-US", permissions=["notifications"])
    context.add_cookies(
        [{"name": "sessionid", "value": alice.client.cookies["sessionid"].value, "url": live_url}]
    )
    page = console.watch(context.pages[0] if context.pages else context.new_page(), "alice")
    page.goto("/me/profile/")
    page.evaluate(STUB_SUBSCRIBE, [ENDPOINT, browser_keys.p256dh, b64url(browser_keys.auth)])
    page.get_by_role("button", name="TURN ON NOTIFICATIONS ON THIS DEVICE").click()
    expect(page.locator("#alerts-status")).to_have_text("Notifications are on for this device.")
    assert page.evaluate("window.subscribedWithKey") == fresh_embedded_keys
    cdp = context.new_cdp_session(page)
    registrations = []
    cdp.on(
        "ServiceWorker.workerRegistrationUpdated", lambda event: registrations.extend(event["registrations"])
    )
    cdp.send("ServiceWorker.enable")

    start_and_pass_the_turn(bob, token)  # bob plays until it is alice's move

    [(path, _, body)] = wait_for(page, lambda: push_service.received, "push at the push service")
    assert path == "/fcm/send/alice-laptop"
    message = browser_keys.decrypt(body)
    assert message["kind"] == "your_move" and message["url"].endswith(f"/t/{token}/")
    [registration] = wait_for(
        page,
        lambda: [r for r in registrations if r["scopeURL"] == f"{live_url}/" and not r["isDeleted"]],
        "service worker registration",
    )
    [worker] = [w for w in context.service_workers if w.url == f"{live_url}/sw.js"]
    worker.evaluate(RECORD_SHOWN)
    cdp.send(
        "ServiceWorker.deliverPushMessage",
        {"origin": live_url, "registrationId": registration["registrationId"], "data": json.dumps(message)},
    )
    shown = wait_for(page, lambda: worker.evaluate("self.shown"), "notification")
    assert shown == [{"title": message["title"], "body": message["body"], "tag": f"table-{token}"}]
