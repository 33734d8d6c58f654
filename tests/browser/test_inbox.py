"""The inbox in a real browser: Ben, with no page of the site open, is challenged by Ana; on
another device (a fresh browser context) the header's bell shows one unread line, the inbox lists
it, opening it leads to the challenges and reads it. With his page open, a second challenge
rings the bell at once, and MARK ALL READ on another device clears it there. And Ana challenges
Ben from her Following list, through the challenge form; Ben, with no page open, finds it in his
inbox on another browser context and ACCEPTS it there: both are seated at the new table, the
match started. Phone and desktop, Spanish and English."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tables.challenges import services as challenge_services
from tables.social import services as social_services

from .conftest import new_context

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WAIT_MS = 10_000
PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
DESKTOP = {"viewport": {"width": 1366, "height": 768}}
LABELS = {
    "en-US": {
        "inbox": "Inbox",
        "read_all": "Mark all read",
        "challenges": "Challenges",
        "challenge": "CHALLENGE",
        "send": "SEND CHALLENGE",
        "accept": "ACCEPT",
    },
    "es-ES": {
        "inbox": "Buzón",
        "read_all": "Marcar todo como leído",
        "challenges": "Retos",
        "challenge": "RETAR",
        "send": "ENVIAR RETO",
        "accept": "ACEPTAR",
    },
}
CASES = [("en-US", DESKTOP), ("es-ES", PHONE), ("es-ES", DESKTOP), ("en-US", PHONE)]
SLOW = {"ruleset": "classic", "turn_seconds": 86400}
EVERY_DEVICE_AND_LANGUAGE = pytest.mark.parametrize(
    ("locale", "device"), CASES, ids=["en-desktop", "es-phone", "es-desktop", "en-phone"]
)


def _ben(accounts, locale: str):
    """Ben's account, speaking the browser's language: (his player, his session)."""
    ben_player, ben_session = accounts("ben@example.com", "Ben")
    ben_player.language = locale[:2]
    ben_player.save(update_fields=["language"])
    return ben_player, ben_session


@EVERY_DEVICE_AND_LANGUAGE
def test_ben_finds_a_challenge_in_his_inbox_on_another_device(
    browser, live_url, accounts, console, locale, device
):
    label = LABELS[locale]
    ana_player, _ = accounts("ana@example.com", "Ana")
    carla_player, _ = accounts("carla@example.com", "Carla")
    ben_player, ben_session = _ben(accounts, locale)
    challenge_services.challenge_player(ana_player, ben_player, dict(SLOW))  # no page of Ben's open

    phone = console.watch(
        new_context(browser, live_url, session=ben_session, locale=locale, **device).new_page(), "ben"
    )
    phone.goto("/")
    badge = phone.locator("#inbox-badge")
    expect(badge).to_have_text("1", timeout=WAIT_MS)
    phone.locator("#inbox-link").click()
    expect(phone.locator("main h1")).to_have_text(label["inbox"])
    line = phone.locator("#inbox-list li.unread")
    expect(line).to_have_count(1)
    expect(line).to_contain_text("Ana")
    line.get_by_role("link").click()
    expect(phone).to_have_url(f"{live_url}/challenges/")
    expect(phone.locator("main")).to_contain_text("Ana")
    expect(badge).to_be_hidden(timeout=WAIT_MS)  # opening the line read it

    challenge_services.challenge_player(carla_player, ben_player, dict(SLOW))  # his page is open
    expect(badge).to_have_text("1", timeout=WAIT_MS)

    desk = console.watch(
        new_context(browser, live_url, session=ben_session, locale=locale, **DESKTOP).new_page(), "ben-desk"
    )
    desk.goto("/me/inbox/")
    expect(desk.locator("#inbox-list li.unread")).to_contain_text("Carla")
    desk.get_by_role("button", name=label["read_all"]).click()
    expect(desk.locator("#inbox-list li.unread")).to_have_count(0)
    expect(badge).to_be_hidden(timeout=WAIT_MS)  # the other device hears of it


@EVERY_DEVICE_AND_LANGUAGE
def test_ben_accepts_from_his_inbox_a_challenge_ana_sent_from_her_following_list(
    browser, live_url, accounts, console, locale, device
):
    label = LABELS[locale]
    ana_player, ana_session = accounts("ana@example.com", "Ana")
    ben_player, ben_session = _ben(accounts, locale)
    social_services.follow(ana_player, ben_player)

    ana = console.watch(
        new_context(browser, live_url, session=ana_session, locale=locale, **device).new_page(), "ana"
    )
    ana.goto("/me/following/")
    ana.locator("#following-list li", has_text="Ben").get_by_role(
        "link", name=label["challenge"], exact=True
    ).click()
    expect(ana.locator("main h1")).to_contain_text("Ben")
    ana.get_by_role("button", name=label["send"]).click()
    expect(ana.locator("#challenges-sent")).to_contain_text("Ben")

    ben = console.watch(  # no page of Ben's was open: another device, a fresh context
        new_context(browser, live_url, session=ben_session, locale=locale, **device).new_page(), "ben"
    )
    ben.goto("/")
    expect(ben.locator("#inbox-badge")).to_have_text("1", timeout=WAIT_MS)
    ben.locator("#inbox-link").click()
    line = ben.locator("#inbox-list li.unread")
    expect(line).to_contain_text("Ana")
    line.get_by_role("link").click()
    expect(ben).to_have_url(f"{live_url}/challenges/")
    ben.locator("#challenges-received").get_by_role("button", name=label["accept"]).click()
    expect(ben.locator("#table-app[data-ready='1']")).to_be_attached(timeout=WAIT_MS)
    expect(ben.locator("#hand .card")).to_have_count(10)
    expect(ben.locator("body")).to_contain_text("Ana")
    for page in (ana, ben):
        page.context.close()
