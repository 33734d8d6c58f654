"""Fair play's Celery tasks: the sweep that hands rated matches to be screened to the reviews'
workers, and the screening itself (tables.fairplay.services)."""

from __future__ import annotations

from tables.background import registry, scheduling
from tables.background.registry import registered
from tables.fairplay import services as fairplay


@registered(registry.SWEEP_SCREENINGS)
def sweep_screenings() -> int:
    """Hand the oldest screenings waiting (or whose worker was lost) to the reviews' workers."""
    due = fairplay.due_screenings()
    for screening_id in due:
        scheduling.run_task(registry.SCREEN_MATCH, screening_id)
    return len(due)


@registered(registry.SCREEN_MATCH)
def screen_match(screening_id: int) -> str:
    """Screen one rated match: its reviews (computed where missing), then its players' signals."""
    return fairplay.screen(screening_id)
