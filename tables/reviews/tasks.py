"""The review's Celery task: each takes ids and calls the review's writer."""

from __future__ import annotations

from tables.background import registry
from tables.background.registry import registered
from tables.reviews import services as reviews


@registered(registry.REVIEW_DEAL)
def review_deal(review_id: int) -> str:
    """LUNA's review of a finished deal (tables.reviews.services), on the ``reviews`` queue: one
    task per requested review, each computing the most urgent one pending (the players' own
    first), which may be another than ``review_id``; with nothing pending it does nothing."""
    return reviews.run_next_review()
