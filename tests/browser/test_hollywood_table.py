"""Hollywood scoring in a real browser: a table opened with the option against a robot, deals
played through the UI, the score sheet in three columns (games 1-3) with the numbers of the
engine's match record, and the three games' results at the end; desktop in English, a phone
in Spanish."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from .conftest import SEAT0, SEAT1, UPCARD_AND_STOCK_TOP, new_context

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WAIT_MS = 15000
MAX_DEALS = 12


def deck_for(dealer: int) -> list[str]:
    """Seat 0 (the owner) always holds SEAT0, which knocks on its first turn; the robot SEAT1."""
    import rules

    first, second = (SEAT1, SEAT0) if dealer == 0 else (SEAT0, SEAT1)
    dealt = [card for pair in zip(first.split(), second.split(), strict=True) for card in pair]
    top = dealt + UPCARD_AND_STOCK_TOP.split()
    return top + [str(card) for card in rules.CARDS if str(card) not in top]


@pytest.fixture
def owner_wins(monkeypatch):
    """Every deal dealt so that the owner wins it: the test's hook at the engine boundary (the
    server runs in this process), as conftest's known_deck; the robot deals first."""
    import rules
    from tables.play import engine

    dealt = engine.new_deal_row

    def seeded(match, number, dealer):
        monkeypatch.setattr(rules, "new_deck", lambda: rules.parse_cards(deck_for(dealer)))
        return dealt(match, number, dealer)

    monkeypatch.setattr(engine, "new_deal_row", seeded)
    monkeypatch.setattr(
        engine,
        "new_match",
        lambda ruleset, first_dealer=None, board=None: rules.Match.new(ruleset, first_dealer=1, board=board),
    )


def match_record(token: str):
    from tables.play import engine
    from tables.play.models import Match

    return engine.load_match(Match.objects.filter(table__invite_token=token).latest("number"))


def deal_on(page: Page) -> None:
    """Against a robot the last deal's end stays on screen until NEXT DEAL."""
    page.locator("#summary-next").click(timeout=WAIT_MS)


def play_winning_deal(page: Page, deals_before: int) -> None:
    """Draw from the stock and knock with the best knock the page offers; wait for the row."""
    expect(page.locator("#stock.can-take")).to_be_visible(timeout=WAIT_MS)
    page.locator("#stock").click()
    expect(page.locator("#hand .card")).to_have_count(11)
    page.locator("#btn-knock").click()
    expect(page.locator("#score-sheet .hollywood-sheet tbody tr")).to_have_count(
        deals_before + 1, timeout=WAIT_MS
    )


def check_sheet(page: Page, token: str) -> None:
    """The side panel's sheet: one row per deal, each game's running totals as the engine has them."""
    record = match_record(token)
    sheet = page.locator("#score-sheet .hollywood-sheet")
    rows = sheet.locator("tbody tr")
    expect(rows).to_have_count(len(record.score_sheet))
    for index, row in enumerate(record.score_sheet):
        cells = rows.nth(index).locator("td")
        expect(cells).to_have_count(5)  # number, games 1-3, result
        for game, (mine, theirs) in enumerate(row.games, start=1):
            expect(cells.nth(game)).to_have_text(f"{mine}–{theirs}")
    for game in record.games:
        state = sheet.locator(f"tfoot td[data-game='{game.number}']")
        expect(state).to_have_class("game-state closed" if game.is_closed else "game-state")


def test_desktop_english_a_hollywood_match_against_a_robot(
    browser, live_url, owner_wins, accounts, console, screenshots
):
    _, session = accounts("alice@example.com", "Alice")
    context = new_context(browser, live_url, session=session)
    page = console.watch(context.new_page(), "alice")
    page.goto("/new/")
    expect(page.locator("#ruleset option[value=oklahoma]")).to_be_attached()
    page.locator("#hollywood").check()  # playgridia: its three games go to 100
    page.get_by_role("button", name="CREATE INVITATION").click()
    expect(page.locator("#table-app[data-ready='1']")).to_be_attached()
    expect(page.locator("#hollywood-pill")).to_have_text("Hollywood")
    token = page.url.rstrip("/").rsplit("/", 1)[-1]
    page.locator("#bot-level").select_option("tito")
    page.get_by_role("button", name="ADD ROBOT").click()
    expect(page.locator("#lobby-panel")).to_contain_text("TITO", timeout=WAIT_MS)
    page.get_by_role("button", name="START THE MATCH").click()  # never dropped (test_table_calls.py)
    expect(page.locator("#hand .card")).to_have_count(10, timeout=WAIT_MS)

    headers = page.locator("#score-sheet .hollywood-sheet thead th")
    for deals in range(MAX_DEALS):
        if deals:
            deal_on(page)
        play_winning_deal(page, deals)
        check_sheet(page, token)
        if deals == 1:
            expect(headers).to_have_text(["#", "Game 1", "Game 2", "Game 3", "Result"])
            page.screenshot(path=str(screenshots / "desktop-hollywood.png"))
        if match_record(token).is_over:
            break
    record = match_record(token)
    assert record.is_over and record.winner == 0 and all(game.winner == 0 for game in record.games)

    summary = page.locator("#summary")
    expect(summary).to_contain_text("Match 1 is over", timeout=WAIT_MS)
    expect(summary).to_contain_text("The three games")
    results = summary.locator(".hollywood-results tr.game-result")
    expect(results).to_have_count(3)
    for game, scores in zip(record.games, record.game_scores, strict=True):
        line = results.nth(game.number - 1)
        expect(line.locator("th")).to_have_text(f"Game {game.number} · won by Alice")
        mine = scores[0]
        expect(line.locator("td").first).to_have_text(
            f"{mine.deal_points} + {mine.game_bonus} + {mine.deal_bonus} = {mine.total}"
        )
    expect(summary.locator(".hollywood-sheet tfoot td.closed")).to_have_count(3)
    page.screenshot(path=str(screenshots / "desktop-hollywood-final.png"))
    context.close()


def test_phone_spanish_a_hollywood_table_against_a_robot(
    browser, live_url, owner_wins, accounts, console, screenshots
):
    from tables.play import services

    alice, session = accounts("alice@example.com", "Alice")
    table = services.create_table(alice, ruleset="classic", hollywood=True)
    services.add_bot(table.invite_token, alice, "tito")
    services.start_match(table.invite_token, alice)
    phone = {
        "viewport": {"width": 390, "height": 844},
        "is_mobile": True,
        "has_touch": True,
        "locale": "es-ES",
    }
    context = new_context(browser, live_url, session=session, device_scale_factor=2, **phone)
    page = console.watch(context.new_page(), "phone")
    page.goto(f"/t/{table.invite_token}/")
    expect(page.locator("#table-app[data-ready='1']")).to_be_attached()
    expect(page.locator("html")).to_have_attribute("lang", "es")

    for deals in range(3):  # classic: pass the upcard when it is offered, then draw and knock
        if deals:
            deal_on(page)
        offer, stock = page.locator("#btn-pass"), page.locator("#stock.can-take")
        expect(offer.or_(stock)).to_be_visible(timeout=WAIT_MS)
        if offer.is_visible():
            expect(offer).to_have_text("PASAR")
            offer.tap()
        play_winning_deal(page, deals)
        check_sheet(page, table.invite_token)
    headers = page.locator("#score-sheet .hollywood-sheet thead th")
    expect(headers).to_have_text(["#", "Partida 1", "Partida 2", "Partida 3", "Resultado"])
    games = match_record(table.invite_token).games
    # the owner's third won deal is its first in game 3, its second in game 2 (game 1 may be closed)
    assert [game.deals_won[0] for game in games[1:]] == [2, 1]
    expect(page.locator("#score-sheet .hollywood-sheet tfoot")).to_contain_text("abierta")
    page.locator("#summary-close").tap()  # the third deal's end stays open until closed
    page.locator("#btn-chat").tap()  # on a phone the scores and the chat open over the table
    expect(page.locator("#score-sheet .hollywood-sheet")).to_be_visible()
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the page scrolls sideways: {width}px wide"
    page.screenshot(path=str(screenshots / "phone-hollywood.png"))
    context.close()
