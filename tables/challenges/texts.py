"""What a challenge's alerts and inbox lines say, and to whom: the challenged player hears of a
challenge, the challenger of its answer (a seeker: that the seek was taken). In the addressee's
language, the lapse in their time zone."""

from __future__ import annotations

import datetime as dt
import zoneinfo

from django.urls import reverse

from tables.accounts.models import Player
from tables.alerts.texts import render, turn_clock
from tables.challenges.models import Challenge

# event -> (the text's kind, whom it goes to)
EVENTS = {
    "received": ("challenge", "challenged"),
    "accepted": ("challenge_accepted", "challenger"),
    "declined": ("challenge_declined", "challenger"),
}


def addressed(challenge: Challenge, event: str) -> tuple[str, Player | None, Player | None]:
    """The text's kind of ``event``, the player told and the other one."""
    text_kind, role = EVENTS[event]
    if event == "accepted" and challenge.is_seek:
        text_kind = "seek_taken"
    player: Player | None = getattr(challenge, role)
    other = challenge.challenged if role == "challenger" else challenge.challenger
    if other is None and challenge.table is not None:  # a seek names its taker by seating them
        other = challenge.table.seat1
    return text_kind, player, other


def title_and_body(challenge: Challenge, text_kind: str, player: Player, other: Player) -> tuple[str, str]:
    return render(
        text_kind,
        player.language,
        opponent=other.name,
        rules=f"{challenge.ruleset_name} · {turn_clock(challenge.turn_seconds, player.language)}",
        lapses=local_time(challenge.expires_at, player.time_zone),
    )


def path_of(challenge: Challenge) -> str:
    """The challenges page while it is open, its table once accepted."""
    if challenge.table is None:
        return reverse("challenges")
    return reverse("table", args=[challenge.table.invite_token])


def local_time(moment: dt.datetime, zone_name: str) -> str:
    try:
        zone: dt.tzinfo = zoneinfo.ZoneInfo(zone_name or "UTC")
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        zone = dt.UTC
    return moment.astimezone(zone).strftime("%Y-%m-%d %H:%M")
