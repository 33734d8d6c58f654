"""The websocket handshake's Origin check: an Origin header naming an allowed host, or no socket.

channels' ``AllowedHostsOriginValidator`` refuses a foreign Origin, but lets a handshake with no
Origin at all (or a host-less one such as ``null``) through as soon as ``ALLOWED_HOSTS`` holds
``*``. Browsers always send Origin; programs must send one too (docs/live.md). So a handshake
without an Origin naming a host is refused first, whatever the settings, and then the Origin
must name one of ``ALLOWED_HOSTS``.
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


class RequireOrigin:
    """ASGI middleware for the websocket router: no Origin naming a host, no handshake."""

    def __init__(self, application: Any) -> None:
        self.application = application
        self.denier: Any = WebsocketDenier.as_asgi()

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        if scope["type"] == "websocket" and origin_host(scope) is None:
            return await self.denier(scope, receive, send)
        return await self.application(scope, receive, send)


def websocket_guard(application: Any) -> RequireOrigin:
    """``application`` behind both checks: an Origin is present, and it names an allowed host."""
    return RequireOrigin(AllowedHostsOriginValidator(application))
