"""Challenges and seeks in a real browser: a challenge by name accepted and played, and a seek
filtered in the lobby and taken; phone and desktop, Spanish and English."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .conftest import new_context

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WAIT_MS = 10_000
PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
DESKTOP = {"viewport": {"width": 1366, "height": 768}}
LABELS = {
    "en-US": {
        "find": "FIND",
        "challenge": "CHALLENGE",
        "send": "SEND CHALLENGE",
        "accept": "ACCEPT",
        "seek": "POST A SEEK",
        "filter": "FILTER",
        "play": "PLAY",
    },
    "es-ES": {
        "find": "BUSCAR",
        "challenge": "RETAR",
        "send": "ENVIAR RETO",
        "accept": "ACEPTAR",
        "seek": "PUBLICAR BÚSQUEDA",
        "filter": "FILTRAR",
        "play": "JUGAR",
    },
}
CASES = [("en-US", DESKTOP), ("es-ES", PHONE)]


def _play_first_turn(page) -> None:
    """Draw from the stock and throw the first card back: a real move through the page."""
    page.locator("#btn-draw").click()
    expect(page.locator("#hand .card")).to_have_count(11, timeout=WAIT_MS)
    thrown = page.locator("#hand .card").first
    code = thrown.get_attribute("data-card")
    thrown.click()
    thrown.click()
    expect(page.locator("#hand .card")).to_have_count(10, timeout=WAIT_MS)
    expect(page.locator(f"#discard .card[data-card='{code}']")).to_be_visible()


@pytest.mark.parametrize(("locale", "device"), CASES, ids=["en-desktop", "es-phone"])
def test_a_challenge_by_name_is_accepted_and_played(
    browser, live_url, accounts, console, known_deck, locale, device
):
    label = LABELS[locale]
    _, alice_session = accounts("alice@example.com", "Alice")
    _, bob_session = accounts("bob@example.com", "Roberta")
    alice = console.watch(
        new_context(browser, live_url, session=alice_session, locale=locale, **device).new_page(), "alice"
    )
    bob = console.watch(
        new_context(browser, live_url, session=bob_session, locale=locale, **device).new_page(), "bob"
    )

    bob.goto("/lobby/")  # somewhere on the site: the challenge reaches this page as it is sent
    alice.goto("/challenges/")
    alice.locator("#challenge-name").fill("roberta")
    alice.get_by_role("button", name=label["find"]).click()
    alice.locator("#challenge-find").get_by_role("link", name=label["challenge"], exact=True).click()
    expect(alice.locator("main h1")).to_contain_text("Roberta")
    alice.get_by_role("button", name=label["send"]).click()
    expect(alice.locator("#challenges-sent")).to_contain_text("Roberta")
    expect(bob.locator("#toasts")).to_contain_text("Alice", timeout=WAIT_MS)

    bob.goto("/challenges/")
    expect(bob.locator("#challenges-received")).to_contain_text("Alice")
    bob.locator("#challenges-received").get_by_role("button", name=label["accept"]).click()
    expect(bob.locator("#table-app[data-ready='1']")).to_be_attached()
    expect(bob.locator("#hand .card")).to_have_count(10)

    alice.goto("/me/tables/")
    alice.locator("main a[href^='/t/']").first.click()
    expect(alice.locator("#table-app[data-ready='1']")).to_be_attached()
    _play_first_turn(alice)
    expect(bob.locator("#hand .card")).to_have_count(10)
    expect(bob.locator("#last-action")).to_contain_text("Alice", timeout=WAIT_MS)
    for page in (alice, bob):
        page.context.close()


@pytest.mark.parametrize(("locale", "device"), CASES, ids=["en-desktop", "es-phone"])
def test_a_seek_is_filtered_in_the_lobby_and_taken(
    browser, live_url, accounts, console, known_deck, locale, device
):
    label = LABELS[locale]
    _, alice_session = accounts("alice@example.com", "Alice")
    _, bob_session = accounts("bob@example.com", "Bob")
    alice = console.watch(
        new_context(browser, live_url, session=alice_session, locale=locale, **device).new_page(), "alice"
    )
    bob = console.watch(
        new_context(browser, live_url, session=bob_session, locale=locale, **device).new_page(), "bob"
    )

    alice.goto("/new/")
    alice.locator("#ruleset").select_option("reino")
    alice.locator("#turn_seconds").select_option("60")
    alice.get_by_role("button", name=label["seek"]).click()
    expect(alice.locator("#seeks [data-seek]")).to_have_count(1)

    bob.goto("/lobby/")
    bob.locator("#seek-pace").select_option("slow")
    bob.get_by_role("button", name=label["filter"]).click()
    expect(bob.locator("#seeks [data-seek]")).to_have_count(0)
    bob.locator("#seek-ruleset").select_option("reino")
    bob.locator("#seek-pace").select_option("live")
    bob.get_by_role("button", name=label["filter"]).click()
    expect(bob.locator("#seeks [data-seek]")).to_have_count(1)
    bob.locator("#seeks").get_by_role("button", name=label["play"]).click()
    expect(bob.locator("#table-app[data-ready='1']")).to_be_attached()
    expect(bob.locator("#hand .card")).to_have_count(10)
    alice.goto("/lobby/")
    expect(alice.locator("#seeks [data-seek]")).to_have_count(0)
    for page in (alice, bob):
        page.context.close()
