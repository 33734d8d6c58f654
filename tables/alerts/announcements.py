"""What the inbox's writer (tables.alerts.services) announces once the event's transaction has
committed: ``inbox_written`` with ``player_id``, so that every open page of the player counts its
unread lines again (its receiver, tables.alerts.inbox, publishes on the user socket). A line
written in a transaction that rolls back is never announced."""

from __future__ import annotations

import logging

from django.db import transaction
from django.dispatch import Signal

log = logging.getLogger(__name__)

inbox_written = Signal()


def announce_inbox_on_commit(player_id: int) -> None:
    transaction.on_commit(lambda: _send(player_id))


def _send(player_id: int) -> None:
    for receiver, result in inbox_written.send_robust(sender=None, player_id=player_id):
        if isinstance(result, Exception):
            log.error("%s failed on the inbox of %s", receiver, player_id, exc_info=result)
