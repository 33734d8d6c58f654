"""Celery tasks of tournaments: the periodic sweep (scheduled starts, lost results)."""

from __future__ import annotations

from tables.background import registry
from tables.background.registry import registered
from tables.tournaments import services


@registered(registry.SWEEP_TOURNAMENTS)
def sweep_tournaments() -> int:
    """Start the events whose date has come; record results whose announcement was lost."""
    return services.sweep_tournaments()
