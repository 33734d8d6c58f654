"""The inbox: what an alert leaves behind, for a page that was closed or another device.

A line is written where its alert is decided (tables.alerts.notify for tables,
tables.challenges.alerts for challenges), in the background follow-up of the event and never in
its writer's transaction. Its unique key (player, kind, occasion) is the occasion's key of the
alert itself, so a retried task or an event alerted twice keeps one line. Every open page of the
player, on every device, counts its unread lines again on the user socket's ``inbox`` message,
sent once a new line is committed (whatever alert channels the player chose) and when lines are
read on any device; lines older than INBOX_DAYS, and an account's lines past its newest
INBOX_MAX, go in a periodic sweep (registry PURGE_INBOX).
"""

from __future__ import annotations

import datetime as dt

from django.db import IntegrityError, transaction
from django.db.models import Count, QuerySet
from django.utils import timezone

from tables.accounts.models import Player
from tables.alerts.models import InboxItem
from tables.live import events

INBOX_DAYS = 90
INBOX_MAX = 500  # lines kept per account: the sweep forgets the oldest past this
PAGE = 50  # lines per page of the inbox, newest first
# the kinds of alert that leave a line: what matters later, not every move or chat message
KINDS = frozenset(
    {
        "challenge",
        "challenge_accepted",
        "challenge_declined",
        "seek_taken",
        "rematch_offer",
        "match_over",
        "reminder",  # your turn, after most of a slow turn's time went by
        "warning",  # staff warned the account (tables.social.alerts)
        "report_handled",  # staff handled the account's report (tables.social.alerts)
        "auto_vacation",  # a turn that would have timed out started a day of vacation
        "review_ready",  # a deal's review the account asked for is done (tables.reviews.alerts)
        "vacation_ending",  # the account's vacation ends within a day (tables.accounts.alerts)
    }
)


def keep(player: Player, kind: str, occasion: str, title: str, body: str, path: str) -> bool:
    """Write the line of this occasion unless it is there already; True if it was written. Once
    it is committed, the player's open pages count their unread lines again."""
    if kind not in KINDS or player.is_bot:
        return False
    try:
        with transaction.atomic():
            InboxItem.objects.create(
                player=player,
                kind=kind,
                occasion=occasion[:80],
                title=title[:200],
                body=body[:500],
                path=path[:300],
            )
    except IntegrityError:
        return False
    transaction.on_commit(lambda: _changed(player.pk))
    return True


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
