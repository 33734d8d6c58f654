"""The pages around the table, in both languages, with no JavaScript error; a robot game in one click."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tables.alerts.prefs import CHANNELS, DEFAULT_CHANNELS, KINDS

from .conftest import new_context

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ACCOUNT_PAGES = ("/", "/new/", "/lobby/", "/me/tables/", "/me/profile/", "/leaderboard/")
VISITOR_PAGES = ("/accounts/login/", "/accounts/signup/")


@pytest.mark.parametrize(("locale", "open_label"), [("en-US", "OPEN A TABLE"), ("es-ES", "ABRIR MESA")])
def test_every_page_loads_in_both_languages(browser, live_url, accounts, console, locale, open_label):
    _, session = accounts("alice@example.com", "Alice")
    member = new_context(browser, live_url, session=session, locale=locale)
    page = console.watch(member.new_page(), "member")
    for path in ACCOUNT_PAGES:
        page.goto(path)
        expect(page.locator("main h1")).to_be_visible()
    page.goto("/")
    expect(page.get_by_role("link", name=open_label, exact=True)).to_be_visible()
    visitor = console.watch(new_context(browser, live_url, locale=locale).new_page(), "visitor")
    for path in VISITOR_PAGES:
        visitor.goto(path)
        expect(visitor.locator("main form")).to_be_visible()
    response = visitor.goto("/")
    assert "script-src 'self'" in response.headers["content-security-policy"]
    for context in (member, visitor.context):
        context.close()


def test_a_robot_game_in_one_click(browser, live_url, known_deck, transactional_db, console):
    context = new_context(browser, live_url)
    page = console.watch(context.new_page(), "guest")
    page.goto("/")
    page.locator("#bot-name").fill("Rosa")
    page.get_by_role("button", name="TITO").click()
    expect(page.locator("#table-app[data-ready='1']")).to_be_attached()
    expect(page.locator("#info-top")).to_contain_text("robot")
    expect(page.locator("#hand .card")).to_have_count(10)
    expect(page.locator("#btn-draw")).to_be_visible()
    context.close()


PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
PHONE_PAGES = (
    *ACCOUNT_PAGES,
    "/challenges/",
    "/me/archive/",
    "/rules/",
    "/rules/classic/",
    "/help/",
    "/leaderboard/?pace=live",
)


@pytest.mark.parametrize("locale", ["en-US", "es-ES"])
def test_no_page_is_wider_than_a_phone(browser, live_url, accounts, console, locale):
    """Nothing makes a page scroll sideways on a phone, nor sticks out of its panel (the
    profile's alert grid had a column more than fit: the page scrolled and the Email column
    was cut at the panel's edge)."""
    _, session = accounts("alice@example.com", "Alice")
    page = console.watch(
        new_context(browser, live_url, session=session, locale=locale, **PHONE).new_page(), "p"
    )
    for path in PHONE_PAGES:
        page.goto(path)
        expect(page.locator("main h1")).to_be_visible()
        wide = page.evaluate("[document.documentElement.scrollWidth, document.documentElement.clientWidth]")
        assert wide[0] <= wide[1], f"{path} scrolls sideways on a phone: {wide}"
    page.goto("/me/profile/")
    grid = page.locator("#alert-grid").bounding_box()
    panel = page.locator("#alerts-panel").bounding_box()
    assert grid["x"] + grid["width"] <= panel["x"] + panel["width"], "the alert grid sticks out of its panel"
    page.context.close()


def test_the_seek_help_sits_below_its_button_on_a_phone(browser, live_url, accounts, console):
    _, session = accounts("alice@example.com", "Alice")
    page = console.watch(new_context(browser, live_url, session=session, **PHONE).new_page(), "p")
    page.goto("/new/")
    button = page.get_by_role("button", name="POST A SEEK").bounding_box()
    help_line = page.get_by_text(
        "A seek waits in the lobby; whoever takes it plays you at once."
    ).bounding_box()
    assert help_line["y"] >= button["y"] + button["height"], (button, help_line)
    page.context.close()


def test_the_profile_ticks_the_servers_alert_defaults(browser, live_url, accounts, console):
    """A player who never chose sees each alert's default channels ticked: the page reads them
    from the server (json_script "alert-defaults", tables/alerts/prefs.py), not from a copy."""
    _, session = accounts("alice@example.com", "Alice")
    page = console.watch(new_context(browser, live_url, session=session).new_page(), "p")
    page.goto("/me/profile/")
    for kind in KINDS:
        for channel in CHANNELS:
            box = page.locator(f'#alert-grid [data-kind="{kind}"] [data-channel="{channel}"]')
            if channel in DEFAULT_CHANNELS[kind]:
                expect(box).to_be_checked()
            else:
                expect(box).not_to_be_checked()
    page.context.close()
