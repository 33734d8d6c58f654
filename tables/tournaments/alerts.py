"""Alerts of tournaments: each player of a new round's match hears of it on the channels chosen
for the kind ``tournament_match`` (on the site, a notification, an email), with quiet hours, as a
table's alerts are sent (tables.alerts.notify): each (player, table, occasion, channel) is
claimed before it goes out, so it goes out at most once. The inbox line is written with the
round itself (services.running); a robot is told nothing.

The task after the round's commit is the fast path; the periodic sweep alerts a round still
unalerted a minute after it opened. A delivery put off (quiet hours, an email waiting for the
player to be away) goes out only while it is news: the match is on and its player has not
been to its table yet.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.utils import timezone

from tables.accounts.models import Player
from tables.alerts import notify
from tables.alerts.models import TablePresence
from tables.background import registry, scheduling
from tables.play.models import Match, Table
from tables.play.selectors import get_table
from tables.tournaments.models import Pairing, Round, Tournament

KIND = "tournament_match"
SWEEP_AFTER_SECONDS = 60  # a round still unalerted this long after it opened lost its task


def on_round_opened(sender: Any, round_id: int, **kwargs: Any) -> None:
    """Receiver of tables.tournaments.announcements.round_opened: alerted off the writer's path."""
    scheduling.run_task(registry.ALERT_TOURNAMENT_ROUND, round_id)


def alert_round(round_id: int) -> int:
    """Tell the players of the round's matches still on; how many alerts went out. The round
    is marked alerted, so the sweep leaves it alone."""
    round_row = Round.objects.select_related("tournament").filter(pk=round_id).first()
    if round_row is None:
        return 0
    sent = 0
    pairings = round_row.pairings.filter(finished_at__isnull=True, table__isnull=False)
    for pairing_id, table_id in pairings.values_list("pk", "table_id"):
        table = get_table(table_id)
        for seat in (0, 1):
            alert = _alert(table, seat, round_row.tournament, pairing_id)
            if alert is not None and notify.deliver(alert):
                sent += 1
    Round.objects.filter(pk=round_id, alerted_at__isnull=True).update(alerted_at=timezone.now())
    return sent


def _alert(table: Table, seat: int, tournament: Tournament, pairing_id: int) -> notify.Alert | None:
    player, opponent = table.seats[seat], table.seats[1 - seat]
    if player is None or player.is_bot:
        return None
    context = {"name": tournament.name, "opponent": opponent.name if opponent else "?"}
    return notify.Alert(KIND, player, table, f"pairing:{pairing_id}", context)


def rebuild(player: Player, table: Table, occasion: str) -> notify.Alert | None:
    """The alert again when its delivery comes due, or None once it is no longer news."""
    pairing = (
        Pairing.objects.select_related("round__tournament")
        .filter(table=table, finished_at__isnull=True)
        .first()
    )
    if pairing is None or occasion != f"pairing:{pairing.pk}":
        return None
    if Match.objects.filter(table=table, status=Match.Status.OVER).exists():
        return None
    if TablePresence.objects.filter(player=player, table=table).exists():
        return None  # the player has been to the table: they know
    seat = table.seat_of(player)
    return None if seat is None else _alert(table, seat, pairing.round.tournament, pairing.pk)


def sweep_unalerted(now: dt.datetime | None = None) -> int:
    """The guarantee behind the task: rounds on whose alerts never went."""
    now = now or timezone.now()
    rows = Round.objects.filter(
        alerted_at__isnull=True,
        ended_at__isnull=True,
        tournament__status=Tournament.Status.RUNNING,
        created_at__lte=now - dt.timedelta(seconds=SWEEP_AFTER_SECONDS),
    )
    return sum(alert_round(round_id) for round_id in rows.values_list("pk", flat=True))


notify.REBUILDERS[KIND] = rebuild
