"""The websocket handshake's Origin check: an Origin header naming an allowed host, or no socket.

channels' ``AllowedHostsOriginValidator`` refuses a foreign Origin, but lets a handshake with no
Origin at all (or a host-less one such as ``null``) through as soon as ``ALLOWED_HOSTS`` holds
``*``. Browsers always send Origin, and a socket opened on a browser's cookies is what another
site could forge; so such a handshake without an Origin naming a host is refused, whatever the
settings, and then the Origin must name one of ``ALLOWED_HOSTS``. A program that identifies
itself with an API token alone (``Authorization: Bearer``, no cookie) may omit the header
(docs/live.md): no other site can make a browser send that.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlparse

from channels.security.websocket import AllowedHostsOriginValidator, WebsocketDenier


def origin_host(scope: dict[str, Any]) -> str | None:
    """The host named by the handshake's Origin header (the last one, as channels reads it)."""
    origin = None
    for name, value in scope.get("headers", []):
        if name.lower() == b"origin":
            origin = value
    if origin is None:
        return None
    try:
        parsed = urlparse(origin.decode("latin1").strip())
    except (UnicodeDecodeError, ValueError):  # ValueError: a malformed port or IPv6 host
        return None
    return parsed.hostname if parsed.scheme and parsed.hostname else None


def token_only(scope: dict[str, Any]) -> bool:
    """A handshake that identifies itself with an API token and carries no cookie: a program."""
    names = {name.lower(): value for name, value in scope.get("headers", [])}
    bearer = names.get(b"authorization", b"").lower().startswith(b"bearer ")
    return bearer and b"cookie" not in names and scope.get("type") == "websocket"


class RequireOrigin:
    """ASGI middleware for the websocket router: no Origin naming a host, no handshake, but for
    a program's token-only handshake, which goes to ``programs`` unchecked."""

    def __init__(self, application: Any, programs: Any) -> None:
        self.application, self.programs = application, programs
        self.denier: Any = WebsocketDenier.as_asgi()

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        if scope["type"] == "websocket" and origin_host(scope) is None:
            if token_only(scope):
                return await self.programs(scope, receive, send)
            return await self.denier(scope, receive, send)
        return await self.application(scope, receive, send)


def websocket_guard(application: Any) -> RequireOrigin:
    """``application`` behind both checks (an Origin is present, and it names an allowed host),
    which a token-only handshake without Origin skips."""
    return RequireOrigin(AllowedHostsOriginValidator(application), programs=application)
