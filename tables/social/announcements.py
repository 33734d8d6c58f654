"""What the moderation writers announce once it is done, to whoever subscribes (tables/apps.py).

``moderated`` is sent with ``action_ids`` (ModerationAction ids) once the transaction that logged
those actions has committed: the inbox lines that follow (a warning to its player, "your report
was handled" to the reporter) are written by its receiver (tables.social.alerts), never in the
writer's transaction.
"""

from __future__ import annotations

import logging

from django.db import transaction
from django.dispatch import Signal

log = logging.getLogger(__name__)

moderated = Signal()


def announce_moderation(action_ids: list[int]) -> None:
    if action_ids:
        transaction.on_commit(lambda: _send(action_ids))


def _send(action_ids: list[int]) -> None:
    for receiver, result in moderated.send_robust(sender=None, action_ids=action_ids):
        if isinstance(result, Exception):
            log.error("%s failed on moderation actions %s", receiver, action_ids, exc_info=result)
