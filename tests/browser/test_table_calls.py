"""The table page's calls to the server (static/js/table-calls.js): a click made while the
previous call still waits for its answer is kept and sent once that answer is in."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from .conftest import new_context

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WAIT_MS = 15000
ROUNDS = 3


def test_start_clicked_while_add_robot_still_waits_for_its_answer_starts_the_match(
    browser, live_url, accounts, console
):
    """The robot's seat shows over the socket before the HTTP answer to ADD ROBOT arrives; the
    test holds that answer back (page.route) so START THE MATCH is always clicked in between."""
    from tables.play import services

    alice, alice_session = accounts("alice@example.com", "Alice")
    context = new_context(browser, live_url, session=alice_session)
    page = console.watch(context.new_page(), "alice")
    held: list[tuple[object, object]] = []

    def hold_the_answer(route) -> None:
        held.append((route, route.fetch()))  # the server adds the robot; the page waits

    page.route(re.compile(r"/api/tables/[^/]+/bot$"), hold_the_answer)
    for _ in range(ROUNDS):
        token = services.create_table(alice).invite_token
        page.goto(f"/t/{token}/")
        expect(page.locator("#table-app[data-ready='1']")).to_be_attached()
        page.get_by_role("button", name="ADD ROBOT").click()
        start = page.get_by_role("button", name="START THE MATCH")
        expect(start).to_be_visible(timeout=WAIT_MS)  # shown by the socket's event
        start.click()  # its handler has run when click() returns
        route, response = held.pop()
        route.fulfill(response=response)
        expect(page.locator("#hand .card")).to_have_count(10, timeout=WAIT_MS)
        expect(page.locator("#start-form")).to_be_hidden()
    context.close()
