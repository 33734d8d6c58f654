"""Two-factor login (allauth.mfa): an authenticator app is enrolled from the profile, then a
login asks for its code after the password; a wrong code is refused, a right one or a recovery
code logs in, and wrong codes count against the login limits (settings.ACCOUNT_RATE_LIMITS)."""

from __future__ import annotations

import re

import pytest
from allauth.mfa.models import Authenticator
from allauth.mfa.recovery_codes.internal.auth import RecoveryCodes
from django.core.cache import cache
from django.test import Client

from tests.tables.helpers import totp_code as code_of

pytestmark = pytest.mark.django_db

EMAIL, PASSWORD = "alice@example.com", "a long enough password 1"


def wrong_code_of(secret: str) -> str:
    return f"{(int(code_of(secret)) + 1) % 1_000_000:06d}"


def log_in(client: Client) -> str:
    """The password step: where the login goes next."""
    response = client.post("/accounts/login/", {"login": EMAIL, "password": PASSWORD})
    assert response.status_code == 302, response.status_code
    return str(response["Location"])


def logged_in(client: Client) -> bool:
    return "_auth_user_id" in client.session


def enrol(alice) -> str:
    """Alice turns on an authenticator app from her profile: the secret it scanned."""
    client = Client()
    assert log_in(client) == "/"
    profile = client.get("/me/profile/").content.decode()
    assert 'href="/accounts/2fa/"' in profile and "two-factor-status" in profile
    asked = client.get("/accounts/2fa/totp/activate/")  # allauth asks for the password again first
    assert asked.status_code == 302 and asked["Location"].startswith("/accounts/reauthenticate/")
    assert client.post(asked["Location"], {"password": PASSWORD}).status_code == 302
    page = client.get("/accounts/2fa/totp/activate/")
    assert page.status_code == 200
    secret = page.context["form"].secret
    assert 'src="data:image/svg+xml' in page.content.decode()  # the QR code to scan
    wrong = client.post("/accounts/2fa/totp/activate/", {"code": wrong_code_of(secret)})
    assert wrong.status_code == 200 and not Authenticator.objects.filter(user=alice.user).exists()
    right = client.post("/accounts/2fa/totp/activate/", {"code": code_of(secret)})
    assert right.status_code == 302
    kinds = set(Authenticator.objects.filter(user=alice.user).values_list("type", flat=True))
    assert kinds == {Authenticator.Type.TOTP, Authenticator.Type.RECOVERY_CODES}
    assert "El inicio de sesión en dos pasos está activado." in client.get("/me/profile/").content.decode()
    cache.clear()  # the enrolment's code may not be used again within its 30 s
    return str(secret)


def test_a_login_needs_the_apps_code_once_enrolled(alice) -> None:
    secret = enrol(alice)
    client = Client()
    assert log_in(client) == "/accounts/2fa/authenticate/"
    assert not logged_in(client)  # the password alone is not enough any more
    refused = client.post("/accounts/2fa/authenticate/", {"code": wrong_code_of(secret)})
    assert refused.status_code == 200 and not logged_in(client)
    accepted = client.post("/accounts/2fa/authenticate/", {"code": code_of(secret)})
    assert accepted.status_code == 302 and logged_in(client)


def test_a_recovery_code_logs_in_once(alice) -> None:
    enrol(alice)
    codes = RecoveryCodes(
        Authenticator.objects.get(user=alice.user, type="recovery_codes")
    ).get_unused_codes()
    assert len(codes) == 10
    client = Client()
    log_in(client)
    assert client.post("/accounts/2fa/authenticate/", {"code": codes[0]}).status_code == 302
    assert logged_in(client)
    again = Client()
    log_in(again)
    assert again.post("/accounts/2fa/authenticate/", {"code": codes[0]}).status_code == 200  # spent
    assert not logged_in(again)


def test_wrong_codes_count_against_the_login_limits(alice) -> None:
    """Five wrong codes in five minutes (the account's "login_failed" limit): then even the
    right code is refused, until the window has passed."""
    secret = enrol(alice)
    client = Client()
    log_in(client)
    for _ in range(5):
        assert client.post("/accounts/2fa/authenticate/", {"code": wrong_code_of(secret)}).status_code == 200
    locked = client.post("/accounts/2fa/authenticate/", {"code": code_of(secret)}, HTTP_ACCEPT_LANGUAGE="en")
    assert locked.status_code == 200 and not logged_in(client)
    assert "Too many failed login attempts" in locked.content.decode()
    cache.clear()  # the window has passed
    assert client.post("/accounts/2fa/authenticate/", {"code": code_of(secret)}).status_code == 302
    assert logged_in(client)


@pytest.mark.parametrize(
    ("language", "title"), [("es", "Autenticación de doble factor"), ("en", "Two-Factor")]
)
def test_the_two_factor_pages_speak_both_languages(alice, language: str, title: str) -> None:
    alice.client.cookies["django_language"] = language
    page = alice.client.get("/accounts/2fa/").content.decode()
    assert title in page and 'class="btn' in page


def test_passkeys_are_offered_and_their_pages_run_no_inline_script(alice) -> None:
    """The login page offers a passkey login; adding one (after the password again) is a page
    whose scripts are static files (the CSP forbids inline ones) and whose data is inert JSON."""
    login = Client().get("/accounts/login/").content.decode()
    assert "passkey_login" in login and "mfa/js/webauthn.js" in login
    client = Client()
    log_in(client)
    client.post("/accounts/reauthenticate/", {"password": PASSWORD})
    page = client.get("/accounts/2fa/webauthn/add/")
    assert page.status_code == 200 and "script-src 'self'" in page["Content-Security-Policy"]
    scripts = re.findall(r"<script([^>]*)>", page.content.decode())
    assert scripts and all("src=" in attrs or 'type="application/json"' in attrs for attrs in scripts)


def test_every_account_page_answers_in_both_languages(alice) -> None:
    """allauth's pages that the profile leads to render in the site's layout (none is a 500)."""
    client = Client()
    log_in(client)
    client.post("/accounts/reauthenticate/", {"password": PASSWORD})
    enrol_paths = ["/accounts/2fa/totp/activate/", "/accounts/2fa/webauthn/add/", "/accounts/2fa/webauthn/"]
    paths = [
        "/accounts/2fa/",
        *enrol_paths,
        "/accounts/sessions/",
        "/accounts/email/",
        "/accounts/password/change/",
    ]
    for language in ("es", "en"):
        client.cookies["django_language"] = language
        for path in paths:
            response = client.get(path)
            assert response.status_code == 200, (path, response.status_code)
            assert (
                'class="site-header' in response.content.decode() or "<header" in response.content.decode()
            ), path
