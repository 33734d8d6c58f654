"""Celery tasks of challenges: a challenge's alert, and the sweep behind it."""

from __future__ import annotations

from tables.background import registry
from tables.background.registry import registered
from tables.challenges import alerts as challenge_alerts


@registered(registry.ALERT_CHALLENGE)
def alert_challenge(challenge_id: int, event: str) -> None:
    """A challenge received or answered: its alert (claimed per channel, so a rerun sends nothing twice)."""
    challenge_alerts.deliver(challenge_id, event)


@registered(registry.SWEEP_CHALLENGE_ALERTS)
def sweep_challenge_alerts() -> int:
    """Alert the open challenges whose task was lost (the guarantee behind alert_challenge)."""
    return challenge_alerts.sweep_unannounced()
