"""The inbox line "a review is ready", written once a review is committed as done
(tables.reviews.announcements): to the account that asked for it, once the last of the seats it
asked for in that deal is done (a review of both seats: one line, when both are), in its
language, linking to the deal's replay. Its occasion is the deal, so an announcement heard twice,
or two seats finishing at once, keeps one line."""

from __future__ import annotations

from typing import Any

from django.urls import reverse

from tables.alerts import inbox, texts
from tables.reviews.models import DealReview

KIND = "review_ready"


def on_reviewed(sender: Any, review_id: int, **kwargs: Any) -> None:
    """Receiver of tables.reviews.announcements.reviewed."""
    review = (
        DealReview.objects.filter(pk=review_id, status=DealReview.Status.DONE)
        .select_related("requested_by", "deal")
        .first()
    )
    asker = review.requested_by if review is not None else None
    if review is None or asker is None:
        return
    unfinished = (DealReview.Status.PENDING, DealReview.Status.RUNNING)
    if DealReview.objects.filter(deal=review.deal, requested_by=asker, status__in=unfinished).exists():
        return  # the line waits for the asker's last seat of this deal
    deal = review.deal
    title, body = texts.render(KIND, asker.language, deal=deal.number)
    path = reverse("deal_replay", args=[deal.match_id, deal.number])
    inbox.keep(asker, KIND, f"review:{deal.pk}", title, body, path)
