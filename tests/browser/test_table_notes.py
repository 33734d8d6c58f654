"""Private notes in a real browser: Ana types notes at her table on one device; they are saved as
typed, show on her other device, and never on Ben's page. Phone and desktop, Spanish and English."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tables.play import services
from tables.social.models import MatchNote

from .conftest import new_context

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WAIT_MS = 10_000
PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
DESKTOP = {"viewport": {"width": 1366, "height": 768}}
SAVED = {"en-US": "Saved", "es-ES": "Guardado"}
NOTE = "Ben keeps sevens, throws high cards"


@pytest.mark.parametrize(
    ("locale", "device"), [("en-US", DESKTOP), ("es-ES", PHONE)], ids=["en-desktop", "es-phone"]
)
def test_notes_typed_on_one_device_show_on_the_other_and_never_to_the_opponent(
    browser, live_url, accounts, console, locale, device
):
    ana_player, ana_session = accounts("ana@example.com", "Ana")
    ben_player, ben_session = accounts("ben@example.com", "Ben")
    table = services.create_table(ana_player)
    services.join_table(table.invite_token, ben_player)
    services.start_match(table.invite_token, ana_player)
    url = f"/t/{table.invite_token}/"

    first = console.watch(
        new_context(browser, live_url, session=ana_session, locale=locale, **device).new_page(), "ana"
    )
    first.goto(url)
    if not first.locator("#note-text").is_visible():
        first.locator("#btn-chat").click()  # on a phone the side panel opens from the top bar
    first.locator("#note-text").fill(NOTE)
    expect(first.locator("#note-status")).to_have_text(SAVED[locale], timeout=WAIT_MS)
    assert MatchNote.objects.get(author=ana_player).text == NOTE

    second = console.watch(
        new_context(browser, live_url, session=ana_session, locale=locale, **DESKTOP).new_page(), "ana-2"
    )
    second.goto(url)
    expect(second.locator("#note-text")).to_have_value(NOTE)
    first.locator("#note-text").fill(NOTE + ", and knocks early")
    expect(first.locator("#note-status")).to_have_text(SAVED[locale], timeout=WAIT_MS)
    second.evaluate("window.dispatchEvent(new Event('focus'))")  # back to the other device
    expect(second.locator("#note-text")).to_have_value(NOTE + ", and knocks early", timeout=WAIT_MS)

    ben = console.watch(
        new_context(browser, live_url, session=ben_session, locale=locale, **device).new_page(), "ben"
    )
    ben.goto(url)
    expect(ben.locator("#note-text")).to_have_value("")
    assert NOTE not in ben.content()
