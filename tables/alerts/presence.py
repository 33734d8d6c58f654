"""Who is looking: an open table page (a socket), a visible page, the last time seen.

Sockets hold leases that their heartbeats renew (every HEARTBEAT_SECONDS, LEASE_SECONDS
long; in batches per server process, renew_leases), so a browser that vanished without closing,
or a server that died, stops counting as present on its own; there is no counter to leak.
Stored in the database so that every server process and worker agrees.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from typing import Any

from django.db import IntegrityError, connection, transaction
from django.db.models import Q
from django.utils import timezone

from tables.alerts.models import Activity, TablePresence
from tables.play.models import Table
from tables.social import selectors as social

HEARTBEAT_SECONDS = 30
LEASE_SECONDS = 75  # two heartbeats and a margin


def touch_table(
    player_id: int, table_id: int, *, visible: bool | None, online: bool = True, site: bool = True
) -> None:
    """A socket of ``player_id`` at the table is open (``online``) or closing; ``visible``: the
    page became visible (True), hidden (False), or is unchanged (None). ``site``: also count it
    as seen on the site (heartbeats do so only now and then: minutes are precise enough)."""
    now = timezone.now()
    until = now + dt.timedelta(seconds=LEASE_SECONDS) if online else now
    changes: dict[str, Any] = {"last_seen": now, "online_until": until}
    if visible is True:
        changes.update(visible_until=until, looked_at=now)
    elif visible is False or not online:
        changes["visible_until"] = now
    rows = TablePresence.objects.filter(player_id=player_id, table_id=table_id)
    if not rows.update(**changes):
        TablePresence.objects.bulk_create(
            [TablePresence(player_id=player_id, table_id=table_id, **changes)], ignore_conflicts=True
        )
    if site:
        touch_site(player_id, now)


RENEW_CHUNK = 200  # (player, table) pairs per UPDATE statement


def renew_leases(tables: Iterable[tuple[int, int, bool]], site_players: Iterable[int]) -> None:
    """The heartbeat of every open socket of one server process at once: each (player, table,
    page visible) lease as touch_table(visible=...) renews it, and the players' last seen on the
    site, in a few statements rather than a write per socket."""
    now = timezone.now()
    until = now + dt.timedelta(seconds=LEASE_SECONDS)
    players = sorted(set(site_players))
    if players:
        Activity.objects.filter(player_id__in=players).update(last_seen=now)
    wanted = {(player, table): visible for player, table, visible in tables}
    for visible in (True, False):
        changes: dict[str, Any] = {"last_seen": now, "online_until": until}
        changes.update({"visible_until": until, "looked_at": now} if visible else {"visible_until": now})
        pairs = sorted(pair for pair, seen in wanted.items() if seen is visible)
        for start in range(0, len(pairs), RENEW_CHUNK):
            chunk = pairs[start : start + RENEW_CHUNK]
            match = Q()
            for player, table in chunk:
                match |= Q(player_id=player, table_id=table)
            if TablePresence.objects.filter(match).update(**changes) < len(chunk):
                _create_missing(chunk, visible)


def _create_missing(pairs: list[tuple[int, int]], visible: bool) -> None:
    """A lease row is made when its socket connects; one deleted since is made again."""
    known = set(
        TablePresence.objects.filter(
            player_id__in={p for p, _ in pairs}, table_id__in={t for _, t in pairs}
        ).values_list("player_id", "table_id")
    )
    for player, table in pairs:
        if (player, table) not in known:
            try:
                with transaction.atomic():
                    touch_table(player, table, visible=visible, site=False)
            except IntegrityError:
                pass  # the player or the table is gone: nothing to renew, the rest still is


def touch_site(player_id: int, now: dt.datetime | None = None) -> None:
    now = now or timezone.now()
    if not Activity.objects.filter(player_id=player_id).update(last_seen=now):
        Activity.objects.bulk_create([Activity(player_id=player_id, last_seen=now)], ignore_conflicts=True)


_WATCHING = (
    f"SELECT 1 FROM {TablePresence._meta.db_table} "
    "WHERE player_id = %s AND table_id = %s AND visible_until > %s LIMIT 1"
)


def is_watching(player_id: int, table_id: int, now: dt.datetime | None = None) -> bool:
    """Has the player the table's page open and visible right now? Asked after nearly every
    move, so the query is written once rather than built by the ORM each time (a seventh of a
    worker's time per move)."""
    moment = connection.ops.adapt_datetimefield_value(now or timezone.now())
    with connection.cursor() as cursor:
        cursor.execute(_WATCHING, [player_id, table_id, moment])
        return cursor.fetchone() is not None


def looked_since(player_id: int, table_id: int, moment: dt.datetime) -> bool:
    row = TablePresence.objects.filter(player_id=player_id, table_id=table_id).first()
    if row is None:
        return False
    now = timezone.now()
    return (row.looked_at is not None and row.looked_at >= moment) or (
        row.visible_until is not None and row.visible_until > now
    )


def last_seen_anywhere(player_id: int) -> dt.datetime | None:
    return Activity.objects.filter(player_id=player_id).values_list("last_seen", flat=True).first()


def seats(table: Table) -> list[dict[str, Any]]:
    """The presence message's rows: each seated human, on the page now or when last seen. The
    table's own dot (online, visible at this table) is always sent; an account that hides its
    presence (tables.social) has no last seen in it."""
    now = timezone.now()
    ids = {seat: table.seat_player_id(seat) for seat in (0, 1)}
    hidden = social.hiding_presence(i for i in ids.values() if i)
    rows: dict[int | None, TablePresence] = {
        row.player_id: row
        for row in TablePresence.objects.filter(table=table, player_id__in=[i for i in ids.values() if i])
    }
    result = []
    for seat, player_id in ids.items():
        player = table.seats[seat]
        if player is None or player.is_bot:
            continue
        row = rows.get(player_id)
        result.append(
            {
                "seat": seat,
                "online": bool(row and row.online_until and row.online_until > now),
                "visible": bool(row and row.visible_until and row.visible_until > now),
                "last_seen": row.last_seen.isoformat() if row and player_id not in hidden else None,
            }
        )
    return result


def spectators(table: Table, now: dt.datetime | None = None) -> int:
    """How many people have the table's page open without a seat there (accounts and guests:
    a socket with no player holds no lease here: alerts.watchers counts those)."""
    seated = [player_id for player_id in (table.seat0_id, table.seat1_id) if player_id]
    watching = TablePresence.objects.filter(table=table, online_until__gt=now or timezone.now())
    return watching.exclude(player_id__in=seated).count()
