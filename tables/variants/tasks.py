"""Celery tasks of game tables: the periodic sweep that records ended boards whose announcement
was lost."""

from __future__ import annotations

from tables.background import registry
from tables.background.registry import registered
from tables.variants.services.boards import sweep_boards


@registered(registry.SWEEP_GAME_BOARDS)
def sweep_game_boards() -> int:
    return sweep_boards()
