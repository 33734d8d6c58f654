"""Celery tasks of tournaments: the next step of an event (round 1 after the start, the next
round or the end after a round), a round's alerts, and the periodic sweep that guarantees them
(scheduled starts, lost results, lost tasks)."""

from __future__ import annotations

from tables.background import registry
from tables.background.registry import registered
from tables.tournaments import alerts, services


@registered(registry.SWEEP_TOURNAMENTS)
def sweep_tournaments() -> int:
    """Open round 1 of events started a while ago without it; start the events whose date has
    come; record results whose announcement was lost; take the next step of rounds over; alert
    rounds whose alerts never went."""
    return services.sweep_tournaments() + alerts.sweep_unalerted()


@registered(registry.ADVANCE_TOURNAMENT)
def advance_tournament(tournament_id: int) -> bool:
    """Round 1 of an event just started, or the step after a round over: once, however often."""
    return services.advance(tournament_id)


@registered(registry.ALERT_TOURNAMENT_ROUND)
def alert_tournament_round(round_id: int) -> int:
    return alerts.alert_round(round_id)
