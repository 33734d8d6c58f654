"""Celery tasks of alerts: reminders, digests, alerts put off, web pushes."""

from __future__ import annotations

from typing import Any

from tables.alerts import digest, inbox, notify, push
from tables.background import registry
from tables.background.registry import registered


@registered(registry.REMIND_SLOW_TURNS)
def remind_slow_turns() -> int:
    return notify.send_due_reminders()


@registered(registry.SEND_DIGESTS)
def send_digests() -> int:
    return digest.send_digests()


@registered(registry.PURGE_INBOX)
def purge_inbox() -> int:
    return inbox.purge()


@registered(registry.DELIVER_ALERT)
def deliver_alert(kind: str, player_id: int, table_id: int, occasion: str) -> None:
    """An alert put off until quiet hours end or the player has been away long enough."""
    notify.deliver_later(kind, player_id, table_id, occasion)


@registered(registry.SEND_PUSH)
def send_push(player_id: int, payload: dict[str, Any], topic: str) -> int:
    """An alert's push to each of the player's browsers: on the ``push`` queue, so a slow or dead
    push service holds up only other pushes (config/celery.py)."""
    return push.send_to_player_id(player_id, payload, topic)
