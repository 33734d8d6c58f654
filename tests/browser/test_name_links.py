"""Players' names on the table page link to their pages: the seats on the felt, the score
sheet's headings and the chat's authors; a link opens in the same tab, and the page's own
buttons still work beside them. A bot account's seat is marked BOT, its title translated."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tables.accounts.models import Player
from tests.tables.helpers import make_account_client
from tests.tables.rating_helpers import rated_game, to_last_move

from .conftest import new_context

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_seat_names_score_sheet_and_chat_link_to_the_players_pages(browser, live_url, console):
    token, players = rated_game()
    mover, body = to_last_move(token, players)
    mover.ok("post", f"/tables/{token}/moves", body)  # the match ends: the sheet has a row
    alice = players[0]
    alice.ok("post", f"/tables/{token}/chat", {"text": "good game"}, status=201)
    me = Player.objects.get(user=alice.user)
    other = Player.objects.get(user=players[1].user)
    context = new_context(browser, live_url, session=alice.client.cookies["sessionid"].value, locale="en-US")
    page = console.watch(context.new_page(), "alice")
    page.goto(f"/t/{token}/")
    expect(page.locator("#table-app[data-ready='1']")).to_be_attached()
    expect(page.locator("#info-top a.name")).to_have_attribute("href", f"/players/{other.pk}/")
    expect(page.locator("#info-bottom a.name")).to_have_attribute("href", f"/players/{me.pk}/")
    summary = page.locator("#summary")
    expect(summary.locator("th.who a")).to_have_count(4)  # the final scores and the score sheet
    expect(summary.locator(f"th.who a[href='/players/{other.pk}/']")).to_have_count(2)
    page.locator("#summary-close").click()  # the box's own button still closes it
    expect(summary).to_be_hidden()
    sheet = page.locator("#score-sheet th.who a")
    expect(sheet).to_have_count(2)
    expect(page.locator(f".chat-log a.author[href='/players/{me.pk}/']").first).to_be_attached()
    page.locator("#info-top a.name").click()
    expect(page).to_have_url(f"{live_url}/players/{other.pk}/")  # the same tab
    assert len(context.pages) == 1
    context.close()


PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
BOT_TITLES = {"en-US": "bot account: a program playing through the API", "es-ES": "cuenta bot: un programa"}


@pytest.mark.parametrize(
    ("locale", "device"), [("en-US", {}), ("es-ES", PHONE)], ids=["en-desktop", "es-phone"]
)
def test_a_bot_accounts_seat_is_marked_bot(browser, live_url, console, locale, device):
    bob, program = make_account_client("bob@example.com"), make_account_client("robo@example.com")
    program.ok("post", "/me/bot")
    token = bob.ok("post", "/tables", {"ruleset": "classic"}, status=201)["table"]
    program.ok("post", f"/tables/{token}/join", {})
    bob.ok("post", f"/tables/{token}/start", {})
    context = new_context(
        browser, live_url, session=bob.client.cookies["sessionid"].value, locale=locale, **device
    )
    page = console.watch(context.new_page(), "bob")
    page.goto(f"/t/{token}/")
    expect(page.locator("#table-app[data-ready='1']")).to_be_attached()
    mark = page.locator("#info-top .bot-mark")
    expect(mark).to_have_text("BOT")
    expect(mark).to_have_attribute("title", re.compile(f"^{BOT_TITLES[locale]}"))
    expect(page.locator("#info-bottom .bot-mark")).to_have_count(0)
    context.close()
