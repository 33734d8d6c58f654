"""The rules, reached from the home page, in both languages, on a phone and a desktop."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tables.guide import views as guide

from .conftest import new_context

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WORDS = {
    "en-US": ("The rules, with worked examples", "Rules of Gin Rummy", "Rules: reino", "Big gin", "Help"),
    "es-ES": (
        "Las reglas, con ejemplos resueltos",
        "Reglas del Gin Rummy",
        "Reglas: reino",
        "Big gin",
        "Ayuda",
    ),
}


@pytest.mark.parametrize("locale", ["en-US", "es-ES"])
@pytest.mark.parametrize("viewport", [{"width": 1280, "height": 800}, {"width": 390, "height": 844}])
def test_the_rules_are_reached_from_the_home_page(browser, live_url, console, locale, viewport):
    link, index_title, reino_title, big_gin, help_title = WORDS[locale]
    context = new_context(browser, live_url, locale=locale, viewport=viewport)
    page = console.watch(context.new_page(), "visitor")
    page.goto("/")
    page.locator("main").get_by_role("link", name=link).click()
    expect(page.locator("main h1")).to_have_text(index_title)
    expect(page.locator("table.values tbody tr")).to_have_count(len(guide.ROWS))
    page.locator("main table.values").get_by_role("link", name="reino").click()
    expect(page.locator("main h1")).to_have_text(reino_title)
    expect(page.locator(".example h3", has_text=big_gin)).to_be_visible()
    expect(page.locator(".example").first).to_contain_text("15 − 3 = 12")
    page.locator("main").get_by_role("link", name=help_title).click()
    expect(page.locator("main h1")).to_have_text(help_title)
    context.close()
