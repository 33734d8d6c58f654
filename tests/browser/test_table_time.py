"""Vacation and more time in the browser, on a desktop in English and a phone in Spanish: a
player goes on vacation from the profile page and the opponent's table shows the clock stopped
and until when (a deadline in the past times nobody out meanwhile); the waiting player gives
more time with "+" and both pages say so."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from playwright.sync_api import Page, expect

from .conftest import new_context

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WAIT_MS = 15000

DESKTOP = {"viewport": {"width": 1280, "height": 800}, "locale": "en-US"}
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True, "locale": "es-ES"}

TEXTS = {
    "en": {
        "go": "GO ON VACATION",
        "end": "END THE VACATION NOW",
        "away": "Alice is on vacation until",
        "mine": "You are on vacation until",
        "stopped": "Stopped:",
        "gave": "You gave Alice more time: +1 day.",
        "got": "Bob gave you more time: +1 day.",
        "two_days": "47 hours left",  # a day and the day that had begun to run
    },
    "es": {
        "go": "IRME DE VACACIONES",
        "end": "TERMINAR LAS VACACIONES AHORA",
        "away": "Alice está de vacaciones hasta",
        "mine": "Estás de vacaciones hasta",
        "stopped": "Parado:",
        "gave": "Diste más tiempo a Alice: +1 día.",
        "got": "Bob te dio más tiempo: +1 día.",
        "two_days": "quedan 47 horas",
    },
}

DEVICES = [pytest.param(DESKTOP, "en", id="desktop-en"), pytest.param(PHONE, "es", id="phone-es")]


def start_table(owner, guest) -> str:
    """A slow table (a day a turn), Alice (the owner, seat 0) to play first."""
    from tables.play import services

    table = services.create_table(owner)
    services.join_table(table.invite_token, guest)
    services.start_match(table.invite_token, owner)
    return table.invite_token


def open_page(browser, live_url, session, device, console, who: str, path: str) -> Page:
    page = console.watch(new_context(browser, live_url, session=session, **device).new_page(), who)
    page.goto(path)
    if path.startswith("/t/"):
        expect(page.locator("#table-app[data-ready='1']")).to_be_attached()
    return page


def bob_watching_alices_turn(browser, live_url, accounts, console, device) -> tuple:
    """Alice and Bob at a slow table, Alice to play: (alice, her session, the table's token, Bob's
    table page, its clock running and nobody on vacation, Alice's profile page)."""
    alice, alice_session = accounts("alice@example.com", "Alice")
    bob, bob_session = accounts("bob@example.com", "Bob")
    token = start_table(alice, bob)
    bobs = open_page(browser, live_url, bob_session, device, console, "bob", f"/t/{token}/")
    expect(bobs.locator("#clock")).to_be_visible()
    expect(bobs.locator("#vacation-note")).to_be_hidden()
    profile = open_page(browser, live_url, alice_session, device, console, "alice", "/me/profile/")
    return alice, alice_session, token, bobs, profile


def press(device: dict, locator) -> None:
    """A tap on a phone, a click on a desktop."""
    if device.get("has_touch"):
        locator.tap()
    else:
        locator.click()


@pytest.mark.parametrize(("device", "lang"), DEVICES)
def test_vacation_stops_a_slow_clock_and_the_opponent_sees_until_when(
    browser, live_url, known_deck, accounts, console, screenshots, device, lang
):
    from django.utils import timezone

    from tables.accounts.models import Player
    from tables.play import services
    from tables.play.models import Deal, Move, Table

    text = TEXTS[lang]
    alice, alice_session, token, bobs, profile = bob_watching_alices_turn(
        browser, live_url, accounts, console, device
    )
    last_day = timezone.now().date() + dt.timedelta(days=2)
    profile.locator("#vacation-until").fill(last_day.isoformat())
    profile.get_by_role("button", name=text["go"]).click()
    expect(profile.locator("#vacation-status")).to_be_visible()
    expect(profile.locator("#vacation-left")).to_contain_text("14")

    expect(bobs.locator("#vacation-note")).to_contain_text(text["away"], timeout=WAIT_MS)
    expect(bobs.locator("#clock-paused")).to_contain_text(text["stopped"])
    expect(bobs.locator("#clock")).to_be_hidden()
    bobs.screenshot(path=str(screenshots / f"vacation-opponent-{lang}.png"))

    # A deadline in the past (a clock set in the instant the vacation began): the sweeper stops it.
    deal = Table.objects.get(invite_token=token).current_deal_id
    now = timezone.now()
    Player.objects.filter(pk=alice.pk).update(vacation_started_at=now - dt.timedelta(hours=1))
    Deal.objects.filter(pk=deal).update(deadline=now - dt.timedelta(seconds=1), paused_left=None)
    services.sweep_overdue()
    assert not Move.objects.filter(source=Move.Source.TIMEOUT).exists()
    expect(bobs.locator("#clock-paused")).to_be_visible(timeout=WAIT_MS)

    alices = open_page(browser, live_url, alice_session, device, console, "alice-table", f"/t/{token}/")
    expect(alices.locator("#vacation-note")).to_contain_text(text["mine"])
    expect(alices.locator("#btn-more-time")).to_be_hidden()  # it is Alice's turn

    profile.get_by_role("button", name=text["end"]).click()
    expect(profile.locator("#vacation-status")).to_have_count(0)
    expect(bobs.locator("#vacation-note")).to_be_hidden(timeout=WAIT_MS)
    expect(bobs.locator("#clock")).to_be_visible()
    expect(bobs.locator("#clock-paused")).to_be_hidden()
    assert Deal.objects.get(pk=deal).deadline is not None
    for page in (bobs, profile, alices):
        page.context.close()


@pytest.mark.parametrize(("device", "lang"), DEVICES)
def test_more_time_given_with_plus_and_both_players_see_it(
    browser, live_url, known_deck, accounts, console, screenshots, device, lang
):
    text = TEXTS[lang]
    alice, alice_session = accounts("alice@example.com", "Alice")
    bob, bob_session = accounts("bob@example.com", "Bob")
    token = start_table(alice, bob)
    alices = open_page(browser, live_url, alice_session, device, console, "alice", f"/t/{token}/")
    bobs = open_page(browser, live_url, bob_session, device, console, "bob", f"/t/{token}/")
    expect(alices.locator("#btn-more-time")).to_be_hidden()
    plus = bobs.locator("#btn-more-time")
    expect(plus).to_be_visible()
    expect(plus).to_have_attribute("aria-label", re.compile(r"\+"))
    press(device, plus)

    expect(bobs.locator("#toasts .toast", has_text=text["gave"])).to_be_visible(timeout=WAIT_MS)
    expect(alices.locator("#toasts .toast", has_text=text["got"])).to_be_visible(timeout=WAIT_MS)
    expect(alices.locator("#clock")).to_contain_text(text["two_days"])
    expect(bobs.locator("#clock")).to_contain_text(text["two_days"])
    width = bobs.evaluate("document.documentElement.scrollWidth")
    assert width <= bobs.viewport_size["width"], f"the page scrolls sideways: {width}px"
    bobs.screenshot(path=str(screenshots / f"more-time-{lang}.png"))
    for page in (alices, bobs):
        page.context.close()
