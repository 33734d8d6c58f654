"""Content-Security-Policy: scripts and styles come only from this site's static files.

No page may run an inline script or carry an inline style; the table page's data travels
as a JSON block (`json_script`), which the browser never executes. Two pages are not ours:
the admin writes a few inline styles, and the API's Swagger page loads its scripts from a CDN.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse

_POLICY = (
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self' {sockets}",
    "worker-src 'self'",
    "manifest-src 'self'",
    "media-src 'self' data:",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
)
_ADMIN_STYLES = "style-src 'self' 'unsafe-inline'"
_WITHOUT_POLICY = ("/api/docs",)


def policy_for(request: HttpRequest) -> str | None:
    if request.path.startswith(_WITHOUT_POLICY):
        return None
    host = request.get_host()
    sockets = f"wss://{host}" if request.is_secure() else f"ws://{host} wss://{host}"
    directives = [directive.format(sockets=sockets) for directive in _POLICY]
    if request.path.startswith("/admin/"):
        directives = [_ADMIN_STYLES if d.startswith("style-src") else d for d in directives]
    return "; ".join(directives)


class ContentSecurityPolicyMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        policy = policy_for(request)
        if policy and "Content-Security-Policy" not in response:
            response["Content-Security-Policy"] = policy
        return response
