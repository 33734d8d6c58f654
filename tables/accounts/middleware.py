"""Where each login session was last seen (allauth.usersessions' activity tracking), written at
most once a minute per session: allauth's own middleware writes the session's row on every
request, a database write in front of every page and API call of a logged-in browser."""

from __future__ import annotations

import hashlib
from collections.abc import Callable

from allauth.usersessions.internal import usersessionkit
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse

TRACK_EVERY_SECONDS = 60


class SessionActivityMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        session = getattr(request, "session", None)
        key = session.session_key if session is not None else None
        user = getattr(request, "user", None)
        if key and user is not None and user.is_authenticated:
            stamp = "session-seen:" + hashlib.sha256(key.encode()).hexdigest()[:32]
            if cache.add(stamp, 1, TRACK_EVERY_SECONDS):  # the first request of the minute
                usersessionkit.track_activity(request, user=user, session=session)
        return self.get_response(request)
