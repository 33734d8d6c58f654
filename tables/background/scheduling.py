"""Background work: what follows a committed change, and where it runs.

It subscribes to the writers' announcement (tables.core.announcements) and hands the work to Celery by
task name (tables.background.registry), the way a producer sends to workers it does not
import. Production (REDIS_URL): Celery tasks on workers, ETAs through the broker, sweeps
from beat. Embedded (`make run`): the same tasks, run by tables.background.embedded's scheduler in the
server's process. Under tests with eager Celery and no scheduler, work due now runs inline and
work due later is left to the sweeps the tests call.

Deadlines live on the deal row; the ETA task is only the fast path. ETAs further away than
ETA_HORIZON_SECONDS are not sent at all (a broker holds a long countdown badly: past its
visibility timeout Redis hands it out twice): the periodic sweeper plays those.
"""

from __future__ import annotations

import atexit
import datetime as dt
import logging
import random
import threading
from collections.abc import Callable
from typing import Any

from celery import current_app
from django.utils import timezone

from tables.background import embedded, registry
from tables.core.announcements import ChangeKind, TableChange
from tables.play.models import Table

log = logging.getLogger(__name__)

ETA_HORIZON_SECONDS = 120  # live clocks (30 s to 90 s); longer ones are the sweeper's
LIVE_CLOCK_SECONDS = 600  # a turn clock up to 10 minutes is live play: a bot pauses like a person
LIVE_BOT_PAUSE_SECONDS = (1.0, 2.0)

Batch = list[tuple[int, int, str]]


def on_table_change(sender: Any, change: TableChange, **kwargs: Any) -> None:
    """Receiver of tables.core.announcements.table_changed: a bot's turn, the deal reviews asked for,
    then the deadline, alerts and counts of the change if its kind has any (a draw, a review
    request have none). (A bot never deals the next deal by itself: tables.play.services.common.)"""
    if change.bot_turn is not None:
        schedule_bot_turn(change.bot_turn, change.version)
    for review_id in change.reviews:
        schedule_review(review_id)
    if change.kind.rules.follows_up:
        after_table_change(change.table_id, change.version, change.kind)


def _eager() -> bool:
    return bool(current_app.conf.task_always_eager)


def run_task(work: registry.Work, *args: Any, eta: dt.datetime | None = None) -> None:
    """Run ``work`` now (``eta`` None) or at ``eta``, wherever this process runs background work."""
    task = current_app.tasks[work.name]
    scheduler = embedded.current()
    if scheduler is not None and work.pool is not None and eta is None:
        scheduler.call_in(work.pool, task, *args)
    elif scheduler is not None:
        when = eta.timestamp() if eta is not None else 0.0
        scheduler.call_at(when, task, *args)
    elif _eager():
        if eta is None or eta <= timezone.now():
            task(*args)
    else:
        task.apply_async(args, eta=eta)  # type: ignore[arg-type]  # celery takes None (now); celery-types not


def think_delay(table: Table, rng: random.Random) -> float:
    """Seconds a bot waits before moving: 1-2 s on a live clock, none on a slow one (a day-long
    clock needs no theatre)."""
    if table.turn_seconds > LIVE_CLOCK_SECONDS:
        return 0.0
    return rng.uniform(*LIVE_BOT_PAUSE_SECONDS)


def schedule_bot_turn(deal_id: int, version: int) -> bool:
    """Ask the bot whose turn it is to play; False when the hand-off failed."""
    try:
        task = current_app.tasks[registry.PLAY_BOT_TURN.name]
        scheduler = embedded.current()
        if scheduler is not None:  # the pause happens here: eager Celery cannot wait
            table = Table.objects.filter(current_deal_id=deal_id).first()
            pause = 0.0 if table is None else think_delay(table, random.Random())
            scheduler.call_later(pause, task, deal_id, version, True)
        else:
            task.delay(deal_id, version)
    except Exception:  # a broker hiccup: the stalled-bot sweep and the deadline still move it
        log.exception("could not schedule the bot's turn for deal %s", deal_id)
        return False
    return True


class FollowUps:
    """What follows committed changes, gathered for up to ``window`` seconds and handed to the
    workers as one task. Under load one Celery message per move cost the web process and the
    worker more than the work it carried; a batch costs one. Of a table's changes of game state
    only the newest is kept (the task does nothing for a version that is no longer the table's);
    a change that made no new version (a chat message) is kept beside them, since it alerts on
    its own and shares its version with the move before it. The batch carries each kind as its
    value, as any Celery message does.

    A web process that dies within the window loses that batch's alerts, as one that died
    before its publish did; each turn's deadline still lives on the deal, for the sweeper."""

    def __init__(self, send: Callable[[Batch], None], window: float = 0.1):
        self.send, self.window = send, window
        self.pending: dict[tuple[int, bool], tuple[int, int, str]] = {}
        self.lock = threading.Lock()
        self.timer: threading.Timer | None = None

    def add(self, table_id: int, version: int, kind: ChangeKind) -> None:
        kind = ChangeKind(kind)  # its value does as well
        with self.lock:
            self.pending[(table_id, kind.rules.new_version)] = (table_id, version, kind.value)
            if self.timer is None:
                self.timer = threading.Timer(self.window, self.flush)
                self.timer.daemon = True
                self.timer.start()

    def flush(self) -> None:
        with self.lock:
            batch, self.pending, self.timer = list(self.pending.values()), {}, None
        if not batch:
            return
        try:
            self.send(batch)
        except Exception:  # a broker hiccup: the sweeper still guarantees the deadlines
            log.exception("could not hand %d table changes to the workers", len(batch))


def _send_follow_ups(batch: Batch) -> None:
    # argsrepr: Celery would otherwise write the whole batch into the message with its
    # saferepr, element by element: the largest part of what the hand-off cost the web process
    task = current_app.tasks[registry.TABLES_CHANGED.name]
    reprs: dict[str, Any] = {"argsrepr": f"({len(batch)} table changes,)", "kwargsrepr": "{}"}
    task.apply_async((batch,), **reprs)  # celery takes them; celery-types does not list them


follow_ups = FollowUps(_send_follow_ups)
atexit.register(follow_ups.flush)


def after_table_change(table_id: int, version: int, kind: ChangeKind) -> None:
    """Deadlines, alerts and pending counts for a committed change: off the request's path
    (with workers, batched: FollowUps)."""
    if embedded.current() is None and not _eager():
        follow_ups.add(table_id, version, kind)
    else:
        run_task(registry.TABLE_CHANGED, table_id, version, kind.value)


def schedule_deadline(deal_id: int, version: int, deadline: dt.datetime | None) -> bool:
    """The fast path of a turn's clock: a task at the deadline, if it is near enough."""
    if deadline is None or (deadline - timezone.now()).total_seconds() > ETA_HORIZON_SECONDS:
        return False
    run_task(registry.EXPIRE_TURN, deal_id, version, deadline.isoformat(), eta=deadline)
    return True


def deliver_later(kind: str, player_id: int, table_id: int, occasion: str, when: dt.datetime) -> None:
    """An alert put off until quiet hours end or the player has been away long enough."""
    run_task(registry.DELIVER_ALERT, kind, player_id, table_id, occasion, eta=when)


def send_push(player_id: int, payload: dict[str, Any], topic: str) -> None:
    """A player's push notification, posted by a task of its own on the ``push`` queue."""
    try:
        run_task(registry.SEND_PUSH, player_id, payload, topic)
    except Exception:  # a broker hiccup costs this push, not the alert's other channels
        log.exception("could not hand the push for player %s to the workers", player_id)


def schedule_review(review_id: int) -> bool:
    """Hand a requested deal review to a worker (on the announcement of a review request, above);
    False when the hand-off failed (asking again after tables.reviews.services.STALE_SECONDS hands
    it again)."""
    try:
        run_task(registry.REVIEW_DEAL, review_id)
    except Exception:  # a broker hiccup
        log.exception("could not hand review %s to the workers", review_id)
        return False
    return True
