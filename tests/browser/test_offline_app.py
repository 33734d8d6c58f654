"""The app offline, on a desktop in English and a phone in Spanish (Playwright's set_offline):
Alice's kept My tables and table open read-only with the banner; a move she makes offline is
kept (a second is refused, not swapped in, unless the first is taken back) and sent once when the network returns; a kept
move on a table that moved on meanwhile is refused with a message and nothing doubled; after
logout the browser keeps no table state."""

from __future__ import annotations

import json

import pytest
from django.test import Client
from playwright.sync_api import Page, expect

from tables.play.models import Move, Table
from tests.polling import browser_pause, wait_until

from .test_table_time import DEVICES, WAIT_MS, open_page, press, start_table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TEXTS = {
    "en": {
        "offline": "Offline: last updated at",
        "my_tables": "My tables",
        "kept": "Kept to send when the network returns",
        "one_kept": "A move for this table is already kept to send",
        "played": "Your move made offline was sent and played",
        "refused": "the table moved on while you were offline",
        "log_out": "Log out",
        "taken_back": "The kept move was taken back",
    },
    "es": {
        "offline": "Sin conexión: actualizado por última vez el",
        "my_tables": "Mis mesas",
        "kept": "Guardada para enviar cuando vuelva la red",
        "one_kept": "Ya hay una jugada guardada para enviar en esta mesa",
        "played": "Tu jugada hecha sin conexión se envió y se jugó",
        "refused": "la mesa cambió mientras estabas sin conexión",
        "log_out": "Salir",
        "taken_back": "La jugada guardada se retiró",
    },
}

# Every URL the browser's Cache Storage holds, by cache, and the IndexedDB databases' names.
KEPT_URLS = """async () => Object.fromEntries(await Promise.all((await caches.keys()).map(
  async (name) => [name, (await (await caches.open(name)).keys()).map((request) => request.url)])))"""
DATABASES = "async () => (await indexedDB.databases()).map((database) => database.name)"


def kept_pages(page: Page) -> list[str]:
    """Every kept URL in any cache but the shell's files (static files and the text catalog)."""
    shell = ("/static/", "/jsi18n/")
    return [
        url for urls in page.evaluate(KEPT_URLS).values() for url in urls if not any(s in url for s in shell)
    ]


def alice_keeps_her_pages(browser, live_url, accounts, console, device, *, visit_table: bool) -> tuple:
    """Alice (to play first) and Bob at a table; Alice's browser, its worker ready, visits My
    tables (which has the worker keep each table's page) and, if ``visit_table``, the table:
    (alice, bob, token, Alice's page)."""
    alice, alice_session = accounts("alice@example.com", "Alice")
    bob, _ = accounts("bob@example.com", "Bob")
    token = start_table(alice, bob)
    page = open_page(browser, live_url, alice_session, device, console, "alice", "/")
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.wait_for_function("Boolean(navigator.serviceWorker.controller)")  # the worker claims the page
    page.goto("/me/tables/")
    if visit_table:
        page.goto(f"/t/{token}/")
        expect(page.locator("#table-app[data-ready='1']")).to_be_attached()
        expect(page.locator("#btn-draw")).to_be_visible()
    kept = [f"{live_url}/me/tables/", f"{live_url}/t/{token}/"]
    wait_until(lambda: sorted(kept_pages(page)) == kept, pause=browser_pause(page))
    return alice, bob, token, page


def offline_on_the_table(page: Page, token: str, text: dict, who: str, console) -> Page:
    """The network gone, the app opened again at "/": the kept My tables, then the kept table."""
    context = page.context
    page.close()
    context.set_offline(True)
    page = console.watch(context.new_page(), who)
    page.goto("/")
    expect(page.locator("#offline-banner")).to_contain_text(text["offline"])
    expect(page.locator("h1")).to_have_text(text["my_tables"])
    page.locator(f"a[href='/t/{token}/']").first.click()
    expect(page.locator("#table-app[data-ready='1']")).to_be_attached()
    expect(page.locator("#offline-banner")).to_contain_text(text["offline"])
    return page


def alice_draws_offline(
    browser, live_url, accounts, console, device, text: dict, *, visit_table: bool
) -> tuple:
    """Alice's pages kept, the network gone, her draw kept on the table opened offline: (alice,
    bob, token, Alice's page, the table's version when she drew)."""
    alice, bob, token, page = alice_keeps_her_pages(
        browser, live_url, accounts, console, device, visit_table=visit_table
    )
    version = Table.objects.get(invite_token=token).version
    page = offline_on_the_table(page, token, text, "alice", console)
    press(device, page.locator("#btn-draw"))
    expect(page.locator("#offline-banner")).to_contain_text(text["kept"])
    return alice, bob, token, page, version


def moves_at(token: str) -> list[tuple[int, str]]:
    return list(
        Move.objects.filter(deal__match__table__invite_token=token)
        .order_by("pk")
        .values_list("seat", "action")
    )


@pytest.mark.parametrize(("device", "lang"), DEVICES)
def test_offline_the_app_shows_the_kept_pages_and_sends_the_kept_move_once_then_logout_forgets(
    browser, live_url, known_deck, accounts, console, screenshots, device, lang
):
    text = TEXTS[lang]
    _, _, token, page, version = alice_draws_offline(
        browser, live_url, accounts, console, device, text, visit_table=True
    )
    press(device, page.locator("#btn-draw"))  # a second move is not kept in the first one's place
    expect(page.locator("#toasts")).to_contain_text(text["one_kept"])
    press(device, page.locator("#offline-drop"))  # unless the player takes the first one back
    expect(page.locator("#toasts")).to_contain_text(text["taken_back"])
    expect(page.locator("#offline-banner")).not_to_contain_text(text["kept"])
    press(device, page.locator("#btn-draw"))
    expect(page.locator("#offline-banner")).to_contain_text(text["kept"])
    page.screenshot(path=str(screenshots / f"offline-table-{lang}.png"))
    assert moves_at(token) == [] and Table.objects.get(invite_token=token).version == version

    page.context.set_offline(False)
    expect(page.locator("#offline-banner")).to_contain_text(text["played"], timeout=WAIT_MS)
    expect(page.locator("#btn-draw")).to_be_hidden()  # live again: Alice discards now
    assert moves_at(token) == [(0, "draw_stock")]
    assert Table.objects.get(invite_token=token).version == version + 1
    page.reload()
    expect(page.locator("#table-app[data-ready='1']")).to_be_attached()
    assert moves_at(token) == [(0, "draw_stock")]  # sent once: the queue is empty

    page.goto("/accounts/logout/")
    page.locator("main form button[type=submit]").first.click()
    expect(page.locator("header")).not_to_contain_text(text["log_out"])
    wait_until(
        lambda: kept_pages(page) == [] and "ginmesa-offline" not in page.evaluate(DATABASES),
        pause=browser_pause(page),
    )
    page.context.close()


@pytest.mark.parametrize(("device", "lang"), DEVICES)
def test_a_move_kept_offline_on_a_table_that_moved_on_is_refused_and_nothing_doubles(
    browser, live_url, known_deck, accounts, console, device, lang
):
    text = TEXTS[lang]
    # Alice never opened the table online: My tables had the worker keep its page.
    alice, bob, token, page, version = alice_draws_offline(
        browser, live_url, accounts, console, device, text, visit_table=False
    )

    # Meanwhile Alice draws and discards on her other device and Bob, the opponent, draws: all
    # through the move API (the deck is known: Alice draws 5H and keeps it).
    played = ((alice, "draw_stock"), (alice, "discard KD"), (bob, "draw_stock"))
    for number, (player, action) in enumerate(played):
        device_elsewhere = Client()
        device_elsewhere.force_login(player.user)
        body = json.dumps({"action": action, "expected_version": version + number})
        answer = device_elsewhere.post(f"/api/tables/{token}/moves", body, content_type="application/json")
        assert answer.status_code == 200, answer.content
    before = moves_at(token)
    assert before == [(0, "draw_stock"), (0, "discard KD"), (1, "draw_stock")]

    page.context.set_offline(False)
    expect(page.locator("#offline-banner")).to_contain_text(text["refused"], timeout=WAIT_MS)
    expect(page.locator("#offline-banner")).to_contain_text(f"version {version + 3}, you sent {version}")
    assert moves_at(token) == before  # the kept draw was not played, and nothing twice
    expect(page.locator("#btn-draw")).to_be_hidden()  # the page shows the table as it is now: Bob's turn
    page.context.close()
    # The one refusal this test is about (its answer, and Chromium's console line for it), and
    # no other answer of 400 or more.
    answered = [error for error in console.errors if f"/api/tables/{token}/moves answered 409" in error]
    logged = [
        error
        for error in console.errors
        if "status of 409" in error and f"/api/tables/{token}/moves" in error
    ]
    assert len(answered) == 1 and len(logged) == 1, console.errors
    console.errors.remove(answered[0])
    console.errors.remove(logged[0])


@pytest.mark.parametrize(("device", "lang"), DEVICES)
def test_a_move_made_when_the_network_drops_under_the_open_table_is_kept_then_played(
    browser, live_url, known_deck, accounts, console, device, lang
):
    text = TEXTS[lang]
    _, _, token, page = alice_keeps_her_pages(browser, live_url, accounts, console, device, visit_table=True)
    page.context.set_offline(True)  # the table page stays open: the train enters the tunnel
    expect(page.locator("#offline-banner")).to_contain_text(text["offline"])
    press(device, page.locator("#btn-draw"))
    expect(page.locator("#offline-banner")).to_contain_text(text["kept"])
    assert moves_at(token) == []

    page.context.set_offline(False)
    expect(page.locator("#offline-banner")).to_contain_text(text["played"], timeout=WAIT_MS)
    expect(page.locator("#btn-draw")).to_be_hidden()
    assert moves_at(token) == [(0, "draw_stock")]
    page.context.close()
    # While the network was gone the open page's socket or the user socket's fallback may have
    # failed to reach the server: those failures are the test's doing, not the site's.
    console.errors[:] = [error for error in console.errors if "ERR_INTERNET_DISCONNECTED" not in error]
