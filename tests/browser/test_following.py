"""Following in a real browser: Ana follows Ben from his page, sees him online on her Following
list while he has a page of the site open, and challenges him from there; he hears of it at once.
Phone and desktop, Spanish and English."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from tables.alerts.models import Activity
from tables.play import services

from .conftest import new_context

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WAIT_MS = 10_000
PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
DESKTOP = {"viewport": {"width": 1366, "height": 768}}
LABELS = {
    "en-US": {
        "follow": "FOLLOW",
        "online": "online now",
        "challenge": "CHALLENGE",
        "send": "SEND CHALLENGE",
        "hours": "last seen 2\xa0hours ago",
        "left": "last seen just now",
    },
    "es-ES": {
        "follow": "SEGUIR",
        "online": "en línea ahora",
        "challenge": "RETAR",
        "send": "ENVIAR RETO",
        "hours": "visto por última vez hace 2\xa0horas",
        "left": "visto hace un momento",
    },
}
CASES = [("en-US", DESKTOP), ("es-ES", PHONE)]


@pytest.mark.parametrize(("locale", "device"), CASES, ids=["en-desktop", "es-phone"])
def test_ana_follows_ben_sees_him_online_and_challenges_him(
    browser, live_url, accounts, console, locale, device
):
    label = LABELS[locale]
    _, ana_session = accounts("ana@example.com", "Ana")
    ben_player, ben_session = accounts("ben@example.com", "Ben")
    ana = console.watch(
        new_context(browser, live_url, session=ana_session, locale=locale, **device).new_page(), "ana"
    )
    ben = console.watch(
        new_context(browser, live_url, session=ben_session, locale=locale, **device).new_page(), "ben"
    )
    ben.goto("/lobby/")  # a page of the site open: his user socket says he is around

    ana.goto(f"/players/{ben_player.pk}/")
    ana.locator("#follow-button").click()
    expect(ana.locator("#follow-button")).not_to_have_text(label["follow"])

    ana.goto("/me/following/")
    row = ana.locator("#following-list li", has_text="Ben")
    for _ in range(20):  # the list is read as the page is built: until Ben's socket has said so
        if label["online"] in row.inner_text():
            break
        ana.wait_for_timeout(500)
        ana.reload()
    expect(row).to_contain_text(label["online"])
    row.get_by_role("link", name=label["challenge"], exact=True).click()
    expect(ana.locator("main h1")).to_contain_text("Ben")
    ana.get_by_role("button", name=label["send"]).click()
    expect(ana.locator("#challenges-sent")).to_contain_text("Ben")
    expect(ben.locator("#toasts")).to_contain_text("Ana", timeout=WAIT_MS)


@pytest.mark.parametrize(("locale", "device"), CASES, ids=["en-desktop", "es-phone"])
def test_the_table_says_when_the_opponent_was_last_seen_and_when_they_come_and_go(
    browser, live_url, accounts, console, locale, device
):
    label = LABELS[locale]
    ana_player, ana_session = accounts("ana@example.com", "Ana")
    ben_player, ben_session = accounts("ben@example.com", "Ben")
    table = services.create_table(ana_player)
    services.join_table(table.invite_token, ben_player)
    services.start_match(table.invite_token, ana_player)
    Activity.objects.create(player=ben_player, last_seen=timezone.now() - dt.timedelta(hours=2, minutes=5))
    ana = console.watch(
        new_context(browser, live_url, session=ana_session, locale=locale, **device).new_page(), "ana"
    )
    ana.goto(f"/t/{table.invite_token}/")
    pill = ana.locator("#opponent-presence")
    expect(pill).to_have_text(f"Ben: {label['hours']}")

    ben_context = new_context(browser, live_url, session=ben_session, locale=locale, **device)
    ben = console.watch(ben_context.new_page(), "ben")
    ben.goto(f"/t/{table.invite_token}/")
    expect(pill).to_have_text(f"Ben: {label['online']}", timeout=WAIT_MS)
    ben_context.close()
    expect(pill).to_have_text(f"Ben: {label['left']}", timeout=WAIT_MS)
