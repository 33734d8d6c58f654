"""CSRF on every browser POST: each unsafe API operation (taken from the OpenAPI schema, so a new
endpoint is covered the day it is added) and each form of the pages is refused with 403 without
the token, and changes nothing; with the token it gets past the check. The one exempt view is the
signed one-click unsubscribe link of emails (RFC 8058), which acts only on the player it names. A program with a bearer
token needs no CSRF token: no cookie is sent, so no other site can forge its requests."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import get_resolver

from tables.api import api
from tables.play.views import PAGE_VERBS
from tests.tables.helpers import started

from .callers import browser, program
from .fingerprint import changed_models, database_fingerprint

pytestmark = pytest.mark.django_db

UNSAFE = ("post", "put", "patch", "delete")


def unsafe_api_paths(token: str) -> list[tuple[str, str]]:
    schema = api.get_openapi_schema()
    concrete = {
        "{token}": token,
        "{match_number}": "1",
        "{deal_number}": "1",
        "{token_id}": "1",
        "{session_id}": "1",
    }
    found = []
    for path, operations in schema["paths"].items():
        for name, value in concrete.items():
            path = path.replace(name, value)
        found += [(method, path) for method in operations if method in UNSAFE]
    return found


def page_forms(token: str) -> list[str]:
    verbs = PAGE_VERBS
    fixed = [
        "/new/",
        "/me/profile/",
        "/me/tokens/1/revoke/",
        "/me/tokens/new/",
        "/me/sessions/",
        "/me/export/",
        "/me/delete/",
        "/i18n/setlang/",
    ]
    return [*fixed, *(f"/t/{token}/{verb}/" for verb in verbs)]


@pytest.fixture
def game(alice, bob):
    token, _ = started(alice, bob)
    return token, alice


def test_every_unsafe_api_operation_needs_the_csrf_token(game) -> None:
    token, alice = game
    without = Client(enforce_csrf_checks=True)
    without.cookies = alice.client.cookies  # logged in, but a forged request carries no token
    paths = unsafe_api_paths(token)
    assert len(paths) >= 15
    for method, path in paths:
        before = database_fingerprint()
        response = getattr(without, method)(path, "{}", content_type="application/json")
        assert response.status_code == 403, (method, path, response.status_code)
        assert response.json()["error"] == "csrf_failed", (method, path)
        assert not changed_models(before, database_fingerprint()), (method, path)


def test_with_the_token_the_same_requests_pass_the_check(game) -> None:
    token, alice = game
    with_token = browser("owner", alice)
    for method, path in unsafe_api_paths(token):
        response = with_token.send(method, path, {})
        body = response.json()
        assert body.get("error") != "csrf_failed", (method, path, body)


def test_a_bearer_token_needs_no_csrf_token(game) -> None:
    token, alice = game
    bot = program("owner", alice)
    response = bot.api("post", f"/tables/{token}/chat", {"text": "hola"})
    assert response.status_code == 201


def test_a_guest_browser_needs_the_csrf_token_too(game) -> None:
    token, _ = game
    guest = Client(enforce_csrf_checks=True)
    assert guest.post(f"/t/{token}/join/", {"name": "Gus"}).status_code == 403
    assert guest.post("/api/tables", '{"name": "Gus"}', content_type="application/json").status_code == 403


def test_every_page_form_needs_the_csrf_token(game) -> None:
    token, alice = game
    without = Client(enforce_csrf_checks=True)
    without.cookies = alice.client.cookies
    for path in page_forms(token):
        before = database_fingerprint()
        response = without.post(path, {"text": "hi", "name": "x", "level": "tito", "language": "en"})
        assert response.status_code == 403, (path, response.status_code)
        assert not changed_models(before, database_fingerprint()), path
    with_token = browser("owner", alice)
    for path in page_forms(token):
        response = with_token.client.post(path, {"csrfmiddlewaretoken": with_token.csrf, "text": "hi"})
        assert response.status_code != 403, path


def test_login_and_signup_forms_need_the_csrf_token(db) -> None:
    visitor = Client(enforce_csrf_checks=True)
    for path in ("/accounts/login/", "/accounts/signup/", "/accounts/password/reset/"):
        assert visitor.post(path, {"login": "a@example.com", "password": "x"}).status_code == 403, path


def test_only_the_api_and_the_signed_unsubscribe_link_skip_django_csrf() -> None:
    """django-ninja checks CSRF itself (the test above); no other view may switch it off."""
    exempt = {
        route
        for route, callback in _routes(get_resolver())
        if getattr(callback, "csrf_exempt", False) and not route.startswith("api/")
    }
    assert exempt == {"alerts/unsubscribe/<str:token>/"}


def _routes(resolver, prefix: str = ""):
    for pattern in resolver.url_patterns:
        route = prefix + str(pattern.pattern)
        if hasattr(pattern, "url_patterns"):
            yield from _routes(pattern, route)
        else:
            yield route, pattern.callback
