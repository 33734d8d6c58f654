"""The table's layout measured in a real browser: a phone's hand is large enough to tap, the
hand and DRAW fit the screen, RESIGN sits away from the play buttons, a laptop screen shows every
control, and a 40-character name neither clips the score sheet nor overlaps the chart."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from .conftest import new_context
from .test_table_page import open_table, start_table_through_services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
LAPTOP = {"viewport": {"width": 1366, "height": 768}}
MIN_CARD_WIDTH = 60
MIN_TAP_STRIP = 32
# The felt left between the opponent's fan and the piles on a phone.
MAX_EMPTY_FELT = 48
LONG_NAME = "Maximiliana Guadalupe de los Santos Ortiz"[:40]

CARD_BOXES = "cards => cards.map(c => { const r = c.getBoundingClientRect(); return {code: c.dataset.card, left: r.left, right: r.right, top: r.top, bottom: r.bottom, width: r.width}; })"


def tap_strips(cards: list[dict]) -> list[tuple[str, float]]:
    """What of each card shows: up to the next card's left edge when that card is in the same
    row, else the whole card (the last of a row)."""
    strips = []
    for index, box in enumerate(cards):
        after = cards[index + 1] if index + 1 < len(cards) else None
        same_row = after is not None and abs(after["top"] - box["top"]) < box["width"] * 0.5
        strips.append((box["code"], after["left"] - box["left"] if same_row else box["width"]))
    return strips


def in_viewport(page: Page, selector: str) -> dict:
    box = page.locator(selector).evaluate(
        "e => { const r = e.getBoundingClientRect(); return {top: r.top, bottom: r.bottom, left: r.left, right: r.right}; }"
    )
    size = page.viewport_size
    assert box["top"] >= 0 and box["left"] >= 0, (selector, box)
    assert box["bottom"] <= size["height"] and box["right"] <= size["width"], (selector, box, size)
    return box


@pytest.mark.parametrize("locale", ["en-US", "es-ES"])
def test_a_phone_hand_is_large_enough_to_tap_and_fits_the_screen(
    browser, live_url, known_deck, accounts, console, screenshots, locale
):
    alice, session = accounts("alice@example.com", "Alice")
    bob, _ = accounts("bob@example.com", "Bob")
    token = start_table_through_services(alice, bob, target=100)
    context = new_context(browser, live_url, session=session, locale=locale, **PHONE)
    page = console.watch(context.new_page(), "phone")
    open_table(page, f"/t/{token}/")
    assert page.evaluate("window.scrollY") == 0

    # Before drawing: ten cards and DRAW, all on screen without scrolling.
    draw = page.locator("#btn-draw")
    expect(draw).to_be_visible()
    in_viewport(page, "#btn-draw")
    in_viewport(page, "#hand")
    # RESIGN is not among the play buttons: it waits in the table menu, with a confirmation.
    expect(page.locator("#actions #btn-resign")).to_have_count(0)
    expect(page.locator("#menu-resign")).to_be_hidden()
    fan = page.locator("#fan-top").bounding_box()
    piles = page.locator("#piles").bounding_box()
    empty = piles["y"] - (fan["y"] + fan["height"])
    assert empty <= MAX_EMPTY_FELT, f"{empty:.0f}px of empty felt between the opponent's fan and the piles"

    draw.tap()
    expect(page.locator("#hand .card")).to_have_count(11)
    # In meld groups, and as one run of eleven cards sorted by suit.
    for sort in ("suit", "groups"):
        page.locator(f"#sort-modes [data-sort='{sort}']").tap()
        expect(page.locator(f"#sort-modes [data-sort='{sort}']")).to_have_attribute("aria-pressed", "true")
        cards = page.locator("#hand .card").evaluate_all(CARD_BOXES)
        narrow = [(box["code"], box["width"]) for box in cards if box["width"] < MIN_CARD_WIDTH]
        assert not narrow, f"cards narrower than {MIN_CARD_WIDTH}px: {narrow}"
        thin = [(code, round(strip)) for code, strip in tap_strips(cards) if strip < MIN_TAP_STRIP]
        assert not thin, f"sorted by {sort}, tap strips under {MIN_TAP_STRIP}px: {thin}"
        for box in cards:
            assert box["left"] >= 0 and box["right"] <= 390 and box["top"] >= 0 and box["bottom"] <= 844, box
    in_viewport(page, "#hand")
    in_viewport(page, "#btn-knock")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert page.evaluate("window.scrollY") == 0
    name = "phone-eleven-cards.png" if locale == "en-US" else "phone-eleven-cards-es.png"
    page.screenshot(path=str(screenshots / name), animations="disabled")

    # Resigning from the menu asks once more before it gives up the match.
    page.locator("#btn-menu").tap()
    resign = page.locator("#menu-resign")
    expect(resign).to_be_visible()
    resign.tap()
    expect(page.locator("#menu")).to_be_visible()
    expect(resign).to_have_text("CONFIRM: RESIGN" if locale == "en-US" else "CONFIRMAR: ABANDONAR")
    resign.tap()
    expect(page.locator("#summary")).to_be_visible(timeout=15000)
    context.close()


def test_a_laptop_screen_shows_every_control_of_the_table(
    browser, live_url, known_deck, accounts, console, screenshots
):
    alice, session = accounts("alice@example.com", "Alice")
    bob, _ = accounts("bob@example.com", "Bob")
    token = start_table_through_services(alice, bob, target=100)
    context = new_context(browser, live_url, session=session, **LAPTOP)
    page = console.watch(context.new_page(), "laptop")
    open_table(page, f"/t/{token}/")
    page.locator("#btn-draw").click()
    expect(page.locator("#hand .card")).to_have_count(11)
    page.locator("#btn-points").click()  # every control stays put while in use
    assert page.evaluate("window.scrollY") == 0
    page.screenshot(path=str(screenshots / "laptop-1366x768.png"), animations="disabled")
    # The felt's controls (top bar, piles, buttons, sort bar) and the side panel's (chat).
    assert not controls_cut_off(page, "#felt, #side", minimum=12)
    cards = page.locator("#hand .card").evaluate_all(CARD_BOXES)
    assert all(box["bottom"] <= 768 for box in cards), cards
    # The side panel scrolls by itself: its score sheet and chat are reachable inside it.
    side = page.locator("#side").bounding_box()
    assert side["y"] + side["height"] <= 768
    # And the table menu's.
    page.locator("#btn-menu").click()
    expect(page.locator("#menu")).to_be_visible()
    assert not controls_cut_off(page, "#menu", minimum=5)
    context.close()


def controls_cut_off(page: Page, within: str, minimum: int) -> list[dict]:
    """The shown buttons, selects and inputs inside ``within`` that are not wholly on screen."""
    selector = ", ".join(
        f"{box} {kind}" for box in within.split(", ") for kind in ("button", "select", "input")
    )
    controls = page.locator(selector).evaluate_all(
        "els => els.filter(e => e.offsetParent !== null && !e.closest('[hidden]') && !e.closest('#summary'))"
        ".map(e => { const r = e.getBoundingClientRect(); return {id: e.id || e.textContent.trim(), top: r.top, bottom: r.bottom, left: r.left, right: r.right}; })"
    )
    assert len(controls) >= minimum, controls
    size = page.viewport_size
    return [
        c
        for c in controls
        if c["top"] < 0 or c["left"] < 0 or c["bottom"] > size["height"] or c["right"] > size["width"]
    ]


CHART_AND_LABELS = """() => {
  const svg = document.querySelector('#score-sheet svg');
  const box = svg && svg.getBoundingClientRect();
  if (!box || box.width === 0) return null;
  const labels = [...svg.querySelectorAll('text')].map(e => {
    const r = e.getBoundingClientRect();
    return {text: e.textContent, left: r.left, right: r.right, top: r.top, bottom: r.bottom};
  });
  if (!labels.length || labels.some(l => l.right - l.left === 0)) return null;
  return {chart: {x: box.left, width: box.width}, labels};
}"""


def test_a_forty_character_name_neither_clips_the_score_sheet_nor_overlaps_the_chart(
    browser, live_url, known_deck, accounts, console, screenshots
):
    from tables.play import services

    alice, session = accounts("alice@example.com", LONG_NAME)
    bob, _ = accounts("bob@example.com", "Bartholomew Fitzgerald-Montgomery Smith")
    token = start_table_through_services(alice, bob, target=100)
    # Alice draws, throws K♦; Bob takes it and throws K♥; Alice draws A♥ and knocks: one deal
    # on the score sheet and the chart.
    for player, action in (
        (alice, "draw_stock"),
        (alice, "discard KD"),
        (bob, "take_discard"),
        (bob, "discard KH"),
        (alice, "draw_stock"),
        (alice, "knock 5H"),
    ):
        services.apply_move(token, player, action, None)
    context = new_context(browser, live_url, session=session, **LAPTOP)
    page = console.watch(context.new_page(), "alice")
    open_table(page, f"/t/{token}/")
    sheet = page.locator("#score-sheet .score-sheet")
    expect(sheet).to_be_visible()
    # The socket's snapshot may render the sheet again after the page's own state: measure once
    # every cell has its layout (cells caught between two renders measure 0 wide).
    page.wait_for_function(
        "() => { const cells = document.querySelectorAll('#score-sheet .score-sheet th, #score-sheet .score-sheet td');"
        " return cells.length > 0 && [...cells].every(e => e.getBoundingClientRect().width > 0); }"
    )
    box = page.locator("#score-sheet").bounding_box()
    cells = sheet.locator("th, td").evaluate_all(
        "els => els.map(e => { const r = e.getBoundingClientRect(); return {text: e.textContent, left: r.left, right: r.right, clipped: e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).textOverflow !== 'ellipsis'}; })"
    )
    outside = [c for c in cells if c["right"] > box["x"] + box["width"] + 0.5 or c["left"] < box["x"] - 0.5]
    assert not outside, f"score sheet cells outside its box: {outside}; {_where_the_sheet_is(page)}"
    assert not [c for c in cells if c["clipped"]], cells
    # A long name is cut with an ellipsis and given in full on hover.
    names = sheet.locator("[title]").evaluate_all("els => els.map(e => e.title)")
    assert LONG_NAME in names, names
    # The chart and its labels measured in one go, once laid out: a render between two separate
    # reads (the socket's snapshot) would leave the second with no element to measure.
    measured = page.wait_for_function(CHART_AND_LABELS).json_value()
    chart, labels = measured["chart"], measured["labels"]
    for label in labels:
        assert label["left"] >= chart["x"] - 0.5 and label["right"] <= chart["x"] + chart["width"] + 0.5, (
            label
        )
    overlapping = [
        (a["text"], b["text"])
        for i, a in enumerate(labels)
        for b in labels[i + 1 :]
        if a["left"] < b["right"]
        and b["left"] < a["right"]
        and a["top"] < b["bottom"]
        and b["top"] < a["bottom"]
    ]
    assert not overlapping, f"chart labels overlap: {overlapping}"
    page.locator("#scores").screenshot(
        path=str(screenshots / "score-sheet-long-names.png"), animations="disabled"
    )
    context.close()


def _where_the_sheet_is(page) -> str:
    """What the page shows when the score sheet's cells have no layout (seen only in some orders
    of the whole suite): its address, the side panel's display and the sheet's markup."""
    return page.evaluate(
        "() => JSON.stringify({url: location.href, visibility: document.visibilityState,"
        " side: getComputedStyle(document.getElementById('side')).display,"
        " sheetBox: document.getElementById('score-sheet').getBoundingClientRect().toJSON(),"
        " viewport: [innerWidth, innerHeight], html: document.getElementById('score-sheet').outerHTML.slice(0, 1500)})"
    )
