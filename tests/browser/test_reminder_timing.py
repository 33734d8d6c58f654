"""Reminder timing in a real browser, English on a desktop and Spanish on a phone (issue 56): Alice
chooses on her profile, beside quiet hours, to be reminded 3 hours before a slow turn's deadline
and saves it (the page shows her choice again, the account holds it). It is then her move at a
day-long clock: with 3.5 hours left (past the default 80%) the reminder sweep leaves her be;
with 2.5 hours left it reminds her, and the bell of her open page counts the reminder's line."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from tables.accounts.models import Player
from tables.alerts import notify
from tables.play.models import Deal, Table
from tests.tables.helpers import make_account_client, seated_table, start_and_pass_the_turn

from .conftest import new_context

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WAIT_MS = 10_000
PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
DESKTOP = {"viewport": {"width": 1366, "height": 768}}
SAVED = {"en-US": "Reminder saved.", "es-ES": "Recordatorio guardado."}


def _hours_left(token: str, hours: float) -> None:
    table = Table.objects.get(invite_token=token)
    deadline = timezone.now() + dt.timedelta(hours=hours)
    Deal.objects.filter(pk=table.current_deal_id).update(deadline=deadline)


@pytest.mark.parametrize(
    ("locale", "device"), [("en-US", DESKTOP), ("es-ES", PHONE)], ids=["en-desktop", "es-phone"]
)
def test_a_reminder_set_on_the_profile_comes_that_many_hours_before_the_deadline(
    browser, live_url, console, locale, device
):
    alice, bob = make_account_client("alice@example.com"), make_account_client("bob@example.com")
    Player.objects.filter(user=alice.user).update(language=locale[:2])
    token = seated_table(bob, alice, turn_seconds=86400)
    page = console.watch(
        new_context(
            browser, live_url, session=alice.client.cookies["sessionid"].value, locale=locale, **device
        ).new_page(),
        "alice",
    )
    page.goto("/me/profile/")
    expect(page.locator("#reminder-at")).to_have_value("80%")  # the server's default
    page.locator("#reminder-at").select_option("hours")
    page.locator("#reminder-hours").fill("3")
    page.locator("#reminder-save").click()
    expect(page.locator(".messages")).to_contain_text(SAVED[locale])
    expect(page.locator("#reminder-at")).to_have_value("hours")  # the page again, from what was stored
    expect(page.locator("#reminder-hours")).to_have_value("3")
    assert Player.objects.get(user=alice.user).alert_prefs["reminder_at"] == "3h"

    start_and_pass_the_turn(bob, token)  # bob plays until it is alice's move
    _hours_left(token, 3.5)
    assert notify.send_due_reminders() == 0  # the default would have reminded her by now
    _hours_left(token, 2.5)
    assert notify.send_due_reminders() == 1
    expect(page.locator("#inbox-badge")).to_have_text("1", timeout=WAIT_MS)
