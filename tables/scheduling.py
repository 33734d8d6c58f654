"""What follows a committed change: the seams the bots and live-alerts issues fill.

Deadlines themselves are stored on the deal row by the services (the database is the
clock's memory); a later issue adds the Celery ETA task and the periodic sweeper that
call `tables.services.expire_deadline`. Here: hand a bot its turn.
"""

from __future__ import annotations

import importlib
import logging

log = logging.getLogger(__name__)


def _bot_task():
    """``bots.tasks.play_bot_turn`` once the bots issue provides it, else None."""
    try:
        module = importlib.import_module("bots.tasks")
    except ImportError:
        return None
    return getattr(module, "play_bot_turn", None)


def schedule_bot_turn(deal_id: int, version: int) -> bool:
    """Ask the bot whose turn it is to play; False when no bot player is installed."""
    task = _bot_task()
    if task is None:
        return False
    try:
        task.delay(deal_id, version)
    except Exception:  # a broker hiccup: the turn's deadline still guarantees progress
        log.exception("could not schedule the bot's turn for deal %s", deal_id)
        return False
    return True
