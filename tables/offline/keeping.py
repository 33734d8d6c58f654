"""Which pages the service worker may keep for offline: the header that says so.

The worker keeps a page only when its answer carries KEEP_HEADER, and forgets its copy of a
page answered without it: a table the visitor watches (or left) is never kept, so a kept copy
is always the view the server made for its own seated player, nothing else.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpResponse

KEEP_HEADER = "Ginmesa-Offline"
KEEP = "keep"


def keep_offline(response: HttpResponse) -> HttpResponse:
    """Mark a page the worker may keep, and keep it out of shared caches."""
    response[KEEP_HEADER] = KEEP
    response["Cache-Control"] = "private, no-cache"
    return response


def may_keep_table(state: dict[str, Any]) -> bool:
    """A table's page is kept for a seated player only (their own view of their own table)."""
    return state["you"]["seat"] is not None
