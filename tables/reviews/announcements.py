"""What the reviews' writer announces once it is done, to whoever subscribes (tables/apps.py).

``reviewed`` is sent with ``review_id`` (a DealReview id) once the review's result is committed:
the inbox line "a review is ready" is written by its receiver (tables.reviews.alerts), never in
the writer's transaction.
"""

from __future__ import annotations

import logging

from django.db import transaction
from django.dispatch import Signal

log = logging.getLogger(__name__)

reviewed = Signal()


def announce_review(review_id: int) -> None:
    transaction.on_commit(lambda: _send(review_id))


def _send(review_id: int) -> None:
    for receiver, result in reviewed.send_robust(sender=None, review_id=review_id):
        if isinstance(result, Exception):
            log.error("%s failed on review %s", receiver, review_id, exc_info=result)
