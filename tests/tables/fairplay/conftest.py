"""Fair play's tests: reviews computed inline with a small search budget, each counted."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bots.review import REVIEW_SETTINGS
from config.celery import app
from tables.reviews import services as reviews

CHEAP = replace(REVIEW_SETTINGS, draw_samples=8, discard_samples=6)  # who is screened, not the cost


@pytest.fixture(autouse=True)
def _background_inline(monkeypatch):
    """No Celery worker runs here: the sweep's screenings run inline (eager)."""
    monkeypatch.setitem(app.conf, "task_always_eager", True)
    monkeypatch.setattr(reviews, "REVIEW_SETTINGS", CHEAP)


@pytest.fixture
def computed(monkeypatch):
    """Every review actually computed: (deal's deck, seats)."""
    runs: list[tuple[str, tuple[int, ...]]] = []
    real = reviews.review_deal

    def counted(deal, seats, *args, **kwargs):
        runs.append((" ".join(map(str, deal.deck)), tuple(seats)))
        return real(deal, seats, *args, **kwargs)

    monkeypatch.setattr(reviews, "review_deal", counted)
    return runs
