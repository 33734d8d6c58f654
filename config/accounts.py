"""django-allauth's adapters: failed logins counted per address and account, not per account;
ending login sessions closes their sockets.

allauth's ``login_failed`` rate ``5/5m/key`` counts a login (the email) from every address, so
five wrong passwords from anywhere locked the owner out for five minutes. Here the key is the
client's address and the login, so a stranger's failures lock only the stranger's address;
the ``10/m/ip`` rate still limits any one address over all accounts.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from allauth.account.adapter import DefaultAccountAdapter
from allauth.core.internal.ratelimit import get_ip
from allauth.usersessions.adapter import DefaultUserSessionsAdapter
from django.http import HttpRequest

from tables.accounts import services as account_services


class AccountAdapter(DefaultAccountAdapter):  # type: ignore[misc]  # allauth is untyped
    def _get_login_attempts_cache_key(self, request: HttpRequest, **credentials: Any) -> str:
        # allauth's own key ("site:login") prefixed by the address, truncated as allauth's
        # per-address rates truncate it (an IPv6 address to its /64 by default).
        return f"{get_ip(request)}:{super()._get_login_attempts_cache_key(request, **credentials)}"


class UserSessionsAdapter(DefaultUserSessionsAdapter):  # type: ignore[misc]  # allauth is untyped
    """allauth's sessions page (/accounts/sessions/) ends sessions through the accounts' writer,
    which also closes their sockets (tables.accounts.services.sessions)."""

    def end_sessions(self, sessions: Iterable[Any]) -> None:
        account_services.end_sessions(sessions)
