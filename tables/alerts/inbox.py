"""The inbox: what an alert leaves behind, for a page that was closed or another device.

A line is written in the transaction of its event, by its writer (tables.alerts.services, where
the kinds are listed). Every open page of the player, on every device, counts its unread lines
again on the user socket's ``inbox`` message, sent once a new line is committed (whatever alert
channels the player chose) and when lines are read on any device; lines older than INBOX_DAYS,
and an account's lines past its newest INBOX_MAX, go in a periodic sweep (registry PURGE_INBOX).
"""

from __future__ import annotations

import datetime as dt

from django.db import transaction
from django.db.models import Count, QuerySet
from django.utils import timezone

from tables.accounts.models import Player
from tables.alerts.models import InboxItem
from tables.live import events

INBOX_DAYS = 90
INBOX_MAX = 500  # lines kept per account: the sweep forgets the oldest past this
PAGE = 50  # lines per page of the inbox, newest first


def on_inbox_written(sender: object, player_id: int, **kwargs: object) -> None:
    """Receiver of tables.alerts.announcements.inbox_written: a line was committed."""
    _changed(player_id)


def _changed(player_id: int) -> None:
    """Every open page of the player (the user socket, on any device) counts its unread again."""
    events.publish_to_player(player_id, {"type": "inbox.changed"})


def lines(player: Player, before: int | None = None) -> list[InboxItem]:
    """A page of the player's lines, newest first; ``before``: the id the last page ended at."""
    rows: QuerySet[InboxItem] = InboxItem.objects.filter(player=player)
    if before is not None:
        rows = rows.filter(pk__lt=before)
    return list(rows.order_by("-pk")[:PAGE])


def unread(player: Player) -> int:
    return InboxItem.objects.filter(player=player, read_at__isnull=True).count()


def mark_read(player: Player, ids: list[int] | None) -> int:
    """Mark the player's lines ``ids`` read (None: all of them); returns how many changed."""
    rows = InboxItem.objects.filter(player=player, read_at__isnull=True)
    if ids is not None:
        rows = rows.filter(pk__in=ids)
    changed = rows.update(read_at=timezone.now())
    if changed:
        transaction.on_commit(lambda: _changed(player.pk))
    return changed


def purge(now: dt.datetime | None = None) -> int:
    """Forget the lines older than INBOX_DAYS, and past an account's newest INBOX_MAX; returns
    how many went."""
    now = now or timezone.now()
    gone, _ = InboxItem.objects.filter(created_at__lt=now - dt.timedelta(days=INBOX_DAYS)).delete()
    crowded = InboxItem.objects.values("player").annotate(lines=Count("pk")).filter(lines__gt=INBOX_MAX)
    for row in crowded.values_list("player", flat=True):
        mine = InboxItem.objects.filter(player_id=row).order_by("-pk")
        last_kept = mine.values_list("pk", flat=True)[INBOX_MAX - 1]
        over, _ = mine.filter(pk__lt=last_kept).delete()
        gone += over
    return gone
