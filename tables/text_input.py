"""Refusing the NUL character at the edges of the site.

No name, chat line, token or key has any use for it, and PostgreSQL cannot store it in a text
column: let one through and a write fails deep inside a service with a 500. So every way text
comes in (URL, query string, form, JSON body, socket message) is checked once, up front.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest

NUL = "\x00"


def nul_location(data: Any, path: tuple[str, ...] = ()) -> tuple[str, ...] | None:
    """Where in a decoded JSON value (or plain string) a NUL character sits, or None."""
    if isinstance(data, str):
        return path if NUL in data else None
    if isinstance(data, dict):
        for key, value in data.items():
            found = nul_location(str(key), (*path, str(key))) or nul_location(value, (*path, str(key)))
            if found is not None:
                return found
    elif isinstance(data, list):
        for index, value in enumerate(data):
            found = nul_location(value, (*path, str(index)))
            if found is not None:
                return found
    return None


def request_nul_field(request: HttpRequest) -> str | None:
    """The name of the first URL, query or form field holding a NUL character, or None."""
    if NUL in request.path:
        return "path"
    sources = [request.GET, request.POST] if _is_form(request) else [request.GET]
    for source in sources:
        for key, values in source.lists():
            if NUL in key or any(NUL in value for value in values):
                return key.replace(NUL, "")
    return None


def _is_form(request: HttpRequest) -> bool:
    content_type: str = request.META.get("CONTENT_TYPE", "")
    return request.method == "POST" and content_type.startswith(
        ("application/x-www-form-urlencoded", "multipart/form-data")
    )
