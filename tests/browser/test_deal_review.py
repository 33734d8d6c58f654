"""LUNA's review in the end-of-deal box: a player finishes a deal against TITO, asks for the
review, and sees the verdict marks along the move list, the chance chart and the summary line,
in English on a desktop and in Spanish on a phone. The review is real (eager Celery runs it in
the server's process), with LUNA's own budget: the deal is short."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from .conftest import new_context

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WAIT_MS = 20000
DESKTOP = {"viewport": {"width": 1280, "height": 800}, "locale": "en-US"}
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True, "locale": "es-ES"}
TEXTS = {
    "en-US": {
        "button": "Review this deal",
        "heading": "Alice's decisions",
        "summary": re.compile(r"No inaccuracy|inaccurac|mistake|blunder"),
        "thresholds": re.compile(r"inaccuracy \?! from [\d.]+ points"),
        "accuracy": re.compile(r"^Accuracy: \d+$"),
        "knocked": "Alice knocked, discarding",
    },
    "es-ES": {
        "button": "Revisar esta mano",
        "heading": "Decisiones de Alice",
        "summary": re.compile(r"Ninguna imprecisión|imprecisi|error"),
        "thresholds": re.compile(r"imprecisión \?! desde [\d.]+ puntos"),
        "accuracy": re.compile(r"^Precisión: \d+$"),
        "knocked": "Alice cerró descartando",
    },
}


@pytest.mark.parametrize("device", [DESKTOP, PHONE], ids=["desktop-english", "phone-spanish"])
def test_a_player_asks_for_the_review_of_a_deal_against_tito(
    browser, live_url, known_deck, accounts, console, screenshots, device
):
    from tables.play import services

    alice, session = accounts("alice@example.com", "Alice")
    table = services.create_table(alice)  # one deal decides the match: the box stays up
    services.add_bot(table.invite_token, alice, "tito")
    services.start_match(table.invite_token, alice)
    context = new_context(browser, live_url, session=session, **device)
    page = console.watch(context.new_page(), "alice")
    page.goto(f"/t/{table.invite_token}/")
    expect(page.locator("#table-app[data-ready='1']")).to_be_attached()
    texts = TEXTS[device["locale"]]

    # Alice (seat 0, first to play) draws 5♥ and knocks: the deal, and the match, are over after
    # her two decisions (a bot deals the next deal of a longer match at once).
    page.locator("#stock").click()
    expect(page.locator("#hand .card")).to_have_count(11)
    page.locator("#btn-knock").click()
    summary = page.locator("#summary")
    expect(summary).to_be_visible(timeout=WAIT_MS)

    summary.get_by_role("button", name=texts["button"]).click()
    review = summary.locator("#review-panel")
    mine = review.locator(".review-seat[data-seat='0']")  # the match is over: TITO's seat too
    expect(mine.locator("h4")).to_have_text(texts["heading"], timeout=WAIT_MS)
    expect(review.locator(".review-seat")).to_have_count(2)
    expect(mine.locator(".review-summary")).to_have_text(texts["summary"])
    expect(mine.locator(".review-accuracy")).to_have_text(texts["accuracy"])
    expect(review.locator(".review-thresholds")).to_contain_text(texts["thresholds"])
    # the marks: each of Alice's two decisions marked along the move list, nothing on the others
    moves = mine.locator(".review-moves li")
    expect(moves).to_have_count(2)
    marked = mine.locator(".review-moves li[class^='verdict-']")
    expect(marked).to_have_count(2)
    expect(marked.locator(".mark")).to_have_count(2)
    expect(moves.nth(1)).to_contain_text(texts["knocked"])
    # the chart: the start, one point per decision, the end
    chart = mine.locator("svg.review-chart")
    expect(chart).to_be_visible()
    expect(chart.locator("circle")).to_have_count(4)
    expect(chart.locator("polyline")).to_have_count(1)
    mine.scroll_into_view_if_needed()
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= device["viewport"]["width"], f"the page scrolls sideways: {width}px"
    name = "phone" if device.get("is_mobile") else "desktop"
    page.screenshot(path=str(screenshots / f"{name}-deal-review.png"))
    context.close()
