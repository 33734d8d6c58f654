"""The inbox line "your vacation ends soon": once per vacation end, a day before it.

The deadline is in the database already: the player's ``vacation_until`` (indexed), the line due
REMIND_BEFORE earlier. A periodic sweep (registry REMIND_VACATIONS, every few minutes: a reminder a
day ahead needs no faster path) writes the lines due; the line's occasion is the vacation's end,
so a sweep run twice, or two at once, keeps one line, and a vacation moved to a later day is
reminded again before its new end. A vacation declared with less than REMIND_BEFORE to go is not
reminded: its player has just chosen its end.
"""

from __future__ import annotations

import datetime as dt

from django.db.models import F
from django.urls import reverse
from django.utils import formats, timezone, translation

from tables.accounts import vacation_days
from tables.accounts.models import Player
from tables.alerts import services as inbox_lines
from tables.alerts import texts
from tables.alerts.models import InboxItem

REMIND_BEFORE = dt.timedelta(days=1)
KIND = "vacation_ending"


def occasion(until: dt.datetime) -> str:
    return f"vacation:{int(until.timestamp())}"


def remind_vacations(now: dt.datetime | None = None) -> int:
    """Write the line of each vacation ending within REMIND_BEFORE that has none yet; returns how
    many were written."""
    now = now or timezone.now()
    due = list(
        Player.objects.filter(
            vacation_until__gt=now,
            vacation_until__lte=now + REMIND_BEFORE,
            vacation_started_at__lte=F("vacation_until") - REMIND_BEFORE,
        )
    )
    if not due:
        return 0
    written = set(InboxItem.objects.filter(player__in=due, kind=KIND).values_list("player_id", "occasion"))
    return sum(_remind(player) for player in due if (player.pk, _occasion_of(player)) not in written)


def _occasion_of(player: Player) -> str:
    assert player.vacation_until is not None  # the sweep's filter
    return occasion(player.vacation_until)


def _remind(player: Player) -> bool:
    assert player.vacation_until is not None  # the sweep's filter
    last_day = vacation_days.last_day(player.vacation_until, player.time_zone)
    with translation.override(texts.language(player.language)):
        day = formats.date_format(last_day, "DATE_FORMAT")
    title, body = texts.render(KIND, player.language, day=day)
    return inbox_lines.keep(player, KIND, _occasion_of(player), title, body, reverse("profile"))
