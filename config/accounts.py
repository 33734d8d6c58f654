"""django-allauth's adapter: failed logins counted per address and account, not per account.

allauth's ``login_failed`` rate ``5/5m/key`` counts a login (the email) from every address, so
five wrong passwords from anywhere locked the owner out for five minutes. Here the key is the
client's address and the login, so a stranger's failures lock only the stranger's address;
the ``10/m/ip`` rate still limits any one address over all accounts.
"""

from __future__ import annotations

from typing import Any

from allauth.account.adapter import DefaultAccountAdapter
from allauth.core.internal.ratelimit import get_ip
from django.http import HttpRequest


class AccountAdapter(DefaultAccountAdapter):  # type: ignore[misc]  # allauth is untyped
    def _get_login_attempts_cache_key(self, request: HttpRequest, **credentials: Any) -> str:
        # allauth's own key ("site:login") prefixed by the address, truncated as allauth's
        # per-address rates truncate it (an IPv6 address to its /64 by default).
        return f"{get_ip(request)}:{super()._get_login_attempts_cache_key(request, **credentials)}"
