"""Deleting the account in a real browser, in both languages, on a desktop and a phone: from the
profile, the password again (allauth's reauthentication), the box ticked, and the browser is
logged out; the old opponent then finds the finished match in their archive and on its page
with the seat named "deleted player" / "jugador eliminado". No console error and no failed
request."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from .conftest import new_context
from .test_archive_pages import finished_match

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "x"  # the accounts fixture's
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
WORDS = {
    "en-US": {"delete": "DELETE THE ACCOUNT", "log_out": "Log out", "deleted": "deleted player"},
    "es-ES": {"delete": "ELIMINAR LA CUENTA", "log_out": "Salir", "deleted": "jugador eliminado"},
}


@pytest.mark.parametrize(
    ("locale", "device"), [("en-US", {}), ("es-ES", PHONE)], ids=["en-desktop", "es-phone"]
)
def test_delete_the_account_and_the_old_opponent_sees_a_deleted_player(
    browser, live_url, accounts, console, screenshots, locale, device
):
    from django.contrib.auth import get_user_model

    alice, alice_session = accounts("alice@example.com", "Alice")
    bob, bob_session = accounts("bob@example.com", "Bob")
    match = finished_match(alice, bob)
    words = WORDS[locale]
    context = new_context(browser, live_url, session=alice_session, locale=locale, **device)
    page = console.watch(context.new_page(), "alice")

    page.goto("/me/profile/")
    expect(page.locator("header")).to_contain_text(words["log_out"])
    expect(page.locator("#delete-account-link")).to_have_text(words["delete"])
    page.locator("#delete-account-link").click()
    expect(page).to_have_url(re.compile(r"/accounts/reauthenticate/"))
    page.locator("#id_password").fill(PASSWORD)  # allauth asks for the password again
    page.locator("main form button[type=submit]").first.click()
    expect(page).to_have_url(re.compile(r"/me/delete/$"))
    page.locator("#delete-account-form input[name=confirm]").check()
    page.screenshot(path=screenshots / f"delete-account-{locale}.png")
    page.locator("#delete-account").click()
    expect(page).to_have_url(f"{live_url}/")  # the home page, once the deletion is committed
    expect(page.locator("header")).not_to_contain_text(words["log_out"])
    assert not get_user_model().objects.filter(email="alice@example.com").exists()
    context.close()

    context = new_context(browser, live_url, session=bob_session, locale=locale, **device)
    page = console.watch(context.new_page(), "bob")
    page.goto("/me/archive/")
    row = page.locator(f"main a[href='/matches/{match.pk}/']")
    expect(row).to_contain_text(words["deleted"])
    expect(page.locator("main")).not_to_contain_text("Alice")
    row.click()
    expect(page).to_have_url(re.compile(rf"/matches/{match.pk}/$"))
    expect(page.locator("main h1")).to_contain_text(words["deleted"])
    expect(page.locator("main h1")).to_contain_text("Bob")
    expect(page.locator("main")).not_to_contain_text("Alice")
    page.screenshot(path=screenshots / f"deleted-opponent-{locale}.png")
    context.close()
