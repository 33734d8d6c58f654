"""What follows a committed change, and where background work runs.

Production (REDIS_URL): Celery tasks on workers, ETAs through the broker, sweeps from beat.
Embedded (`make run`): the same tasks, run by tables.embedded's scheduler in the server's
process. Under tests with eager Celery and no scheduler, work due now runs inline and work
due later is left to the sweeps the tests call.

Deadlines live on the deal row; the ETA task is only the fast path. ETAs further away than
ETA_HORIZON_SECONDS are not sent at all (a broker holds a long countdown badly: past its
visibility timeout Redis hands it out twice): the periodic sweeper plays those.
"""

from __future__ import annotations

import atexit
import datetime as dt
import importlib
import logging
import random
import threading
from collections.abc import Callable
from typing import Any

from django.utils import timezone

from . import embedded

log = logging.getLogger(__name__)

ETA_HORIZON_SECONDS = 120  # live clocks (30 s to 90 s); longer ones are the sweeper's


def _bot_task():
    """``bots.tasks.play_bot_turn`` once the bots issue provides it, else None."""
    try:
        module = importlib.import_module("bots.tasks")
    except ImportError:
        return None
    return getattr(module, "play_bot_turn", None)


def _eager() -> bool:
    from config.celery import app

    return bool(app.conf.task_always_eager)


def run_task(task: Any, *args: Any, eta: dt.datetime | None = None) -> None:
    """Run a task now (``eta`` None) or at ``eta``, wherever this process runs background work."""
    scheduler = embedded.current()
    if scheduler is not None:
        when = eta.timestamp() if eta is not None else 0.0
        scheduler.call_at(when, task, *args)
    elif _eager():
        if eta is None or eta <= timezone.now():
            task(*args)
    else:
        task.apply_async(args, eta=eta)


def schedule_bot_turn(deal_id: int, version: int) -> bool:
    """Ask the bot whose turn it is to play; False when no bot player is installed."""
    task = _bot_task()
    if task is None:
        return False
    try:
        scheduler = embedded.current()
        if scheduler is not None:  # the pause happens here: eager Celery cannot wait
            scheduler.call_later(_bot_pause(deal_id), task, deal_id, version, True)
        else:
            task.delay(deal_id, version)
    except Exception:  # a broker hiccup: the stalled-bot sweep and the deadline still move it
        log.exception("could not schedule the bot's turn for deal %s", deal_id)
        return False
    return True


def _bot_pause(deal_id: int) -> float:
    from .models import Table

    module = importlib.import_module("bots.tasks")
    table = Table.objects.filter(current_deal_id=deal_id).first()
    think = getattr(module, "think_delay", None)
    return 0.0 if table is None or think is None else float(think(table, random.Random()))


class FollowUps:
    """What follows committed changes, gathered for up to ``window`` seconds and handed to the
    workers as one task. Under load one Celery message per move cost the web process and the
    worker more than the work it carried; a batch costs one. Only a table's newest change is
    kept: the task does nothing for a version that is no longer the table's.

    A web process that dies within the window loses that batch's alerts, as one that died
    before its publish did; each turn's deadline still lives on the deal, for the sweeper."""

    def __init__(self, send: Callable[[list[tuple[int, int, str]]], None], window: float = 0.1):
        self.send, self.window = send, window
        self.pending: dict[int, tuple[int, int, str]] = {}
        self.lock = threading.Lock()
        self.timer: threading.Timer | None = None

    def add(self, table_id: int, version: int, kind: str) -> None:
        with self.lock:
            self.pending[table_id] = (table_id, version, kind)
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


def _send_follow_ups(batch: list[tuple[int, int, str]]) -> None:
    from . import tasks

    tasks.tables_changed.apply_async((batch,))


follow_ups = FollowUps(_send_follow_ups)
atexit.register(follow_ups.flush)


def after_table_change(table_id: int, version: int, kind: str) -> None:
    """Deadlines, alerts and pending counts for a committed change: off the request's path
    (with workers, batched: FollowUps)."""
    from . import tasks

    if embedded.current() is None and not _eager():
        follow_ups.add(table_id, version, kind)
    else:
        run_task(tasks.table_changed, table_id, version, kind)


def schedule_deadline(deal_id: int, version: int, deadline: dt.datetime | None) -> bool:
    """The fast path of a turn's clock: a task at the deadline, if it is near enough."""
    from . import tasks

    if deadline is None or (deadline - timezone.now()).total_seconds() > ETA_HORIZON_SECONDS:
        return False
    run_task(tasks.expire_turn, deal_id, version, deadline.isoformat(), eta=deadline)
    return True
