"""A logged-out visitor with the invite link watches live: the table socket brings each move at
once (not the 3 s poll), and where spectators may chat the page says a name is needed."""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import expect

from tests.polling import browser_pause, wait_until

from .conftest import new_context
from .test_table_page import open_table, start_table_through_services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Under the page's 3 s poll; the socket's frames are the proof that the move came that way.
SOCKET_MS = 2500
WAIT_MS = 15000


def newest_version(frames: list[str]) -> int:
    """The newest table version the socket delivered (a snapshot's or an event's)."""
    versions = [json.loads(frame).get("version", -1) for frame in frames if frame.startswith("{")]
    return max([-1, *versions])


def wait_for(page, condition) -> None:
    wait_until(condition, timeout=WAIT_MS / 1000, pause=browser_pause(page))


@pytest.mark.parametrize(
    ("locale", "note"),
    [("en-US", "Choose a name to chat: log in or sign up."), ("es-ES", "Elige un nombre para chatear")],
)
def test_a_logged_out_spectator_sees_moves_at_once_and_is_told_chat_needs_a_name(
    browser, live_url, known_deck, accounts, console, locale, note
):
    from tables.play import services

    alice, _ = accounts("alice@example.com", "Alice")
    bob, _ = accounts("bob@example.com", "Bob")
    token = start_table_through_services(alice, bob)
    context = new_context(browser, live_url, locale=locale)  # no cookie at all
    page = console.watch(context.new_page(), "visitor")
    frames: list[str] = []
    sockets: list[str] = []

    def watch(socket) -> None:
        sockets.append(socket.url)
        socket.on("framereceived", lambda frame: frames.append(frame))
        socket.on("close", lambda _: sockets.append(f"closed {socket.url}"))

    page.on("websocket", watch)
    open_table(page, f"/t/{token}/")
    expect(page.locator("#hand-strip")).to_be_hidden()
    wait_for(page, lambda: any('"snapshot"' in frame for frame in frames))
    assert any('"snapshot"' in frame for frame in frames), (
        f"the visitor's page has no table socket: {sockets}"
    )

    first = newest_version(frames)
    services.apply_move(token, alice, "draw_stock", None)
    services.apply_move(token, alice, "discard KD", None)
    expect(page.locator("#discard .card[data-card='KD']")).to_be_visible(timeout=SOCKET_MS)
    # An event, or a snapshot when the socket built its state after both moves were in.
    wait_for(page, lambda: newest_version(frames) >= first + 2)
    assert newest_version(frames) >= first + 2, "the moves did not come over the socket"

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
