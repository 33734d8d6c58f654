"""LUNA's review on the archive's replay of a deal: a player opens a finished deal of their own,
asks for the review, sees the marks beside the moves, each seat's chance chart with the step
shown marked as the keyboard steps, the summary and the thresholds, and jumps to a marked move
by clicking its mark (English on a desktop, Spanish on a phone); an anonymous visitor of a public
table's match is asked to log in, then reads the review once a player has asked for it. The
review is real (eager Celery runs it in the server's process) with LUNA's own budget: the deal
has two decisions. No console error, no failed request."""

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
        "counter": "Move {step} of 2",
        "login": "Log in to ask for a review",
    },
    "es-ES": {
        "button": "Revisar esta mano",
        "heading": "Decisiones de Alice",
        "summary": re.compile(r"Ninguna imprecisión|imprecisi|error"),
        "thresholds": re.compile(r"imprecisión \?! desde [\d.]+ puntos"),
        "accuracy": re.compile(r"^Precisión: \d+$"),
        "counter": "Jugada {step} de 2",
        "login": "Inicia sesión para pedir una revisión",
    },
}


def finished_against_tito(alice, **options):
    """Alice (seat 0, first to play) draws 5♥ and knocks with K♦ against TITO: one deal decides
    the match, so it is over, in the archive, with Alice's two decisions to review."""
    from tables.play import services
    from tables.play.models import Match, Table

    table = services.create_table(alice, **options)
    services.add_bot(table.invite_token, alice, "tito")
    services.start_match(table.invite_token, alice)
    for action in ("draw_stock", "knock KD"):
        version = Table.objects.get(pk=table.pk).version
        services.apply_move(table.invite_token, alice, action, version)
    match = Match.objects.get(table=table)
    assert match.status == Match.Status.OVER
    return match


def chart_marker_x(page) -> float:
    return float(page.locator("#replay-review svg.review-chart line.now").first.get_attribute("x1"))


@pytest.mark.parametrize("device", [DESKTOP, PHONE], ids=["desktop-english", "phone-spanish"])
def test_a_player_reviews_a_finished_deal_on_its_replay(
    browser, live_url, known_deck, accounts, console, screenshots, device
):
    alice, session = accounts("alice@example.com", "Alice")
    match = finished_against_tito(alice)
    texts = TEXTS[device["locale"]]
    context = new_context(browser, live_url, session=session, **device)
    page = console.watch(context.new_page(), "alice")
    page.goto(f"/matches/{match.pk}/deals/1/")
    review = page.locator("#replay-review")
    button = review.get_by_role("button", name=texts["button"])
    expect(button).to_be_enabled()  # the stored review was read first: there is none yet
    button.click()

    mine = review.locator(".review-seat[data-seat='0']")
    expect(mine.locator("h3")).to_have_text(texts["heading"], timeout=WAIT_MS)
    expect(review.locator(".review-seat")).to_have_count(2)  # the match is over: TITO's seat too
    expect(mine.locator(".review-summary")).to_have_text(texts["summary"])
    expect(mine.locator(".review-accuracy")).to_have_text(texts["accuracy"])
    expect(review.locator(".review-thresholds")).to_contain_text(texts["thresholds"])
    expect(button).to_have_count(0)
    # the marks: beside Alice's two moves in the replay's own list, none beside the deal
    marks = page.locator("#replay-moves .review-mark")
    expect(marks).to_have_count(2)
    assert [marks.nth(i).get_attribute("data-step") for i in range(2)] == ["1", "2"]
    # the chart spans the deal; the step shown is marked on it and follows the keyboard
    chart = mine.locator("svg.review-chart")
    expect(chart).to_be_visible()
    expect(chart.locator("circle")).to_have_count(4)  # the start, two decisions, the end
    counter = page.locator("#replay-counter")
    page.keyboard.press("Home")
    expect(counter).to_have_text(texts["counter"].format(step=0))
    start = chart_marker_x(page)
    page.keyboard.press("End")
    expect(counter).to_have_text(texts["counter"].format(step=2))
    end = chart_marker_x(page)
    assert end > start
    expect(page.locator("#replay-move .review-now")).to_be_visible()
    # clicking a mark jumps the replay to its step
    page.locator("#replay-moves .review-mark[data-step='1']").click()
    expect(counter).to_have_text(texts["counter"].format(step=1))
    expect(page).to_have_url(re.compile(r"\?step=1$"))
    assert start < chart_marker_x(page) < end
    expect(page.locator("#replay-move .review-now .mark")).to_have_text(
        page.locator("#replay-moves .review-mark[data-step='1']").inner_text().strip()
    )
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= device["viewport"]["width"], f"the page scrolls sideways: {width}px"
    name = "phone" if device.get("is_mobile") else "desktop"
    page.evaluate("window.scrollTo(0, 0)")  # the sticky controls back at the top for the picture
    page.screenshot(path=str(screenshots / f"{name}-replay-review.png"), full_page=True)
    # and so does a point of a chart (the start: the deal as dealt)
    chart.locator("circle[data-step='0']").click()
    expect(counter).to_have_text(texts["counter"].format(step=0))
    context.close()


def test_an_anonymous_visitor_reads_a_public_matchs_review_and_is_asked_to_log_in_for_one(
    browser, live_url, known_deck, accounts, console
):
    from tables.reviews import services as reviews

    alice, _ = accounts("alice@example.com", "Alice")
    match = finished_against_tito(alice, visibility="public")
    context = new_context(browser, live_url, **PHONE)
    page = console.watch(context.new_page(), "anonymous")
    page.goto(f"/matches/{match.pk}/deals/1/")
    review = page.locator("#replay-review")
    expect(review.get_by_role("link", name=TEXTS["es-ES"]["login"])).to_be_visible()
    expect(review.get_by_role("button")).to_have_count(0)
    # the table's end-of-deal box says the same to them
    page.goto(f"/t/{match.table.invite_token}/")
    box = page.locator("#review-panel")
    expect(box.get_by_role("link", name=TEXTS["es-ES"]["login"])).to_be_visible()
    expect(box.get_by_role("button")).to_have_count(0)
    page.goto(f"/matches/{match.pk}/deals/1/")

    where = reviews.deal_by_match(match.pk, 1)
    _, to_run = reviews.request_review(where, alice)  # Alice asks; a worker computes it
    for review_id in to_run:
        assert reviews.run_review(review_id) == "done"
    page.reload()
    expect(review.locator(".review-seat")).to_have_count(2)
    expect(page.locator("#replay-moves .review-mark")).to_have_count(2)
    expect(review.get_by_role("link", name=TEXTS["es-ES"]["login"])).to_have_count(0)
    context.close()
