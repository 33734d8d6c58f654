"""Where the account is logged in (allauth.usersessions): the list (browser, address, last seen),
ending one session or every other one, from the page and the API, and a new password or a
second factor logging the others out. An ended session's sockets close at once (4401)."""

from __future__ import annotations

import datetime as dt
import time
from typing import Any

import pytest
from allauth.usersessions.models import UserSession
from django.core.cache import cache
from django.test import Client
from django.utils import timezone

from tables.accounts import identity
from tests.tables.helpers import ApiClient, open_table
from tests.tables.live.helpers import WAIT, communicator, run, sync

from .test_two_factor import EMAIL, PASSWORD, code_of

pytestmark = pytest.mark.django_db(transaction=True)

FIREFOX = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0"
PHONE = (
    "Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Mobile Safari/537.36"
)


def logged_in_browser(agent: str, address: str) -> ApiClient:
    client = Client(HTTP_USER_AGENT=agent, REMOTE_ADDR=address)
    response = client.post("/accounts/login/", {"login": EMAIL, "password": PASSWORD})
    assert response.status_code == 302 and "_auth_user_id" in client.session
    return ApiClient(client)


def logged_in(browser: ApiClient) -> bool:
    return browser.client.get("/api/me/sessions").status_code == 200


async def closed_code(socket: Any) -> int:
    """Skip what the socket sends until it closes: its close code."""
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        output = await socket.receive_output(timeout=deadline - time.monotonic())
        if output["type"] == "websocket.close":
            return int(output["code"])
    raise AssertionError("the socket stayed open")


def ends_with_sockets(laptop: ApiClient, phone: ApiClient, end: Any) -> None:
    """The phone has its user socket and a table socket open; ``end()`` (from the laptop) ends
    the phone's session: both sockets close at once, and the phone is logged out."""
    table = open_table(phone)["table"]

    async def body() -> None:
        user_socket = communicator("/ws/me/", phone)
        table_socket = communicator(f"/ws/tables/{table}/", phone)
        assert (await user_socket.connect(timeout=WAIT))[0] and (await table_socket.connect(timeout=WAIT))[0]
        await sync(end)
        assert await closed_code(user_socket) == 4401
        assert await closed_code(table_socket) == 4401
        await user_socket.disconnect()
        await table_socket.disconnect()

    run(body)
    assert not logged_in(phone) and logged_in(laptop)


def test_the_list_shows_browser_address_and_last_seen(alice) -> None:
    laptop = logged_in_browser(FIREFOX, "198.51.100.9")
    logged_in_browser(PHONE, "203.0.113.7")
    rows = laptop.ok("get", "/me/sessions")["sessions"]
    assert {(row["browser"], row["address"], row["current"]) for row in rows} == {
        ("Firefox · Windows", "198.51.100.9", True),
        ("Chrome · Android", "203.0.113.7", False),
    }
    assert all(row["last_seen_at"] for row in rows)
    page = laptop.client.get("/me/sessions/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Firefox · Windows" in page and "203.0.113.7" in page and "end-others" in page
    assert 'href="/me/sessions/"' in laptop.client.get("/me/profile/").content.decode()


def test_ending_one_session_from_the_page_closes_its_sockets(alice) -> None:
    laptop = logged_in_browser(FIREFOX, "198.51.100.9")
    phone = logged_in_browser(PHONE, "203.0.113.7")
    third = logged_in_browser(FIREFOX, "192.0.2.1")
    phone_key = phone.client.session.session_key
    row = UserSession.objects.get(session_key=phone_key)

    ends_with_sockets(laptop, phone, lambda: laptop.client.post("/me/sessions/", {"end": str(row.pk)}))
    assert logged_in(third)  # only that one
    # Nobody ends their own session this way (logging out does), nor another account's.
    own = UserSession.objects.get(session_key=laptop.client.session.session_key)
    assert laptop.client.delete(f"/api/me/sessions/{own.pk}").status_code == 404


def test_ending_every_other_session_over_the_api(alice) -> None:
    laptop = logged_in_browser(FIREFOX, "198.51.100.9")
    phone = logged_in_browser(PHONE, "203.0.113.7")
    third = logged_in_browser(FIREFOX, "192.0.2.1")
    ends_with_sockets(laptop, phone, lambda: laptop.ok("delete", "/me/sessions"))
    assert not logged_in(third)
    assert [row["current"] for row in laptop.ok("get", "/me/sessions")["sessions"]] == [True]


def test_a_new_password_logs_out_the_others(alice) -> None:
    laptop = logged_in_browser(FIREFOX, "198.51.100.9")
    phone = logged_in_browser(PHONE, "203.0.113.7")
    change = {
        "oldpassword": PASSWORD,
        "password1": "another long password 2",
        "password2": "another long password 2",
    }
    ends_with_sockets(laptop, phone, lambda: laptop.client.post("/accounts/password/change/", change))


def test_turning_on_two_factor_logs_out_the_others(alice) -> None:
    laptop = logged_in_browser(FIREFOX, "198.51.100.9")
    phone = logged_in_browser(PHONE, "203.0.113.7")
    laptop.client.post("/accounts/reauthenticate/", {"password": PASSWORD})
    secret = laptop.client.get("/accounts/2fa/totp/activate/").context["form"].secret

    def activate() -> None:
        assert (
            laptop.client.post("/accounts/2fa/totp/activate/", {"code": code_of(secret)}).status_code == 302
        )

    ends_with_sockets(laptop, phone, activate)


def test_a_program_manages_no_sessions(alice) -> None:
    logged_in_browser(PHONE, "203.0.113.7")
    _, raw = identity.issue_api_token(alice.user, "bot")
    program = ApiClient(token=raw)
    assert program.get("/me/sessions").status_code == 403
    assert program.request("delete", "/me/sessions").status_code == 403
    assert UserSession.objects.filter(user=alice.user).count() == 1


def test_last_seen_is_written_at_most_once_a_minute(alice) -> None:
    laptop = logged_in_browser(FIREFOX, "198.51.100.9")
    row = UserSession.objects.get(session_key=laptop.client.session.session_key)
    long_ago = timezone.now() - dt.timedelta(hours=1)

    def seen_after_a_request(address: str) -> UserSession:
        UserSession.objects.filter(pk=row.pk).update(last_seen_at=long_ago)
        laptop.client.get("/me/profile/", REMOTE_ADDR=address)
        return UserSession.objects.get(pk=row.pk)

    first = seen_after_a_request("192.0.2.44")
    assert first.last_seen_at > long_ago and first.ip == "192.0.2.44"  # the first request of the minute
    assert seen_after_a_request("192.0.2.45").last_seen_at == long_ago  # the same minute: no write
    cache.clear()  # a minute later
    assert seen_after_a_request("192.0.2.45").ip == "192.0.2.45"


def test_allauths_own_sessions_page_ends_the_others_with_their_sockets(alice) -> None:
    """/accounts/sessions/ goes through config.accounts.UserSessionsAdapter: the same writer."""
    laptop = logged_in_browser(FIREFOX, "198.51.100.9")
    phone = logged_in_browser(PHONE, "203.0.113.7")
    assert "Chrome" in laptop.client.get("/accounts/sessions/").content.decode()
    ends_with_sockets(laptop, phone, lambda: laptop.client.post("/accounts/sessions/", {}))
