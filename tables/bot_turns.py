"""The Celery task that plays a bot's turn.

The background layer (tables.scheduling) sends it by name after each committed change that
leaves a bot to play. It waits a short, human-like moment (on live clocks), decides from the
bot seat's view alone (bots/ knows nothing of Django) and plays through the move writer with
the version it was scheduled for: a second run for the same turn meets a newer version (or the
same client move id) and does nothing, so a bot never plays twice for one turn.
"""

from __future__ import annotations

import logging
import random

from celery import shared_task

from bots import BOTS
from bots.base import MatchContext

from . import engine, services
from .errors import ServiceError
from .models import Deal, Move, Table
from .scheduling import PLAY_BOT_TURN, think_delay

log = logging.getLogger(__name__)


# Registered under its name from when it lived in bots/tasks.py: messages queued by the
# previous release still run during a deploy.
@shared_task(name=PLAY_BOT_TURN, ignore_result=True)
def play_bot_turn(deal_id: int, expected_version: int, waited: bool = False) -> str:
    """Play the bot's move for deal ``deal_id`` at table version ``expected_version``."""
    table = Table.objects.filter(current_deal_id=deal_id).first()
    if table is None or table.version != expected_version:
        return "stale"
    if not waited and not play_bot_turn.app.conf.task_always_eager:  # eager: run inline, no pause
        delay = think_delay(table, random.Random())
        if delay > 0:
            play_bot_turn.apply_async((deal_id, expected_version, True), countdown=delay)
            return "waiting"
    return _play(table, deal_id, expected_version)


def _play(table: Table, deal_id: int, expected_version: int) -> str:
    row = Deal.objects.select_related("match").get(pk=deal_id)
    state = engine.load_deal(row)
    seat = state.to_play
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
            source=Move.Source.BOT,
        )
    except ServiceError as error:  # the table moved on meanwhile: someone else already played
        log.info("bot turn for deal %s at version %s not played: %s", deal_id, expected_version, error)
        return "stale"
    return str(action)
