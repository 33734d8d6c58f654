"""Two-factor login in a real browser, in both languages, on a desktop and a phone: from the
profile, turn on an authenticator app (the password again, the secret, a code), log out, and log
in again with the password and then the app's code."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.tables.helpers import totp_code as code_of

from .conftest import new_context

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

EMAIL, PASSWORD = "alice@example.com", "a long enough password 1"
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}


def log_in_with_password(page) -> None:
    page.goto("/accounts/login/")
    page.locator("#id_login").fill(EMAIL)
    page.locator("#id_password").fill(PASSWORD)
    page.locator("main form button[type=submit]").first.click()


@pytest.mark.parametrize(
    ("locale", "device", "log_out"),
    [("en-US", {}, "Log out"), ("es-ES", PHONE, "Salir")],
    ids=["en-desktop", "es-phone"],
)
def test_turn_on_two_factor_log_out_and_log_in_with_the_apps_code(
    browser, live_url, console, transactional_db, locale, device, log_out
):
    from allauth.account.models import EmailAddress
    from allauth.mfa.models import Authenticator
    from django.contrib.auth import get_user_model
    from django.core.cache import cache

    cache.clear()
    user = get_user_model().objects.create_user(username="alice", email=EMAIL, password=PASSWORD)
    EmailAddress.objects.create(user=user, email=EMAIL, verified=True, primary=True)
    context = new_context(browser, live_url, locale=locale, **device)
    page = console.watch(context.new_page(), "alice")

    log_in_with_password(page)
    expect(page.locator("header")).to_contain_text(log_out)
    page.goto("/me/profile/")
    page.locator("#two-factor-link").click()
    expect(page).to_have_url(re.compile(r"/accounts/2fa/$"))
    page.locator("main a[href='/accounts/2fa/totp/activate/']").click()
    page.locator("#id_password").fill(PASSWORD)  # allauth asks for the password again
    page.locator("main form button[type=submit]").first.click()
    expect(page).to_have_url(re.compile(r"/accounts/2fa/totp/activate/"))
    expect(page.locator("main img[src^='data:image/svg+xml']")).to_be_visible()  # the QR code
    secret = page.locator("#authenticator_secret").input_value()
    page.locator("#id_code").fill(code_of(secret))
    page.locator("main form button[type=submit]").first.click()
    expect(page).not_to_have_url(re.compile(r"/totp/activate/"))
    assert Authenticator.objects.filter(user=user, type=Authenticator.Type.TOTP).exists()

    page.goto("/accounts/logout/")
    page.locator("main form button[type=submit]").first.click()
    expect(page.locator("header")).not_to_contain_text(log_out)

    cache.clear()  # the enrolment's code may not be used again within its 30 s
    log_in_with_password(page)
    expect(page).to_have_url(re.compile(r"/accounts/2fa/authenticate/"))
    expect(page.locator("header")).not_to_contain_text(log_out)  # the password alone is not enough
    page.locator("#id_code").fill(code_of(secret))
    page.locator("main form button[type=submit]").first.click()
    expect(page.locator("header")).to_contain_text(log_out)
    page.goto("/me/profile/")
    expect(page.locator("#two-factor-status strong")).to_be_visible()
    context.close()
