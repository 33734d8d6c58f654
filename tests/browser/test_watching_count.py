"""Issue 43: the players see how many watch, a logged-out visitor with the link included."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from playwright.sync_api import expect

from .conftest import new_context
from .test_table_page import open_table, start_table_through_services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WAIT_MS = 10000


def test_the_players_see_a_logged_out_visitor_watching_until_it_leaves(
    browser, live_url, known_deck, accounts, console
):
    cache.clear()  # table ids restart with the flushed database: no earlier test's visitors
    alice, alice_session = accounts("alice@example.com", "Alice")
    bob, bob_session = accounts("bob@example.com", "Bob")
    token = start_table_through_services(alice, bob)
    players = [
        new_context(browser, live_url, session=alice_session),
        new_context(browser, live_url, session=bob_session, locale="es-ES"),
    ]
    pills = []
    for number, context in enumerate(players):
        page = open_table(console.watch(context.new_page(), f"player {number}"), f"/t/{token}/")
        pills.append(page.locator("#spectators"))
    for pill in pills:
        expect(pill).to_be_hidden(timeout=WAIT_MS)  # nobody watches yet

    visitor = new_context(browser, live_url)  # the link, no cookie at all
    open_table(console.watch(visitor.new_page(), "visitor"), f"/t/{token}/")
    expect(pills[0]).to_have_text("1 watching", timeout=WAIT_MS)
    expect(pills[1]).to_have_text("1 mirando", timeout=WAIT_MS)

    visitor.close()  # the visitor leaves: its socket closes
    for pill in pills:
        expect(pill).to_be_hidden(timeout=WAIT_MS)
    for context in players:
        context.close()
