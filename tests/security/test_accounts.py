"""Accounts: django-allauth's login rate limits are on, and an API token revoked from the profile
page stops working at once, over HTTP and on the socket."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

import pytest
from allauth.account import app_settings as allauth_settings
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import mail
from django.core.cache import cache
from django.test import Client

from tables.accounts import identity
from tables.accounts.models import ApiToken
from tests.tables.live.helpers import communicator, run

from .callers import Caller, browser

pytestmark = pytest.mark.django_db(transaction=True)


def test_allauth_rate_limits_are_configured_and_on() -> None:
    assert allauth_settings.RATE_LIMITS["login_failed"] == settings.ACCOUNT_RATE_LIMITS["login_failed"]
    for action in ("login_failed", "signup", "reset_password"):
        assert allauth_settings.RATE_LIMITS.get(action), action


def test_after_five_failed_logins_even_the_right_password_is_refused(alice) -> None:
    """Failures are counted per address and account (5 in 5 minutes): from that address the sixth
    try is not even checked (another address is not locked out: test_login_lockout.py)."""
    visitor = Client()
    for attempt in range(5):
        visitor.post("/accounts/login/", {"login": "alice@example.com", "password": f"wrong {attempt}"})
    right = {"login": "alice@example.com", "password": "a long enough password 1"}
    response = visitor.post("/accounts/login/", right)
    assert response.status_code in (200, 429) and "_auth_user_id" not in visitor.session
    assert Client().post("/accounts/login/", {**right}).status_code in (200, 429)  # same address
    fresh = Client()
    cache.clear()  # once the window has passed, the right password works again
    assert fresh.post("/accounts/login/", right).status_code == 302 and "_auth_user_id" in fresh.session


def test_a_token_revoked_from_the_profile_page_stops_working(alice) -> None:
    token, raw = identity.issue_api_token(alice.user, "my bot")
    program = Caller("program", Client(), bearer=raw)
    assert program.api("get", "/me").status_code == 200
    page = browser("owner", alice)
    profile = page.client.get("/me/profile/").content.decode()
    assert "my bot" in profile and token.prefix in profile and raw not in profile
    response = page.client.post(
        f"/me/tokens/{token.pk}/revoke/", {"csrfmiddlewaretoken": page.csrf}, follow=True
    )
    assert response.status_code == 200
    assert ApiToken.objects.get(pk=token.pk).revoked_at is not None
    assert program.api("get", "/me").status_code == 401
    assert "my bot" not in page.client.get("/me/profile/").content.decode()

    async def socket_refused():
        socket = communicator("/ws/me/", token=raw)
        connected, code = await socket.connect(timeout=5)
        await socket.disconnect()
        return connected, code

    assert run(socket_refused)[0] is False


def test_nobody_revokes_another_accounts_token(alice, bob) -> None:
    token, raw = identity.issue_api_token(alice.user, "alice's bot")
    page = browser("other", bob)
    page.client.post(f"/me/tokens/{token.pk}/revoke/", {"csrfmiddlewaretoken": page.csrf})
    assert ApiToken.objects.get(pk=token.pk).revoked_at is None
    assert Caller("program", Client(), bearer=raw).api("get", "/me").status_code == 200


def test_confirming_the_sign_up_email_logs_in_and_returns_to_the_page_of_the_sign_up() -> None:
    """Sign up from a table's page (?next=), follow the link in the email: logged in, at that page,
    without a second login."""
    page = "/t/sometable/"
    visitor = Client()
    response = visitor.post(
        f"/accounts/signup/?next={page}",
        {
            "email": "newcomer@example.com",
            "password1": "a long enough password 1",
            "password2": "a long enough password 1",
            "next": page,
        },
    )
    assert response.status_code == 302 and "_auth_user_id" not in visitor.session
    assert len(mail.outbox) == 1
    link = re.search(r"https?://\S+/accounts/confirm-email/\S+/", mail.outbox[0].body)
    assert link is not None, mail.outbox[0].body
    path = urlsplit(link.group(0)).path
    assert visitor.get(path).status_code == 200  # the page with the button (no change on a GET)
    confirmed = visitor.post(path)
    assert confirmed.status_code == 302 and confirmed["Location"] == page
    user = get_user_model().objects.get(email="newcomer@example.com")
    assert visitor.session["_auth_user_id"] == str(user.pk)
