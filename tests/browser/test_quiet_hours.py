"""Quiet hours in a real browser, English on a desktop and Spanish on a phone: notifications
turned on from the profile, quiet hours set there around the present moment in the account's
time zone and saved (the page shows them again, the account holds them), then the opponent's
move makes it Alice's move: the push service receives nothing (nor her mailbox), the delivery
is put off to the end of the quiet hours, and run then it reaches the push service as "your
move" (and, Alice being away by then, her mailbox).

Push is stood in for as in test_push_out_of_the_box.py: the page's PushManager.subscribe and
the push service (the fake one of the alert tests); the put-off delivery is noted where the
server would hand it to its scheduler, and run as the scheduler would at its time."""

from __future__ import annotations

import datetime as dt
import zoneinfo

import pytest
from django.core import mail
from playwright.sync_api import expect

from tables.accounts.models import Player
from tables.alerts import notify
from tables.alerts.management.commands.vapid_keys import b64url
from tests.tables.alerts.test_quiet_hours_form import held  # noqa: F401  (a fixture)
from tests.tables.helpers import make_account_client, seated_table, start_and_pass_the_turn
from tests.tables.live.test_alerts_push import Subscriber

from .profiles import playwright, profile_fixture  # noqa: F401  (fixtures)
from .test_push_out_of_the_box import (  # noqa: F401  (fixtures)
    ENDPOINT,
    STUB_SUBSCRIBE,
    fresh_embedded_keys,
    push_service,
    wait_for,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
TEXTS = {
    "en-US": (
        "TURN ON NOTIFICATIONS ON THIS DEVICE",
        "Notifications are on for this device.",
        "Quiet hours saved.",
    ),
    "es-ES": (
        "ACTIVAR NOTIFICACIONES EN ESTE EQUIPO",
        "Notificaciones activadas en este equipo.",
        "Horas de silencio guardadas.",
    ),
}


@pytest.mark.parametrize(
    ("locale", "device"), [("en-US", {}), ("es-ES", PHONE)], ids=["en-desktop", "es-phone"]
)
def test_quiet_hours_set_on_the_profile_hold_your_move_push_until_they_end(
    profile,
    live_url,
    console,
    fresh_embedded_keys,  # noqa: F811  (the fixture imported above)
    push_service,  # noqa: F811
    held,  # noqa: F811
    locale,
    device,
):
    alice, bob = make_account_client("alice@example.com"), make_account_client("bob@example.com")
    token = seated_table(bob, alice)
    player = Player.objects.get(user=alice.user)
    zone = zoneinfo.ZoneInfo(player.time_zone)
    local_now = dt.datetime.now(zone)
    start, end = local_now - dt.timedelta(hours=2), local_now + dt.timedelta(hours=2)
    turn_on, turned_on, saved = TEXTS[locale]
    browser_keys = Subscriber()

    context = profile(locale, permissions=["notifications"], **device)
    context.add_cookies(
        [{"name": "sessionid", "value": alice.client.cookies["sessionid"].value, "url": live_url}]
    )
    page = console.watch(context.pages[0] if context.pages else context.new_page(), "alice")
    page.goto("/me/profile/")
    page.evaluate(STUB_SUBSCRIBE, [ENDPOINT, browser_keys.p256dh, b64url(browser_keys.auth)])
    page.get_by_role("button", name=turn_on).click()
    expect(page.locator("#alerts-status")).to_have_text(turned_on)

    expect(page.locator("#quiet-on")).not_to_be_checked()
    expect(page.locator("#quiet-hours")).to_contain_text(player.time_zone)
    page.locator("#quiet-on").check()
    page.locator("#quiet-start").fill(start.strftime("%H:%M"))
    page.locator("#quiet-end").fill(end.strftime("%H:%M"))
    page.locator("#quiet-save").click()
    expect(page.locator(".messages")).to_contain_text(saved)
    expect(page.locator("#quiet-on")).to_be_checked()  # the page again, from what was stored
    expect(page.locator("#quiet-start")).to_have_value(start.strftime("%H:%M"))
    expect(page.locator("#quiet-end")).to_have_value(end.strftime("%H:%M"))
    stored = Player.objects.get(pk=player.pk).alert_prefs["quiet_hours"]
    assert stored == {"start": start.strftime("%H:%M"), "end": end.strftime("%H:%M")}

    start_and_pass_the_turn(bob, token)  # bob plays until it is alice's move

    [(args, eta)] = wait_for(page, lambda: [h for h in held if h[0][1] == player.pk], "the put-off delivery")
    assert args[0] == "your_move" and not push_service.received
    assert not [email for email in mail.outbox if "alice@example.com" in email.to]
    assert eta == end.replace(second=0, microsecond=0).astimezone(dt.UTC)
    alert = notify.rebuild(*args)  # what the delivery does at its time: still news, so sent
    assert alert is not None and notify.deliver(alert, now=eta, deferred=True) == {"push", "email"}
    [(path, _, body)] = wait_for(page, lambda: push_service.received, "push at the push service")
    message = browser_keys.decrypt(body)
    assert path == "/fcm/send/alice-laptop" and message["kind"] == "your_move"
    assert message["url"].endswith(f"/t/{token}/")
