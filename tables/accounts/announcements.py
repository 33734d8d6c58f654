"""What the accounts' writers announce once it is done, to whoever subscribes (tables/apps.py).

``sessions_ended`` is sent with ``session_keys`` (a list of str) once those login sessions are
gone from the session store, after the transaction commits: live publishing closes the sockets
each of them opened (tables/live/events.py), so an ended session stops playing at once.

``account_leaving`` is sent with ``player_id`` while an account is being deleted, once its
running matches are resigned and before its rows are erased: a room that keeps the account in
something still going (tables.tournaments: its events) lets it go then, while the player exists.
"""

from __future__ import annotations

import logging

from django.db import transaction
from django.dispatch import Signal

log = logging.getLogger(__name__)

sessions_ended = Signal()
account_leaving = Signal()


def announce_sessions_ended(session_keys: list[str]) -> None:
    if session_keys:
        transaction.on_commit(lambda: sessions_ended.send(sender=None, session_keys=session_keys))


def announce_account_leaving(player_id: int) -> None:
    """Tell every receiver; one receiver's failure is logged and keeps no deletion from happening."""
    for receiver, result in account_leaving.send_robust(sender=None, player_id=player_id):
        if isinstance(result, Exception):
            log.error("%s failed as player %s left", receiver, player_id, exc_info=result)
