"""Celery tasks of the tables app: each takes ids and calls a writer, the alerts or the sweeps.

The periodic ones are listed in tables.periodic (Celery beat in production, the embedded
scheduler in `make run`). All are idempotent: a duplicate or stale run does nothing.
"""

from __future__ import annotations

import datetime as dt
import logging
from typing import Any

from celery import current_app, shared_task
from django.utils import timezone

from . import scheduling, selectors, services
from .alerts import challenge_alerts, notify, push
from .errors import NotFound
from .models import Match
from .periodic import periodic_tasks
from .services import reviews

log = logging.getLogger(__name__)

STALLED_BOT_SECONDS = 20  # a bot's turn untouched this long lost its task: hand it again


@shared_task(ignore_result=True)
def table_changed(table_id: int, version: int, kind: str) -> None:
    """After a committed change: the deadline's fast path, alerts, the players' pending counts.
    A chat message alerts only: it changes neither the turn's clock nor anyone's count."""
    try:
        table = selectors.get_table(table_id)
    except NotFound:
        return
    if table.version != version:
        return  # a newer change is on its way and does all this for the newer state
    deal = table.current_deal
    if kind != "chat" and deal is not None and deal.match.status == Match.Status.PLAYING:
        scheduling.schedule_deadline(deal.pk, version, deal.deadline)
    notify.on_table_change(table, kind)


@shared_task(ignore_result=True)
def tables_changed(changes: list[tuple[int, int, str]]) -> None:
    """A web process's batch of committed changes (scheduling.FollowUps): each as table_changed."""
    for table_id, version, kind in changes:
        try:
            table_changed(table_id, version, kind)
        except Exception:  # one table's failure must not cost the others their alerts
            log.exception("what follows version %s of table %s failed", version, table_id)


@shared_task(ignore_result=True)
def expire_turn(deal_id: int, expected_version: int, expected_deadline: str | None = None) -> bool:
    """A turn's clock ran out (the ETA fast path): the writer checks it really did."""
    return services.apply_timeout(deal_id, expected_version, expected_deadline) is not None


@shared_task(ignore_result=True)
def sweep_overdue() -> int:
    """The guarantee behind every clock: play each overdue turn once, whatever tasks were lost."""
    return services.sweep_overdue()


@shared_task(ignore_result=True)
def sweep_rematch_offers() -> int:
    """Withdraw every rematch offer whose time is up. The sweep alone enforces it: an offer
    lasts ten minutes or more, beyond the horizon of ETA tasks (scheduling.ETA_HORIZON_SECONDS)."""
    return services.sweep_rematch_offers()


@shared_task(ignore_result=True)
def sweep_vacations() -> int:
    """End each vacation whose last day is over: its stopped clocks run again."""
    return services.sweep_vacations()


@shared_task(ignore_result=True)
def remind_slow_turns() -> int:
    return notify.send_due_reminders()


@shared_task(ignore_result=True)
def kick_stalled_bots() -> int:
    """Hand a bot its turn again when its task was lost (a worker died): never a frozen table."""
    idle_since = timezone.now() - dt.timedelta(seconds=STALLED_BOT_SECONDS)
    turns = selectors.stalled_bot_turns(idle_since)
    return sum(scheduling.schedule_bot_turn(deal_id, version) for deal_id, version in turns)


@shared_task(ignore_result=True)
def send_digests() -> int:
    return notify.send_digests()


@shared_task(ignore_result=True)
def deliver_alert(kind: str, player_id: int, table_id: int, occasion: str) -> None:
    """An alert put off until quiet hours end or the player has been away long enough."""
    notify.deliver_later(kind, player_id, table_id, occasion)


@shared_task(ignore_result=True)
def send_push(player_id: int, payload: dict[str, Any], topic: str) -> int:
    """An alert's push to each of the player's browsers: on the ``push`` queue, so a slow or dead
    push service holds up only other pushes (config/celery.py)."""
    return push.send_to_player_id(player_id, payload, topic)


@shared_task(name=scheduling.REVIEW_DEAL, ignore_result=True)
def review_deal(review_id: int) -> str:
    """LUNA's review of a finished deal (tables.services.reviews): on the default queue, with the
    bots' turns; a duplicate run finds it done or running and does nothing."""
    return reviews.run_review(review_id)


def periodic_jobs() -> list[tuple[float, Any]]:
    """(seconds, task) for the embedded scheduler: the same list Celery beat runs."""
    return [(seconds, current_app.tasks[name]) for name, seconds in periodic_tasks().items()]


@shared_task(ignore_result=True)
def alert_challenge(challenge_id: int, event: str) -> None:
    """A challenge received or answered: its alert (claimed per channel, so a rerun sends nothing twice)."""
    challenge_alerts.deliver(challenge_id, event)


@shared_task(ignore_result=True)
def sweep_challenge_alerts() -> int:
    """Alert the open challenges whose task was lost (the guarantee behind alert_challenge)."""
    return challenge_alerts.sweep_unannounced()
