"""Fixtures of the challenges' tests."""

from __future__ import annotations

import pytest

from tables.alerts import push
from tables.background import registry, scheduling
from tables.challenges import alerts as challenge_alerts


@pytest.fixture
def sent(monkeypatch, settings):
    """The project's own boundaries: the socket layer, the push sender and the task hand-off.
    ``site``: the site alerts; ``inbox``: the user socket's other messages (a line written)."""
    settings.VAPID_PUBLIC_KEY, settings.VAPID_PRIVATE_KEY = "public", "private"
    record: dict[str, list] = {"site": [], "inbox": [], "push": [], "later": []}

    def published(pid: int, message: dict) -> None:
        record["site" if message.get("type") == "alert" else "inbox"].append((pid, message))

    monkeypatch.setattr(challenge_alerts.events, "publish_to_player", published)
    monkeypatch.setattr(
        push, "send_to_player", lambda player, payload, topic: record["push"].append(player.pk)
    )

    def run_task(task, *args, eta=None):
        if task == registry.SEND_PUSH and eta is None:
            push.send_to_player_id(*args)
        elif task == registry.ALERT_CHALLENGE and eta is None:
            challenge_alerts.deliver(*args)
        else:
            record["later"].append((task, args, eta))

    monkeypatch.setattr(scheduling, "run_task", run_task)
    return record
