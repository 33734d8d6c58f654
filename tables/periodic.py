"""The periodic tasks, by registered name, and seconds between runs: Celery beat runs them in
production (config.celery), the embedded scheduler in `make run` (config.asgi). The sweeper is
what guarantees every clock (docs/live.md)."""

from __future__ import annotations

from django.conf import settings


def periodic_tasks() -> dict[str, float]:
    return {
        "tables.tasks.sweep_overdue": float(settings.SWEEP_SECONDS),
        "tables.tasks.kick_stalled_bots": 10.0,
        "tables.tasks.sweep_rematch_offers": 15.0,  # an offer lasts 10 minutes or more: 15 s late is fine
        "tables.tasks.remind_slow_turns": 30.0,
        # a clock stopped for a vacation restarts from the vacation's end, however late this runs
        "tables.tasks.sweep_vacations": 30.0,
        "tables.tasks.send_digests": 300.0,
        "tables.tasks.sweep_challenge_alerts": 60.0,
    }
