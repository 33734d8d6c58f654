"""Authentication for websockets: the browser's session (an account or a guest), or an API
token for programs (``Authorization: Bearer gm_...`` on the handshake).

The stack only reads cookies, the session and the header; the consumer resolves the caller
(a database query) with `resolve_caller` once it runs.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from asgiref.typing import ASGIReceiveCallable, ASGISendCallable
from channels.auth import AuthMiddlewareStack
from django.http import HttpRequest

from tables.accounts import identity
from tables.accounts.models import Player


@dataclass(frozen=True)
class SocketCaller:
    allowed: bool
    player: Player | None = None
    via: str = "none"  # "token", "session", "anonymous" (a browser with no session), or "none"
    read_only: bool = False  # a token of the "read" scope: it watches, never plays or chats


class BearerTokenMiddleware:
    """Puts the raw API token of an ``Authorization: Bearer`` header in ``scope["api_token"]``."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    async def __call__(
        self, scope: dict[str, Any], receive: ASGIReceiveCallable, send: ASGISendCallable
    ) -> Any:
        headers = dict(scope.get("headers") or [])
        value = headers.get(b"authorization", b"").decode("latin-1")
        scheme, _, token = value.partition(" ")
        scope = {**scope, "api_token": token.strip() if scheme.lower() == "bearer" else None}
        return await self.inner(scope, receive, send)


def SocketAuthMiddlewareStack(inner: Any) -> Any:
    """The ASGI app ``inner`` (the socket routes) behind the session and the bearer token."""
    return AuthMiddlewareStack(BearerTokenMiddleware(inner))


def resolve_caller(scope: Mapping[str, Any]) -> SocketCaller:
    """As the HTTP API decides: a token must be valid; a browser with an account or a guest
    cookie is that player; any other browser is a visitor with the link, as on the page: it
    watches the spectators' view (the table socket refuses its moves and chat, and the user
    socket closes without a player)."""
    raw = scope.get("api_token")
    if raw:
        check = identity.check_api_token(raw)  # unknown, revoked or expired: refused (4401)
        return SocketCaller(check.player is not None, check.player, "token", read_only=not check.plays)
    request = HttpRequest()
    request.COOKIES = scope.get("cookies") or {}
    session = scope.get("session")
    if session is not None:
        request.session = session
    request.user = scope.get("user")  # type: ignore[assignment]  # may be None: identity allows it
    player = identity.player_for_request(request)
    if player is not None:
        return SocketCaller(True, player, "session")
    has_session = session is not None and session.session_key is not None
    return SocketCaller(True, None, "session" if has_session else "anonymous")
