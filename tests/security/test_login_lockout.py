"""Failed logins are limited per address and per (address, account), never per account from any
address: a stranger's wrong passwords lock the stranger's address out, not the owner
(config/accounts.py, settings.ACCOUNT_RATE_LIMITS["login_failed"])."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.tables.helpers import make_account_client

pytestmark = pytest.mark.django_db

RIGHT = "a long enough password 1"
STRANGER, OWNER = "203.0.113.7", "198.51.100.9"


def log_in(client: Client, login: str, password: str) -> bool:
    response = client.post("/accounts/login/", {"login": login, "password": password})
    assert response.status_code in (200, 302, 429), response.status_code
    return response.status_code == 302 and "_auth_user_id" in client.session


def test_a_strangers_failed_logins_do_not_lock_the_owner_out(alice) -> None:
    stranger = Client(REMOTE_ADDR=STRANGER)
    for attempt in range(8):
        assert not log_in(stranger, "alice@example.com", f"wrong {attempt}")
    # The limit is on: from the stranger's address even the right password is refused now...
    assert not log_in(Client(REMOTE_ADDR=STRANGER), "alice@example.com", RIGHT)
    # ...but the owner, from her own address, logs in at once.
    assert log_in(Client(REMOTE_ADDR=OWNER), "alice@example.com", RIGHT)


def test_five_failures_lock_that_address_for_that_account_only(alice) -> None:
    bob = make_account_client("bob@example.com")
    assert bob.user.email == "bob@example.com"
    stranger = Client(REMOTE_ADDR=STRANGER)
    for attempt in range(5):
        assert not log_in(stranger, "alice@example.com", f"wrong {attempt}")
    assert not log_in(Client(REMOTE_ADDR=STRANGER), "alice@example.com", RIGHT)  # 5 in 5 minutes
    assert log_in(Client(REMOTE_ADDR=STRANGER), "bob@example.com", RIGHT)  # another account from there


def test_one_address_is_limited_over_all_accounts(alice) -> None:
    """10 failures a minute from one address, whichever accounts they aim at."""
    emails = [f"user{n}@example.com" for n in range(10)]
    stranger = Client(REMOTE_ADDR=STRANGER)
    for email in emails:
        assert not log_in(stranger, email, "wrong")
    assert not log_in(Client(REMOTE_ADDR=STRANGER), "alice@example.com", RIGHT)  # the 11th: refused
    assert log_in(Client(REMOTE_ADDR=OWNER), "alice@example.com", RIGHT)


def test_behind_a_trusted_proxy_the_address_it_reports_counts(alice, settings) -> None:
    """TRUSTED_PROXY_COUNT=1 (a load balancer): every request comes from the proxy's address, and
    the client's is the last one the proxy appended to X-Forwarded-For."""
    settings.ALLAUTH_TRUSTED_PROXY_COUNT = 1
    proxy = "10.0.0.2"
    stranger = Client(REMOTE_ADDR=proxy, HTTP_X_FORWARDED_FOR=STRANGER)
    for attempt in range(6):
        assert not log_in(stranger, "alice@example.com", f"wrong {attempt}")
    assert not log_in(Client(REMOTE_ADDR=proxy, HTTP_X_FORWARDED_FOR=STRANGER), "alice@example.com", RIGHT)
    owner = Client(REMOTE_ADDR=proxy, HTTP_X_FORWARDED_FOR=f"{STRANGER}, {OWNER}")  # a forged first hop
    assert log_in(owner, "alice@example.com", RIGHT)
