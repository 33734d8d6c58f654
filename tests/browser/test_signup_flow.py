"""Signing up from a table's page in a real browser: the header's Sign up keeps the page
(?next=), the confirmation email's link logs the newcomer in and brings them back to that table,
without a second log-in."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

import pytest
from django.core import mail
from playwright.sync_api import expect

from .conftest import new_context
from .test_table_page import open_table, start_table_through_services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "a long enough password 1"


@pytest.mark.parametrize(
    ("locale", "sign_up", "log_out"), [("en-US", "Sign up", "Log out"), ("es-ES", "Crear cuenta", "Salir")]
)
def test_sign_up_from_a_table_confirm_by_email_and_land_back_logged_in(
    browser, live_url, known_deck, accounts, console, locale, sign_up, log_out
):
    from django.core.cache import cache

    cache.clear()  # allauth sends one confirmation per address every 3 minutes: not across tests
    alice, _ = accounts("alice@example.com", "Alice")
    bob, _ = accounts("bob@example.com", "Bob")
    token = start_table_through_services(alice, bob)
    table = f"/t/{token}/"
    context = new_context(browser, live_url, locale=locale)
    page = console.watch(context.new_page(), "newcomer")
    open_table(page, table)

    page.locator("header").get_by_role("link", name=sign_up, exact=True).click()
    expect(page).to_have_url(re.compile(r"/accounts/signup/\?next="))
    page.locator("#id_email").fill("newcomer@example.com")
    page.locator("#id_password1").fill(PASSWORD)
    page.locator("#id_password2").fill(PASSWORD)
    page.locator("main form button[type=submit]").click()
    expect(page).to_have_url(re.compile(r"/accounts/confirm-email/"))
    # The outbox also holds the table's own alerts (Alice is away and it is her turn).
    sent = [message for message in mail.outbox if message.to == ["newcomer@example.com"]]
    assert len(sent) == 1, [message.to for message in mail.outbox]

    link = re.search(r"https?://\S+/accounts/confirm-email/\S+/", sent[0].body)
    assert link is not None, sent[0].body
    page.goto(urlsplit(link.group(0)).path)
    page.locator("main form button[type=submit]").click()

    expect(page).to_have_url(re.compile(re.escape(table) + "$"))
    expect(page.locator("#table-app[data-ready='1']")).to_be_attached()
    expect(page.locator("header")).to_contain_text(log_out)
    expect(page.locator("header").get_by_role("link", name=sign_up, exact=True)).to_have_count(0)
    context.close()
