"""Celery tasks of the tables app: each takes ids and calls a writer, the alerts or the sweeps.

The periodic ones are listed in tables.background.registry (Celery beat in production, the embedded
scheduler in `make run`). All are idempotent: a duplicate or stale run does nothing.
"""

from __future__ import annotations

import datetime as dt
import logging
import random

from django.utils import timezone

from bots import BOTS
from bots.base import MatchContext
from tables.alerts import notify
from tables.background import registry, scheduling
from tables.background.registry import registered
from tables.background.scheduling import think_delay
from tables.core.announcements import ChangeKind
from tables.core.errors import NotFound, ServiceError
from tables.play import engine, selectors, services
from tables.play.models import Deal, Match, Move, Table

log = logging.getLogger(__name__)

STALLED_BOT_SECONDS = 20  # a bot's turn untouched this long lost its task: hand it again


@registered(registry.TABLE_CHANGED)
def table_changed(table_id: int, version: int, kind: str) -> None:
    """After a committed change: the deadline's fast path, alerts, the players' pending counts,
    as the rules of its kind (a ChangeKind's value) say: a chat message alerts only, more time
    plans the new deadline only."""
    follow_up(table_id, version, kind)


def follow_up(table_id: int, version: int, kind: str) -> None:
    """table_changed's work, called directly by the batch (not through a task's call)."""
    change = ChangeKind(kind)
    try:
        table = selectors.table_to_follow_up(table_id)
    except NotFound:
        return
    if table.version != version:
        return  # a newer change is on its way and does all this for the newer state
    deal = table.current_deal
    if change.rules.plans_deadline and deal is not None and deal.match.status == Match.Status.PLAYING:
        scheduling.schedule_deadline(deal.pk, version, deal.deadline)
    notify.on_table_change(table, change)


@registered(registry.TABLES_CHANGED)
def tables_changed(changes: list[tuple[int, int, str]]) -> None:
    """A web process's batch of committed changes (scheduling.FollowUps): each as table_changed."""
    for table_id, version, kind in changes:
        try:
            follow_up(table_id, version, kind)
        except Exception:  # one table's failure must not cost the others their alerts
            log.exception("what follows version %s of table %s failed", version, table_id)


@registered(registry.EXPIRE_TURN)
def expire_turn(deal_id: int, expected_version: int, expected_deadline: str | None = None) -> bool:
    """A turn's clock ran out (the ETA fast path): the writer checks it really did."""
    return services.apply_timeout(deal_id, expected_version, expected_deadline) is not None


@registered(registry.SWEEP_OVERDUE)
def sweep_overdue() -> int:
    """The guarantee behind every clock: play each overdue turn once, whatever tasks were lost."""
    return services.sweep_overdue()


@registered(registry.SWEEP_REMATCH_OFFERS)
def sweep_rematch_offers() -> int:
    """Withdraw every rematch offer whose time is up. The sweep alone enforces it: an offer
    lasts ten minutes or more, beyond the horizon of ETA tasks (scheduling.ETA_HORIZON_SECONDS)."""
    return services.sweep_rematch_offers()


@registered(registry.KICK_STALLED_BOTS)
def kick_stalled_bots() -> int:
    """Hand a bot its turn again when its task was lost (a worker died): never a frozen table."""
    idle_since = timezone.now() - dt.timedelta(seconds=STALLED_BOT_SECONDS)
    turns = selectors.stalled_bot_turns(idle_since)
    return sum(scheduling.schedule_bot_turn(deal_id, version) for deal_id, version in turns)


@registered(registry.PLAY_BOT_TURN)
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
