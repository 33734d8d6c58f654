"""The table page in a real browser: two players play a deal through the UI, a spectator
watches, chat crosses, a reload restores the table, the keyboard plays a turn, a phone shows
the whole hand, the Spanish page speaks Spanish; screenshots for the README."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tables.accounts import services as account_services
from tests.polling import browser_pause, wait_until

from .conftest import new_context

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WAIT_MS = 15000
# For a failure message: the elements that, hidden one at a time, bring the page back to 390 px.
SIDEWAYS_CULPRITS = """[...document.querySelectorAll('body *')].filter(e => e.offsetParent !== null || e.tagName === 'BODY').map(e => {
  const keep = e.style.display; e.style.display = 'none';
  const w = document.documentElement.scrollWidth; e.style.display = keep;
  return [e.tagName + '#' + e.id + '.' + e.className, w];
}).filter(x => x[1] <= 390).slice(0, 12)"""


def card(page: Page, code: str):
    return page.locator(f"#hand .card[data-card='{code}']")


def open_table(page: Page, path: str) -> Page:
    page.goto(path)
    expect(page.locator("#table-app[data-ready='1']")).to_be_attached()
    return page


def drag(page: Page, source, target) -> None:
    """A pointer drag in small steps, as a hand would move."""
    start = source.bounding_box()
    end = target.bounding_box()
    page.mouse.move(start["x"] + start["width"] / 2, start["y"] + start["height"] / 3)
    page.mouse.down()
    page.mouse.move(end["x"] + end["width"] / 2, end["y"] + end["height"] / 2, steps=8)
    page.mouse.up()


def hand_codes(page: Page) -> list[str]:
    return page.locator("#hand .card").evaluate_all("cards => cards.map(c => c.dataset.card)")


def start_table_through_services(owner, guest, **options) -> str:
    """A seated, started table (the deal comes from the seeded deck)."""
    from tables.play import services

    table = services.create_table(owner, **options)
    services.join_table(table.invite_token, guest)
    services.start_match(table.invite_token, owner)
    return table.invite_token


def test_two_players_play_a_deal_spectator_chat_reload_and_rematch(
    browser, live_url, known_deck, accounts, console, screenshots
):
    _, alice_session = accounts("alice@example.com", "Alice")
    owner = new_context(browser, live_url, session=alice_session)
    guest_context = new_context(browser, live_url, has_touch=True)
    a = console.watch(owner.new_page(), "alice")
    g = console.watch(guest_context.new_page(), "guest")

    # Open a table to 100 and invite: the guest comes through the link and takes the seat.
    a.goto("/new/")
    a.locator("#target").fill("100")
    a.get_by_role("button", name="CREATE INVITATION").click()
    expect(a.locator("#table-app[data-ready='1']")).to_be_attached()
    expect(a.get_by_role("button", name="COPY")).to_be_visible()
    invite = a.locator("#invite-link").input_value()
    open_table(g, invite)
    g.locator("#join-name").fill("Gus")
    g.get_by_role("button", name="TAKE THE SEAT").click()
    expect(g.locator("#lobby-panel")).to_contain_text("Gus")
    a.get_by_role("button", name="START THE MATCH").click(timeout=WAIT_MS)
    expect(a.locator("#hand .card")).to_have_count(10)
    expect(g.locator("#hand .card")).to_have_count(10, timeout=WAIT_MS)
    expect(g.locator("#fan-top .card")).to_have_count(10)

    # A third browser opens the link: a spectator, with no hand of its own.
    spectator = console.watch(new_context(browser, live_url).new_page(), "spectator")
    open_table(spectator, invite)
    expect(spectator.locator("#hand-strip")).to_be_hidden()
    expect(spectator.locator("#fan-bottom .card")).to_have_count(10)
    expect(spectator.locator("#fan-top .card")).to_have_count(10)

    # Alice: draw by clicking the stock, discard K♦ by dragging it onto the pile.
    expect(a.locator("#meter-value")).to_have_text("10")
    a.locator("#stock").click()
    expect(a.locator("#hand .card")).to_have_count(11)
    expect(a.locator("#btn-knock")).to_contain_text("KNOCK · 5")  # the best knock, shown before tapping
    a.screenshot(path=str(screenshots / "desktop-classic.png"), animations="disabled")
    drag(a, card(a, "KD"), a.locator("#discard"))
    expect(a.locator("#hand .card")).to_have_count(10)
    expect(g.locator("#discard .card[data-card='KD']")).to_be_visible(timeout=WAIT_MS)
    expect(g.locator("#last-action")).to_contain_text("Alice drew from the stock and discarded K♦")

    # Gus takes K♦ from the pile; it cannot go straight back, and the page says why.
    g.locator("#discard").click()
    expect(card(g, "KD")).to_have_class(re.compile(r"\btaken\b"))
    # Reloading mid-deal restores the table as it was.
    before = sorted(hand_codes(g))
    g.reload()
    expect(g.locator("#table-app[data-ready='1']")).to_be_attached()
    expect(g.locator("#hand .card")).to_have_count(11)
    assert sorted(hand_codes(g)) == before
    card(g, "KD").tap()
    card(g, "KD").tap()
    expect(g.locator("#toasts")).to_contain_text("cannot be discarded this turn")
    expect(g.locator("#hand .card")).to_have_count(11)
    # Double tap discards.
    card(g, "KH").tap()
    card(g, "KH").tap()
    expect(g.locator("#hand .card")).to_have_count(10)

    # Chat crosses to the other player (and the spectator reads the players' channel).
    g.locator("#chat-text").fill("good luck!")
    g.locator("#chat-text").press("Enter")
    expect(a.locator("#chat-log")).to_contain_text("good luck!", timeout=WAIT_MS)
    expect(spectator.locator("#chat-log")).to_contain_text("good luck!", timeout=WAIT_MS)

    # Alice: draw by dragging the stock onto her hand, then knock with one tap.
    expect(a.locator("#stock.can-take")).to_be_visible(timeout=WAIT_MS)
    drag(a, a.locator("#stock"), a.locator("#hand"))
    expect(a.locator("#hand .card")).to_have_count(11)
    expect(a.locator("#meter")).to_have_class(re.compile(r"\bcan-knock\b"))
    knock = a.locator("#btn-knock")
    expect(knock).to_have_text("KNOCK · 1")
    knock.click()

    # Both see the summary: melds, deadwood, the layoffs and the points.
    for page in (a, g):
        summary = page.locator("#summary")
        expect(summary).to_be_visible(timeout=WAIT_MS)
        expect(summary).to_contain_text("Alice knocked and scores")
        expect(summary).to_contain_text("5♠ onto 2♠ 3♠ 4♠")
        expect(summary).to_contain_text("8♣ onto 9♣ 10♣ J♣")
    a.screenshot(path=str(screenshots / "desktop-summary.png"), animations="disabled")

    # Either player deals on. With the socket open, deal-end actions go over it, not over HTTP.
    deal_end_posts: list[str] = []
    for page in (a, g):
        page.on("request", lambda request: _note_deal_end_post(request, deal_end_posts))
    g.locator("#summary-next").click()
    expect(g.locator("#hand .card")).to_have_count(10, timeout=WAIT_MS)
    expect(a.locator("#deal-pill")).to_contain_text("Deal 2", timeout=WAIT_MS)

    # Alice resigns from the table menu (two taps); a rematch is offered and accepted.
    a.locator("#btn-menu").click()
    resign = a.locator("#menu-resign")
    resign.click()
    resign.click()
    expect(a.locator("#summary")).to_contain_text("Match 1 is over", timeout=WAIT_MS)
    a.locator("#btn-rematch").click()
    accept = g.locator("#btn-rematch-accept")
    expect(accept).to_be_visible(timeout=WAIT_MS)
    accept.click()
    expect(g.locator("#hand .card")).to_have_count(10, timeout=WAIT_MS)
    expect(a.locator("#hand .card")).to_have_count(10, timeout=WAIT_MS)
    expect(a.locator("#deal-pill")).to_contain_text("Deal 1")
    assert deal_end_posts == []
    for context in (owner, guest_context, spectator.context):
        context.close()


def _note_deal_end_post(request, posts: list[str]) -> None:
    if request.method == "POST" and re.search(r"/(next-deal|resign|rematch/\w+)$", request.url):
        posts.append(request.url)


def test_the_keyboard_alone_plays_a_turn(browser, live_url, known_deck, accounts, console):
    alice, session = accounts("alice@example.com", "Alice")
    bob, _ = accounts("bob@example.com", "Bob")
    token = start_table_through_services(alice, bob)
    context = new_context(browser, live_url, session=session)
    page = console.watch(context.new_page(), "alice")
    open_table(page, f"/t/{token}/")

    page.keyboard.press("ArrowUp")  # to the buttons: DRAW comes first
    expect(page.locator("#btn-draw")).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.locator("#hand .card")).to_have_count(11)
    page.keyboard.press("ArrowDown")  # back to the cards
    page.keyboard.press("ArrowRight")
    focused = page.evaluate("document.activeElement.dataset.card")
    assert focused in hand_codes(page)
    page.keyboard.press("Enter")  # select
    expect(card(page, focused)).to_have_attribute("aria-pressed", "true")
    page.keyboard.press("Enter")  # and discard
    expect(page.locator("#hand .card")).to_have_count(10)
    expect(page.locator(f"#discard .card[data-card='{focused}']")).to_be_visible()
    page.keyboard.press("p")
    expect(page.locator("#menu")).to_be_visible()
    page.keyboard.press("Escape")
    expect(page.locator("#menu")).to_be_hidden()
    context.close()


def test_moves_go_over_the_open_table_socket_and_over_http_without_one(
    browser, live_url, known_deck, accounts, console
):
    """Alice's page has its socket: her draw and discard travel on it, with no HTTP request, and
    her page shows the result. Bob's socket is closed as soon as it opens: his page posts."""
    alice, alice_session = accounts("alice@example.com", "Alice")
    bob, bob_session = accounts("bob@example.com", "Bob")
    token = start_table_through_services(alice, bob)
    posted: dict[str, list[str]] = {"alice": [], "bob": []}  # HTTP move requests, by page
    pages = {}
    for name, session in (("alice", alice_session), ("bob", bob_session)):
        page = console.watch(new_context(browser, live_url, session=session).new_page(), name)
        page.on(
            "request",
            lambda request, name=name: (
                posted[name].append(request.url) if request.url.endswith("/moves") else None
            ),
        )
        pages[name] = page
    pages["bob"].route_web_socket(re.compile(r"/ws/"), lambda socket: socket.close())
    sent, snapshots = [], []

    def watch(socket):
        socket.on("framesent", lambda frame: sent.append(frame))
        socket.on("framereceived", lambda frame: snapshots.append(frame) if '"snapshot"' in frame else None)

    pages["alice"].on("websocket", watch)
    alice_page = open_table(pages["alice"], f"/t/{token}/")
    bob_page = open_table(pages["bob"], f"/t/{token}/")
    wait_until(
        lambda: snapshots,
        timeout=5,
        pause=browser_pause(alice_page),
        message="Alice's table socket sent its snapshot",
    )

    alice_page.locator("#btn-draw").click()
    expect(alice_page.locator("#hand .card")).to_have_count(11, timeout=WAIT_MS)
    thrown = hand_codes(alice_page)[0]
    card(alice_page, thrown).click()
    card(alice_page, thrown).click()
    expect(alice_page.locator("#hand .card")).to_have_count(10, timeout=WAIT_MS)
    expect(alice_page.locator(f"#discard .card[data-card='{thrown}']")).to_be_visible()
    moves = [frame for frame in sent if '"type":"move"' in frame.replace(" ", "")]
    assert len(moves) == 2 and '"draw_stock"' in moves[0] and thrown in moves[1]
    assert posted["alice"] == []

    expect(bob_page.locator(f"#discard .card[data-card='{thrown}']")).to_be_visible(timeout=WAIT_MS)
    bob_page.locator("#btn-draw").click()
    expect(bob_page.locator("#hand .card")).to_have_count(11, timeout=WAIT_MS)
    assert len(posted["bob"]) == 1
    expect(alice_page.locator("#last-action")).to_contain_text("Bob", timeout=WAIT_MS)
    for page in (alice_page, bob_page):
        page.context.close()


def test_phone_in_spanish_shows_the_whole_hand(browser, live_url, known_deck, accounts, console, screenshots):
    alice, session = accounts("alice@example.com", "Alice")
    bob, _ = accounts("bob@example.com", "Bob")
    token = start_table_through_services(alice, bob, target=100)
    phone = {
        "viewport": {"width": 390, "height": 844},
        "is_mobile": True,
        "has_touch": True,
        "locale": "es-ES",
    }
    context = new_context(browser, live_url, session=session, device_scale_factor=2, **phone)
    page = console.watch(context.new_page(), "phone")
    open_table(page, f"/t/{token}/")

    expect(page.locator("html")).to_have_attribute("lang", "es")
    for label in ("ROBAR", "TOMAR DEL POZO"):
        expect(page.get_by_role("button", name=label, exact=True)).to_be_visible()
    expect(page.locator(".sort-bar")).to_contain_text("ORDENAR")
    expect(page.locator("#btn-points")).to_have_text("SUELTOS")
    expect(card(page, "KD")).to_have_attribute("aria-label", re.compile("rey de diamantes"))

    page.get_by_role("button", name="ROBAR", exact=True).tap()
    expect(page.locator("#hand .card")).to_have_count(11)
    expect(page.locator("#btn-knock")).to_have_text("CERRAR · 5")
    width = page.evaluate("document.documentElement.scrollWidth")
    wide = page.evaluate(SIDEWAYS_CULPRITS)
    assert width <= 390, f"the page scrolls sideways: {width}px wide, because of {wide}"
    for box in page.locator("#hand .card").evaluate_all(
        "cards => cards.map(c => c.getBoundingClientRect()).map(r => [r.left, r.right])"
    ):
        assert box[0] >= 0 and box[1] <= 390, box
    page.screenshot(path=str(screenshots / "phone-classic.png"), animations="disabled")

    page.locator("#btn-menu").tap()
    page.locator("#menu-deck").select_option("four_colour")
    page.locator("#menu-close").tap()
    expect(page.locator("#table-app")).to_have_class(re.compile(r"\bdeck-four_colour\b"))
    page.screenshot(path=str(screenshots / "phone-four-colour.png"), animations="disabled")
    context.close()


def test_desktop_dark_deck_and_the_spanish_invitation(
    browser, live_url, known_deck, accounts, console, screenshots
):
    alice, session = accounts("alice@example.com", "Alice")
    bob, _ = accounts("bob@example.com", "Bob")

    account_services.update_profile(alice, deck_design="dark")
    token = start_table_through_services(alice, bob, target=100)
    context = new_context(browser, live_url, session=session)
    page = console.watch(context.new_page(), "alice")
    open_table(page, f"/t/{token}/")
    page.locator("#stock").click()
    expect(page.locator("#hand .card")).to_have_count(11)
    page.locator("#btn-hint").click()
    expect(card(page, "KD")).to_have_class(re.compile(r"\bhint\b"))
    page.screenshot(path=str(screenshots / "desktop-dark.png"), animations="disabled")

    spanish = new_context(browser, live_url, session=session, locale="es-ES")
    invite = console.watch(spanish.new_page(), "spanish")
    invite.goto("/new/")
    expect(invite.get_by_role("button", name="CREAR INVITACIÓN")).to_be_visible()
    invite.get_by_role("button", name="CREAR INVITACIÓN").click()
    for label in ("COPIAR", "AGREGAR ROBOT"):
        expect(invite.get_by_role("button", name=label)).to_be_visible()
    for other in (context, spanish):
        other.close()


def test_a_rematch_offer_shows_when_it_lapses_and_then_that_it_lapsed(browser, live_url, accounts, console):
    import datetime as dt

    from django.utils import timezone

    from tables.play import services
    from tables.play.models import Table

    alice, alice_session = accounts("alice@example.com", "Alice")
    bob, bob_session = accounts("bob@example.com", "Bob")
    token = start_table_through_services(alice, bob)
    services.resign(token, alice)
    services.offer_rematch(token, alice)
    english = new_context(browser, live_url, session=bob_session)
    page = open_table(console.watch(english.new_page(), "bob"), f"/t/{token}/")
    note = page.locator("#rematch-note")
    expect(note).to_contain_text("The rematch offer stands until")
    expect(page.locator("#btn-rematch-accept")).to_be_visible()
    spanish = new_context(browser, live_url, session=alice_session, locale="es-ES")
    offerer = open_table(console.watch(spanish.new_page(), "alice"), f"/t/{token}/")
    expect(offerer.locator("#rematch-note")).to_contain_text("La oferta de revancha vale hasta")

    offered_at = timezone.now() - dt.timedelta(days=2)
    Table.objects.filter(invite_token=token).update(rematch_offered_at=offered_at)
    assert services.sweep_rematch_offers() == 1
    expect(page.locator("#toasts")).to_contain_text("The rematch offer has expired.", timeout=WAIT_MS)
    expect(offerer.locator("#toasts")).to_contain_text("La oferta de revancha venció.", timeout=WAIT_MS)
    expect(note).to_be_hidden()
    expect(page.locator("#btn-rematch-accept")).to_be_hidden()
    expect(page.locator("#btn-rematch")).to_be_visible()
    for context in (english, spanish):
        context.close()


def test_the_box_of_a_match_ended_by_resignation_opens_again_after_closing(
    browser, live_url, known_deck, accounts, console
):
    """A resignation ends the match mid-deal (its deal never reaches "over"): once the player
    closes the end-of-match box, a button opens it again, and with it the rematch offer."""
    from tables.play import services

    alice, alice_session = accounts("alice@example.com", "Alice")
    bob, _ = accounts("bob@example.com", "Bob")
    token = start_table_through_services(alice, bob)
    services.resign(token, alice)
    services.offer_rematch(token, bob)
    page = open_table(
        console.watch(new_context(browser, live_url, session=alice_session).new_page(), "a"), f"/t/{token}/"
    )
    expect(page.locator("#summary")).to_be_visible()
    page.locator("#summary-close").click()
    expect(page.locator("#summary")).to_be_hidden()
    page.locator("#btn-summary").click()
    expect(page.locator("#summary")).to_be_visible()
    expect(page.locator("#btn-rematch-accept")).to_be_visible()
    page.context.close()
