"""Following in a real browser: Ana follows Ben from his page, sees him online on her Following
list while he has a page of the site open, and challenges him from there; he hears of it at once.
Phone and desktop, Spanish and English."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .conftest import new_context

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WAIT_MS = 10_000
PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
DESKTOP = {"viewport": {"width": 1366, "height": 768}}
LABELS = {
    "en-US": {"follow": "FOLLOW", "online": "online now", "challenge": "CHALLENGE", "send": "SEND CHALLENGE"},
    "es-ES": {"follow": "SEGUIR", "online": "en línea ahora", "challenge": "RETAR", "send": "ENVIAR RETO"},
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
