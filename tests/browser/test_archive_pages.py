"""The archive in a real browser: a player steps through a finished deal of their own with the
keyboard and the buttons (phone and desktop, English and Spanish), each step the engine's
position; a stranger is refused a private table's match and shown a public one. No console
error and no failed request."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from .conftest import new_context

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
COUNTER = {"en-US": "Move {step} of {total}", "es-ES": "Jugada {step} de {total}"}
LONG_DEAL = 12
REPLAY_LINK = {"en-US": "Replay", "es-ES": "Repetición"}


def finished_match(owner, guest, **options):
    """A match played to its end through the writers, with the helpers' plain strategy (that
    does not knock before turn LONG_DEAL, so that a deal has moves to step through)."""
    import rules
    from tables.play import engine, services
    from tables.play.models import Deal, Match, Table
    from tests.tables.helpers import choose_action

    table = services.create_table(owner, **options)
    token = table.invite_token
    services.join_table(token, guest)
    services.start_match(token, owner)
    for turn in range(2000):
        table = Table.objects.select_related("current_deal__match", "seat0", "seat1").get(invite_token=token)
        deal, match = table.current_deal, table.current_deal.match
        if match.status == Match.Status.OVER:
            return match
        if deal.status != Deal.Status.PLAYING:
            services.next_deal(token, owner, table.version)
            continue
        state = engine.load_deal(deal)
        seat = state.to_play
        view = state.view(seat).to_dict()
        action = choose_action(view, turn)
        if turn < LONG_DEAL and action.split()[0] in ("knock", "big_gin"):  # play on a while
            action = f"discard {rules.best_discard(view['hand'], exclude=view['just_taken']).card}"
        services.apply_move(token, table.seats[seat], action, table.version)
    raise AssertionError("the match did not end")


class RequestWatch:
    """Requests that failed or were answered with an error, on the pages it watches."""

    def __init__(self) -> None:
        self.failures: list[str] = []

    def _failed(self, request) -> None:
        # As the console fixture: a request cut short because the test navigated (the icon of
        # the page it left, say) is not a failure of the site.
        if request.failure != "net::ERR_ABORTED":
            self.failures.append(f"failed {request.url}: {request.failure}")

    def watch(self, page: Page) -> Page:
        page.on("requestfailed", self._failed)
        page.on(
            "response",
            lambda response: (
                response.status >= 400 and self.failures.append(f"{response.status} {response.url}")
            ),
        )
        return page


def engine_hands(deal_row, step: int) -> list[set[str]]:
    from tables.archive import selectors as archive
    from tables.play import engine

    state = engine.replay_row(deal_row, archive.actions_of(deal_row)[:step])
    return [{str(card) for card in state.hand(seat)} for seat in (0, 1)]


def shown_hands(page: Page) -> dict[str, set[str]]:
    return {
        place: set(
            page.locator(f"#replay-hand-{place} .card").evaluate_all(
                "cards => cards.map(c => c.dataset.card)"
            )
        )
        for place in ("top", "bottom")
    }


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
@pytest.mark.parametrize("locale", ["en-US", "es-ES"])
def test_a_player_replays_a_finished_deal_of_their_own_with_the_keyboard(
    browser, live_url, known_deck, accounts, console, screenshots, viewport, locale
):
    alice, session = accounts("alice@example.com", "Alice")
    bob, _ = accounts("bob@example.com", "Bob")
    match = finished_match(alice, bob)
    deal = match.deals.filter(status="over").order_by("number").last()
    total = deal.moves.count()
    counter = COUNTER[locale]
    requests = RequestWatch()
    context = new_context(browser, live_url, session=session, locale=locale, viewport=viewport)
    page = requests.watch(console.watch(context.new_page(), "alice"))

    page.goto(f"/matches/{match.pk}/")
    expect(page.locator("main h1")).to_contain_text("Alice")
    page.get_by_role("link", name=REPLAY_LINK[locale]).last.click()
    expect(page).to_have_url(re.compile(rf"/matches/{match.pk}/deals/{deal.number}/$"))
    expect(page.locator("#replay-counter")).to_have_text(counter.format(step=0, total=total))
    expect(page.locator("#replay-hand-bottom .card")).to_have_count(10)
    expect(page.locator("#replay-name-top a")).to_have_attribute("href", f"/players/{bob.pk}/")
    # Alice sits in seat 0 (the owner's seat): her hand is at the bottom, as at the table.
    assert shown_hands(page) == dict(zip(("bottom", "top"), engine_hands(deal, 0), strict=True))

    page.keyboard.press("ArrowRight")
    expect(page.locator("#replay-counter")).to_have_text(counter.format(step=1, total=total))
    expect(page).to_have_url(re.compile(r"\?step=1$"))
    expect(page.locator("#replay-move")).to_contain_text("Alice")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowLeft")
    expect(page.locator("#replay-counter")).to_have_text(counter.format(step=2, total=total))
    assert shown_hands(page) == dict(zip(("bottom", "top"), engine_hands(deal, 2), strict=True))
    expect(page.locator("#replay-showdown")).to_be_hidden()

    page.keyboard.press("End")
    expect(page.locator("#replay-counter")).to_have_text(counter.format(step=total, total=total))
    expect(page.locator("#replay-showdown")).to_be_visible()
    expect(page.locator("#replay-showdown .hands .shown")).to_have_count(2)
    expect(page.locator("#replay-showdown .score-sheet")).to_be_visible()
    expect(page.locator("#replay-next")).to_be_disabled()
    if viewport is PHONE:
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.screenshot(path=screenshots / f"replay-{'phone' if viewport is PHONE else 'desktop'}-{locale}.png")

    page.keyboard.press("Home")
    expect(page.locator("#replay-counter")).to_have_text(counter.format(step=0, total=total))
    expect(page.locator("#replay-prev")).to_be_disabled()
    page.locator("#replay-next").click()
    expect(page.locator("#replay-counter")).to_have_text(counter.format(step=1, total=total))

    # A step is an address: a link opens the replay at that move.
    page.goto(f"/matches/{match.pk}/deals/{deal.number}/?step=3")
    expect(page.locator("#replay-counter")).to_have_text(counter.format(step=3, total=total))
    assert shown_hands(page) == dict(zip(("bottom", "top"), engine_hands(deal, 3), strict=True))
    context.close()
    assert requests.failures == []


def test_a_stranger_is_refused_a_private_match_and_shown_a_public_one(
    browser, live_url, accounts, console, screenshots
):
    alice, _ = accounts("alice@example.com", "Alice")
    bob, _ = accounts("bob@example.com", "Bob")
    _, carol_session = accounts("carol@example.com", "Carol")
    private = finished_match(alice, bob)
    public = finished_match(alice, bob, visibility="public")
    context = new_context(browser, live_url, session=carol_session)

    # The refusal is a plain 404: the private table's match is not even said to exist. (The
    # browser reports a 404 page as a console error, so this page is not the watched one.)
    for path in (f"/matches/{private.pk}/", f"/matches/{private.pk}/deals/1/"):
        response = context.new_page().goto(path)
        assert response.status == 404

    requests = RequestWatch()
    page = requests.watch(console.watch(context.new_page(), "carol"))
    page.goto(f"/matches/{public.pk}/")
    expect(page.locator("main h1")).to_contain_text("Alice")
    page.screenshot(path=screenshots / "match-archive.png", full_page=True)
    page.get_by_role("link", name="Replay").first.click()
    expect(page.locator("#replay-counter")).to_contain_text("Move 0 of")
    page.keyboard.press("End")
    expect(page.locator("#replay-next")).to_be_disabled()
    context.close()
    assert requests.failures == []


def test_a_match_that_ends_while_the_table_is_open_links_to_its_archive_page(
    browser, live_url, known_deck, accounts, console
):
    """The end-of-match box links the match's archive page once it is over, and only for whom
    may see it: not for a stranger watching a private table."""
    from tables.play import services
    from tables.play.models import Match

    alice, alice_session = accounts("alice@example.com", "Alice")
    bob, _ = accounts("bob@example.com", "Bob")
    _, carol_session = accounts("carol@example.com", "Carol")
    table = services.create_table(alice)
    services.join_table(table.invite_token, bob)
    services.start_match(table.invite_token, alice)
    pages = {}
    for who, session in (("alice", alice_session), ("carol", carol_session)):
        pages[who] = console.watch(new_context(browser, live_url, session=session).new_page(), who)
        pages[who].goto(f"/t/{table.invite_token}/")
        expect(pages[who].locator("#table-app[data-ready='1']")).to_be_attached()
    expect(pages["alice"].locator(".replay-match")).to_have_count(0)

    services.resign(table.invite_token, bob)  # while both pages are open
    match = Match.objects.get(table=table, number=1)
    link = pages["alice"].get_by_role("link", name="Replay this match")
    expect(link).to_have_attribute("href", f"/matches/{match.pk}/", timeout=15000)
    expect(pages["carol"].locator(".match-end .outcome")).to_contain_text("Alice wins", timeout=15000)
    expect(pages["carol"].locator(".replay-match")).to_have_count(0)
    # resigned before any deal ended: a line says so instead of an empty score sheet
    ended = "No deal was finished: the match ended by resignation."
    expect(pages["alice"].locator("#summary .no-deal-finished")).to_have_text(ended)
    expect(pages["alice"].locator("#summary table.score-sheet:not(.final-scores)")).to_have_count(0)
    link.click()
    expect(pages["alice"]).to_have_url(re.compile(rf"/matches/{match.pk}/$"))
    expect(pages["alice"].locator("main h1")).to_contain_text("Alice")
    expect(pages["alice"].locator(".no-deal-finished")).to_have_text(ended)
    for page in pages.values():
        page.context.close()


def test_a_player_who_took_the_seat_through_the_page_gets_the_link_to_the_match(
    browser, live_url, known_deck, accounts, console
):
    """Bob opens the invite link of a private table (not yet his: the page was served to a
    stranger), takes the seat there without a reload, plays and wins: his end-of-match box links
    the match's archive page as Alice's does."""
    from tables.play import services
    from tables.play.models import Match

    alice, _ = accounts("alice@example.com", "Alice")
    _, bob_session = accounts("bob@example.com", "Bob")
    table = services.create_table(alice)
    page = console.watch(new_context(browser, live_url, session=bob_session).new_page(), "bob")
    page.goto(f"/t/{table.invite_token}/")
    expect(page.locator("#table-app[data-ready='1']")).to_be_attached()
    page.get_by_role("button", name="TAKE THE SEAT").click()
    expect(page.locator("#join-form")).to_be_hidden(timeout=15000)
    services.start_match(table.invite_token, alice)
    services.resign(table.invite_token, alice)
    match = Match.objects.get(table=table, number=1)
    link = page.get_by_role("link", name="Replay this match")
    expect(link).to_have_attribute("href", f"/matches/{match.pk}/", timeout=15000)
    page.context.close()
