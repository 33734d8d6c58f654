"""The daily email of players who chose it (``alert_prefs.digest``): every table where it is
their move, once a day after DIGEST_HOUR in their time zone, instead of each "your move" email."""

from __future__ import annotations

import datetime as dt

from django.conf import settings
from django.urls import reverse
from django.utils import timezone

from tables.accounts.models import Player
from tables.alerts import emails, prefs
from tables.alerts.models import Activity
from tables.alerts.texts import board_place, digest_subject
from tables.play import payloads, selectors
from tables.variants.selectors import boards_for_alerts

DIGEST_HOUR = 8  # local time of the daily digest


def send_digests(now: dt.datetime | None = None) -> int:
    """The daily email of players who chose it: every table where it is their move."""
    now = now or timezone.now()
    sent = 0
    for player in Player.objects.filter(alert_prefs__digest=True, user__isnull=False).select_related("user"):
        local = now.astimezone(prefs._zone(player.time_zone))
        activity = Activity.objects.filter(player=player).first()
        if local.hour < DIGEST_HOUR or (activity and activity.digest_sent_on == local.date()):
            continue
        if activity is None:
            activity = Activity.objects.create(player=player, last_seen=now - dt.timedelta(days=365))
        activity.digest_sent_on = local.date()
        activity.save(update_fields=["digest_sent_on"])
        sent += _send_digest(player)
    return sent


def _send_digest(player: Player) -> int:
    rows = [(table, payloads.my_table_row(table, player)) for table in selectors.tables_of(player)]
    awaiting = [(table, row) for table, row in rows if row["your_move"]]
    if not awaiting:
        return 0
    boards = boards_for_alerts([table for table, _ in awaiting])  # named as their alerts name them
    lines = [
        {
            **row,
            "url": settings.SITE_URL + reverse("table", args=[row["table"]]),
            "place": board_place(boards[table.pk], player.language) if table.pk in boards else "",
        }
        for table, row in awaiting
    ]
    return int(emails.send_digest(player, lines, digest_subject(len(lines), player.language)))
