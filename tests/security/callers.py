"""The six kinds of caller of the authorization matrix, as real browsers and programs are:
browsers with CSRF enforced (the token sent as a browser sends it), programs with a bearer token."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlencode

from django.middleware.csrf import _get_new_csrf_string
from django.test import Client

from tables.accounts import identity
from tests.tables.helpers import ApiClient, make_account_client

ROLES = ("owner", "opponent", "spectator", "visitor", "other_account", "staff")


@dataclass
class Caller:
    """One caller: a CSRF-checking browser (``csrf`` set) or a program (``bearer`` set)."""

    role: str
    client: Client
    csrf: str | None = None
    bearer: str | None = None
    received: list[str] = field(default_factory=list)

    def headers(self) -> dict[str, str]:
        if self.bearer:
            return {"Authorization": f"Bearer {self.bearer}"}
        return {"X-CSRFToken": self.csrf} if self.csrf else {}

    def send(
        self, method: str, path: str, body: Any = None, query: dict | None = None, raw: bytes | None = None
    ):
        """One request; ``raw`` is sent as the body exactly (hostile bytes), else ``body`` as JSON."""
        kwargs: dict[str, Any] = {"headers": self.headers()}
        if method == "get":
            response = self.client.get(path, query or {}, **kwargs)
        else:
            data = raw if raw is not None else (b"" if body is None else json.dumps(body))
            target = path + ("?" + _query_string(query) if query else "")
            response = getattr(self.client, method)(target, data, content_type="application/json", **kwargs)
        self.received.append(response.content.decode(errors="replace"))
        return response

    def api(self, method: str, path: str, body: Any = None):
        return self.send(method, f"/api{path}", body)


def _query_string(query: dict) -> str:
    return urlencode(query, doseq=True)


def browser(role: str, api_client: ApiClient | None = None) -> Caller:
    """A browser that sends the CSRF token like the site's pages do (cookie plus header)."""
    client = Client(enforce_csrf_checks=True)
    if api_client is not None:
        client.cookies = api_client.client.cookies
    secret = _get_new_csrf_string()
    client.cookies["csrftoken"] = secret
    return Caller(role, client, csrf=secret)


def program(role: str, api_client: ApiClient) -> Caller:
    """A program playing as ``api_client``'s account with a fresh API token."""
    _, raw = identity.issue_api_token(api_client.user, f"{role} token")
    return Caller(role, Client(enforce_csrf_checks=True), bearer=raw)


def account(email: str, *, staff: bool = False) -> ApiClient:
    return make_account_client(email, staff=staff)
