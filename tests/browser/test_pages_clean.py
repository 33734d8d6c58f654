"""Every page of the site, admin included, loads with no console error and no failed request:
no 4xx/5xx answer (a missing favicon counts), no request the browser gave up on (the `console`
fixture of conftest.py watches all of it, in every browser test)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page

from .conftest import new_context
from .test_table_page import start_table_through_services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def visit(page: Page, path: str) -> None:
    """Load the page and let its scripts finish what they fetch at start."""
    response = page.goto(path)
    assert response is not None and response.status == 200, (path, response and response.status)
    page.wait_for_load_state("networkidle")
    # Headless Chromium does not fetch the tab's icon; a visible browser does (the page's icon
    # link, or /favicon.ico on pages without one such as the admin's): it must be there.
    icon = page.evaluate(
        "document.querySelector('link[rel~=icon]')?.href || new URL('/favicon.ico', location).href"
    )
    answer = page.request.get(icon)
    assert answer.status == 200, f"{path}: its icon {icon} answered {answer.status}"


@pytest.mark.parametrize("locale", ["en-US", "es-ES"])
def test_no_page_logs_an_error_or_fails_a_request(browser, live_url, known_deck, accounts, console, locale):
    from django.contrib.auth import get_user_model

    from tables.play.models import Deal

    alice, alice_session = accounts("alice@example.com", "Alice")
    bob, _ = accounts("bob@example.com", "Bob")
    staff, staff_session = accounts("staff@example.com", "Stella")
    get_user_model().objects.filter(pk=staff.user_id).update(is_staff=True, is_superuser=True)
    token = start_table_through_services(alice, bob, target=100)
    deal = Deal.objects.get(match__table__invite_token=token)
    pages = {
        "visitor": (
            None,
            [
                "/",
                "/lobby/",
                f"/t/{token}/",
                "/accounts/login/",
                "/accounts/signup/",
                "/accounts/password/reset/",
                "/admin/login/",
            ],
        ),
        "player": (
            alice_session,
            [
                "/",
                "/lobby/",
                "/new/",
                f"/t/{token}/",
                "/me/tables/",
                "/me/profile/",
                "/me/sessions/",
                "/me/export/",
                "/accounts/2fa/",
            ],
        ),
        "staff": (staff_session, [f"/t/{token}/", "/admin/", f"/staff/replay/{deal.pk}/"]),
    }
    for who, (session, paths) in pages.items():
        context = new_context(browser, live_url, session=session, locale=locale)
        for path in paths:
            page = console.watch(context.new_page(), f"{who} {path}")
            visit(page, path)
            page.close()
        context.close()
