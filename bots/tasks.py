"""The Celery task that plays a bot's turn: the only Django/Celery code of bots/.

`tables.scheduling.schedule_bot_turn` calls ``play_bot_turn.delay(deal_id, version)``
after each committed change that leaves a bot to play. The task waits a short,
human-like moment (on live clocks), decides from the bot seat's view alone and
plays through the move service with the version it was scheduled for: a second
run for the same turn meets a newer version (or the same client move id) and
does nothing, so a bot never plays twice for one turn.
"""

from __future__ import annotations

import importlib
import logging
import random
from typing import Any

from celery import shared_task  # type: ignore[import-untyped]

from . import BOTS
from .base import MatchContext

# tables/ (Django models and services) is outside mypy's strict check: importing it by name
# keeps mypy from following into untyped Django code, and this module types it as Any.
engine: Any = importlib.import_module("tables.engine")
services: Any = importlib.import_module("tables.services")
models: Any = importlib.import_module("tables.models")
ServiceError: Any = importlib.import_module("tables.errors").ServiceError

log = logging.getLogger(__name__)

LIVE_CLOCK_SECONDS = 600  # a turn clock up to 10 minutes is live play: the bot pauses like a person
LIVE_DELAY_SECONDS = (1.0, 2.0)  # default pause range on a live clock


def think_delay(table: Any, rng: random.Random) -> float:
    """Seconds to wait before moving: the table's ``bot_delay_seconds`` when it has one,
    else 1-2 s on a live clock and none on a slow one (a day-long clock needs no theatre)."""
    chosen = getattr(table, "bot_delay_seconds", None)
    if chosen is not None:
        return max(0.0, float(chosen))
    if table.turn_seconds > LIVE_CLOCK_SECONDS:
        return 0.0
    return rng.uniform(*LIVE_DELAY_SECONDS)


@shared_task(ignore_result=True)  # type: ignore[untyped-decorator]  # Celery ships no types
def play_bot_turn(deal_id: int, expected_version: int, waited: bool = False) -> str:
    """Play the bot's move for deal ``deal_id`` at table version ``expected_version``."""
    table = models.Table.objects.filter(current_deal_id=deal_id).first()
    if table is None or table.version != expected_version:
        return "stale"
    if not waited and not play_bot_turn.app.conf.task_always_eager:  # eager: run inline, no pause
        delay = think_delay(table, random.Random())
        if delay > 0:
            play_bot_turn.apply_async((deal_id, expected_version, True), countdown=delay)
            return "waiting"
    return _play(table, deal_id, expected_version)


def _play(table: Any, deal_id: int, expected_version: int) -> str:
    row = models.Deal.objects.select_related("match").get(pk=deal_id)
    state = engine.load_deal(row)
    seat: int | None = state.to_play
    if seat is None:
        return "the deal is over"
    player = table.seats[seat]
    if player is None or not player.is_bot or player.bot_level not in BOTS:
        return "not a bot's turn"
    totals = engine.load_match(row.match).totals
    context = MatchContext(totals[seat], totals[1 - seat], state.ruleset.target)
    rng = random.Random(f"{deal_id}:{expected_version}")  # the same turn always gets the same move
    action = BOTS[player.bot_level]().choose(state.view(seat), rng, context)
    try:
        services.apply_move(
            table.pk,
            player,
            action,
            expected_version=expected_version,
            client_move_id=f"bot-{deal_id}-{expected_version}",
            source=models.Move.Source.BOT,
        )
    except ServiceError as error:  # the table moved on meanwhile: someone else already played
        log.info("bot turn for deal %s at version %s not played: %s", deal_id, expected_version, error)
        return "stale"
    return str(action)
