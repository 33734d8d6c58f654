"""Where each login session was last seen (allauth.usersessions' activity tracking), written at
most once a minute per session, in one UPDATE: allauth's own middleware writes the session's row
on every request (a transaction with a read and a write in front of every page and API call of a
logged-in browser)."""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Callable

from allauth.account.adapter import get_adapter
from allauth.usersessions.internal import usersessionkit
from allauth.usersessions.models import UserSession
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.utils import timezone

TRACK_EVERY_SECONDS = 60

log = logging.getLogger(__name__)


class SessionActivityMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        session = getattr(request, "session", None)
        key = session.session_key if session is not None else None
        user = getattr(request, "user", None)
        if key and user is not None and user.is_authenticated and _first_of_the_minute(key):
            agent = request.headers.get("user-agent", "")[: UserSession.user_agent.field.max_length]
            seen = UserSession.objects.filter(session_key=key, user_id=user.pk).update(
                last_seen_at=timezone.now(), ip=get_adapter().get_client_ip(request), user_agent=agent
            )
            if not seen:  # a session from before the sessions list: allauth makes its row
                usersessionkit.track_activity(request, user=user, session=session)
        return self.get_response(request)


def _first_of_the_minute(session_key: str) -> bool:
    """A stamp in the cache per session and minute; with the cache down, no tracking (a page
    must not fail, nor every request write, for a "last seen")."""
    stamp = "session-seen:" + hashlib.sha256(session_key.encode()).hexdigest()[:32]
    try:
        return bool(cache.add(stamp, 1, TRACK_EVERY_SECONDS))
    except Exception:
        log.warning("session activity not tracked: the cache is unavailable", exc_info=True)
        return False
