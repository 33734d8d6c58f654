"""Quick play on the table page: one "Your move!" toast at a time, never a pile of them over the
score sheet; and with the user socket open (it pushes the count of tables awaiting the player),
a new table state fetches no GET /api/me/tables."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.polling import browser_pause, wait_until

from .conftest import new_context

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WAIT_MS = 15000
ROUNDS = 4
# Counts, on every change of #toasts, the "Your move!" toasts and all toasts, keeping the most seen.
TOAST_WATCH = """
window.__toastMax = { turn: 0, all: 0 };
document.addEventListener("DOMContentLoaded", () => {
  const box = document.getElementById("toasts");
  if (!box) return;
  new MutationObserver(() => {
    const toasts = [...box.querySelectorAll(".toast")];
    const turn = toasts.filter((t) => t.textContent.trim() === "Your move!").length;
    window.__toastMax.turn = Math.max(window.__toastMax.turn, turn);
    window.__toastMax.all = Math.max(window.__toastMax.all, toasts.length);
  }).observe(box, { childList: true, subtree: true });
});
"""


def start_table(owner, guest) -> str:
    from tables.play import services

    table = services.create_table(owner)
    services.join_table(table.invite_token, guest)
    services.start_match(table.invite_token, owner)
    return table.invite_token


def bob_plays_a_turn(token: str, bob) -> None:
    """Bob draws from the stock and discards, at once, as the server would for him."""
    import rules
    from tables.play import engine, services
    from tables.play.models import Table

    for _ in range(2):
        table = Table.objects.get(invite_token=token)
        state = engine.load_deal(table.current_deal)
        services.apply_move(table.pk, bob, rules.timeout_action(state), expected_version=table.version)


def alice_plays_a_turn(page: Page) -> None:
    """Draw from the stock and discard the first card (tapped twice), as fast as the page allows."""
    expect(page.locator("#btn-draw")).to_be_enabled(timeout=WAIT_MS)
    expect(page.locator("#hand .card")).to_have_count(10, timeout=WAIT_MS)
    page.locator("#btn-draw").click()
    expect(page.locator("#hand .card")).to_have_count(11, timeout=WAIT_MS)
    first = page.locator("#hand .card").first
    first.click()
    first.click()
    expect(page.locator("#hand .card")).to_have_count(10, timeout=WAIT_MS)


def play_quickly(browser, live_url, accounts, console) -> tuple[Page, list[str]]:
    """Alice's page (its user socket open) and Bob's turns through the services, ROUNDS times
    each, as fast as they go: Alice's page and the GET /api/me/tables it made once the user socket
    had pushed its first count."""
    alice, session = accounts("alice@example.com", "Alice")
    bob, _ = accounts("bob@example.com", "Bob")
    token = start_table(alice, bob)
    context = new_context(browser, live_url, session=session)
    context.add_init_script(TOAST_WATCH)
    page = console.watch(context.new_page(), "alice")
    pushed: list[str] = []  # the user socket's "pending" messages
    page.on(
        "websocket",
        lambda socket: (
            socket.on("framereceived", lambda frame: pushed.append(frame) if '"pending"' in frame else None)
            if "/ws/me/" in socket.url
            else None
        ),
    )
    fetched: list[str] = []
    page.on(
        "request",
        lambda request: (
            fetched.append(request.url)
            if pushed and request.method == "GET" and re.search(r"/api/me/tables(\?|$)", request.url)
            else None
        ),
    )
    page.goto(f"/t/{token}/")
    expect(page.locator("#table-app[data-ready='1']")).to_be_attached()
    wait_until(
        lambda: pushed,
        timeout=10,
        pause=browser_pause(page),
        message="the user socket pushed the pending count",
    )

    for _ in range(ROUNDS):
        alice_plays_a_turn(page)
        bob_plays_a_turn(token, bob)
        expect(page.locator("#stock.can-take")).to_be_visible(timeout=WAIT_MS)
        expect(page.locator("#toasts .toast", has_text="Your move!").first).to_be_visible(timeout=WAIT_MS)
    return page, fetched


def test_quick_play_shows_one_turn_toast_at_a_time(browser, live_url, known_deck, accounts, console):
    page, _ = play_quickly(browser, live_url, accounts, console)
    seen = page.evaluate("window.__toastMax")
    assert seen["turn"] == 1, f"{seen['turn']} 'Your move!' toasts were shown at once"
    assert seen["all"] <= 3, f"{seen['all']} toasts were shown at once"
    page.context.close()


def test_state_changes_fetch_no_pending_count_while_the_user_socket_is_open(
    browser, live_url, known_deck, accounts, console
):
    page, fetched = play_quickly(browser, live_url, accounts, console)
    # what is tested: no fetch at all, so a grace in which one the last state sent would have begun
    page.wait_for_timeout(500)
    assert fetched == [], f"state changes fetched the pending count with the user socket open: {fetched}"
    page.context.close()


def test_without_the_user_socket_a_state_change_still_fetches_the_pending_count(
    browser, live_url, known_deck, accounts, console
):
    """The fallback: every socket closed as it opens (the page polls), so the page's own moves
    fetch GET /api/me/tables, as before."""
    alice, session = accounts("alice@example.com", "Alice")
    bob, _ = accounts("bob@example.com", "Bob")
    token = start_table(alice, bob)
    page = console.watch(new_context(browser, live_url, session=session).new_page(), "alice")
    page.route_web_socket(re.compile(r"/ws/"), lambda socket: socket.close())
    page.goto(f"/t/{token}/")
    expect(page.locator("#table-app[data-ready='1']")).to_be_attached()
    # a grace, not a wait for a result: past the fetches of the load and of the socket's close,
    # which are not the ones this test counts
    page.wait_for_timeout(1500)
    fetched: list[str] = []
    page.on(
        "request",
        lambda request: (
            fetched.append(request.url) if re.search(r"/api/me/tables(\?|$)", request.url) else None
        ),
    )
    alice_plays_a_turn(page)
    wait_until(
        lambda: fetched,
        timeout=10,
        pause=browser_pause(page),
        message="with no user socket, a state change fetches the pending count",
    )
    page.context.close()
