"""What the accounts' writers announce once it is done, to whoever subscribes (tables/apps.py).

``sessions_ended`` is sent with ``session_keys`` (a list of str) once those login sessions are
gone from the session store, after the transaction commits: live publishing closes the sockets
each of them opened (tables/live/events.py), so an ended session stops playing at once.
"""

from __future__ import annotations

from django.db import transaction
from django.dispatch import Signal

sessions_ended = Signal()


def announce_sessions_ended(session_keys: list[str]) -> None:
    if session_keys:
        transaction.on_commit(lambda: sessions_ended.send(sender=None, session_keys=session_keys))
