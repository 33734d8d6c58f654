"""A logged-out visitor with the invite link watches live: the table socket brings each move at
once (not the 3 s poll), and where spectators may chat the page says a name is needed."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from .conftest import new_context
from .test_table_page import open_table, start_table_through_services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Well under the page's 3 s poll: only the socket brings the move this soon.
SOCKET_MS = 1500


@pytest.mark.parametrize(
    ("locale", "note"),
    [("en-US", "Choose a name to chat: log in or sign up."), ("es-ES", "Elige un nombre para chatear")],
)
def test_a_logged_out_spectator_sees_moves_at_once_and_is_told_chat_needs_a_name(
    browser, live_url, known_deck, accounts, console, locale, note
):
    from tables import services

    alice, _ = accounts("alice@example.com", "Alice")
    bob, _ = accounts("bob@example.com", "Bob")
    token = start_table_through_services(alice, bob)
    context = new_context(browser, live_url, locale=locale)  # no cookie at all
    page = console.watch(context.new_page(), "visitor")
    frames: list[str] = []
    page.on("websocket", lambda socket: socket.on("framereceived", lambda frame: frames.append(frame)))
    open_table(page, f"/t/{token}/")
    expect(page.locator("#hand-strip")).to_be_hidden()
    for _ in range(100):
        if any('"snapshot"' in frame for frame in frames):
            break
        page.wait_for_timeout(50)
    assert any('"snapshot"' in frame for frame in frames), "the visitor's page has no table socket"

    services.apply_move(token, alice, "draw_stock", None)
    services.apply_move(token, alice, "discard KD", None)
    expect(page.locator("#discard .card[data-card='KD']")).to_be_visible(timeout=SOCKET_MS)
    assert any('"event"' in frame for frame in frames)

    # The chat is there to read; writing in it needs a name, and the page says how to get one.
    expect(page.locator("#chat-form")).to_be_hidden()
    hint = page.locator("#chat-name-note")
    expect(hint).to_be_visible()
    expect(hint).to_contain_text(note)
    expect(hint.locator("a").first).to_have_attribute("href", re.compile(rf"\?next=/t/{token}/"))
    context.close()


def test_no_name_note_where_spectators_may_not_chat(browser, live_url, known_deck, accounts, console):
    alice, _ = accounts("alice@example.com", "Alice")
    bob, _ = accounts("bob@example.com", "Bob")
    token = start_table_through_services(alice, bob, spectator_chat=False)
    context = new_context(browser, live_url)
    page = console.watch(context.new_page(), "visitor")
    open_table(page, f"/t/{token}/")
    expect(page.locator("#chat-name-note")).to_be_hidden()
    context.close()
