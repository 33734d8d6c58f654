"""Where an account is logged in (allauth.usersessions' rows) and ending those logins: one,
every other one, or every other one after a change of password or a new second factor.

Ending a session deletes it from the session store (that browser is logged out on its next
request) and announces it (tables.accounts.announcements): its open sockets close at once.
"""

from __future__ import annotations

from collections.abc import Iterable

from allauth.usersessions.models import UserSession
from django.contrib.auth.models import User

from tables.accounts.announcements import announce_sessions_ended


def live_sessions(user: User) -> list[UserSession]:
    """The account's sessions still in the store, oldest first (allauth purges the others)."""
    return sorted(UserSession.objects.purge_and_list(user), key=lambda row: row.created_at)


def end_sessions(sessions: Iterable[UserSession]) -> list[str]:
    """End each session (allauth's UserSession.end) and announce those that were live; a row
    whose session had already left the store (a key rotated at login or on a password change)
    is only deleted. The keys ended, for the caller."""
    ended = []
    for row in sessions:
        if row.exists():
            ended.append(row.session_key)
        row.end()
    announce_sessions_ended(ended)
    return ended


def end_session(user: User, session_id: int, current_key: str | None) -> bool:
    """End one of the account's sessions, never the caller's own (logging out does that)."""
    rows = list(UserSession.objects.filter(user=user, pk=session_id).exclude(session_key=current_key or ""))
    end_sessions(rows)
    return bool(rows)


def end_other_sessions(user: User, current_key: str | None) -> list[str]:
    """End every session of the account but the caller's (``current_key``; None: all of them)."""
    return end_sessions(list(UserSession.objects.filter(user=user).exclude(session_key=current_key or "")))
