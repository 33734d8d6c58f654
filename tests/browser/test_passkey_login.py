"""Passkeys in Chromium through a virtual authenticator (DevTools' WebAuthn domain): add a
passkey from the two-factor page, log out, and log in with the passkey alone (no password)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from .conftest import new_context

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

EMAIL, PASSWORD = "alice@example.com", "a long enough password 1"
AUTHENTICATOR = {
    "protocol": "ctap2",
    "transport": "internal",
    "hasResidentKey": True,
    "hasUserVerification": True,
    "isUserVerified": True,
    "automaticPresenceSimulation": True,
}


@pytest.mark.parametrize(("locale", "log_out"), [("en-US", "Log out"), ("es-ES", "Salir")])
def test_add_a_passkey_then_log_in_with_it_alone(
    browser, live_url, console, transactional_db, locale, log_out
):
    from allauth.account.models import EmailAddress
    from allauth.mfa.models import Authenticator
    from django.contrib.auth import get_user_model
    from django.core.cache import cache

    cache.clear()
    user = get_user_model().objects.create_user(username="alice", email=EMAIL, password=PASSWORD)
    EmailAddress.objects.create(user=user, email=EMAIL, verified=True, primary=True)
    # A passkey's relying party is a domain: http://localhost is a secure context, 127.0.0.1 is no domain.
    context = new_context(browser, live_url.replace("127.0.0.1", "localhost"), locale=locale)
    page = console.watch(context.new_page(), "alice")
    devtools = context.new_cdp_session(page)
    devtools.send("WebAuthn.enable")
    devtools.send("WebAuthn.addVirtualAuthenticator", {"options": AUTHENTICATOR})

    page.goto("/accounts/login/")
    page.locator("#id_login").fill(EMAIL)
    page.locator("#id_password").fill(PASSWORD)
    page.locator("main form button[type=submit]").first.click()
    expect(page.locator("header")).to_contain_text(log_out)
    page.goto("/accounts/2fa/webauthn/add/")
    page.locator("#id_password").fill(PASSWORD)  # allauth asks for the password again
    page.locator("main form button[type=submit]").first.click()
    expect(page).to_have_url(re.compile(r"/accounts/2fa/webauthn/add/"))
    page.locator("#id_name").fill("laptop")
    page.locator("#id_passwordless").check()
    page.locator("#mfa_webauthn_add").click()
    expect(page).not_to_have_url(re.compile(r"/webauthn/add/"))
    key = Authenticator.objects.get(user=user, type=Authenticator.Type.WEBAUTHN)
    assert key.wrap().is_passwordless

    page.goto("/accounts/logout/")
    page.locator("main form button[type=submit]").first.click()
    expect(page.locator("header")).not_to_contain_text(log_out)

    page.goto("/accounts/login/")
    page.locator("#passkey_login").click()  # no email, no password: the passkey alone
    expect(page.locator("header")).to_contain_text(log_out)
    page.goto("/me/profile/")
    expect(page.locator("#two-factor-status strong")).to_be_visible()
    context.close()
