"""What the social room's pages and API answers say: presence, the following list, blocks and
the head-to-head, as plain values."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.utils import timezone
from django.utils.formats import date_format
from django.utils.timesince import timesince
from django.utils.translation import gettext

from tables.accounts.models import Player
from tables.play.payloads import player_url
from tables.social.models import Block, Follow
from tables.social.selectors import HeadToHead, Presence


def presence(found: Presence | None) -> dict[str, Any]:
    """The API's presence: hidden says nothing (online and last_seen null), not "offline"."""
    if found is None or found.hidden:
        return {"hidden": True, "online": None, "last_seen": None}
    last = found.last_seen.isoformat() if found.last_seen else None
    return {"hidden": False, "online": found.online, "last_seen": last}


def presence_text(found: Presence | None, now: dt.datetime) -> str:
    """ "online now", "last seen 3 hours ago"; nothing when hidden or never seen."""
    if found is None or found.hidden or found.last_seen is None:
        return ""
    if found.online:
        return gettext("online now")
    return gettext("last seen %(ago)s ago") % {"ago": timesince(found.last_seen, now, depth=1)}


def player_row(player: Player, found: Presence | None, now: dt.datetime) -> dict[str, Any]:
    return {
        "id": player.pk,
        "name": player.display_name,
        "player_url": player_url(player),
        "presence": presence(found),
        "presence_text": presence_text(found, now),
    }


def following_row(row: Follow, found: Presence | None, now: dt.datetime) -> dict[str, Any]:
    return player_row(row.followed, found, now) | {"since": row.created_at.isoformat()}


def block_row(row: Block) -> dict[str, Any]:
    return {
        "id": row.blocked_id,
        "name": row.blocked.display_name,
        "player_url": player_url(row.blocked),
        "since": row.created_at.isoformat(),
    }


def head_to_head(record: HeadToHead, other: Player) -> dict[str, Any]:
    return {
        "opponent_id": other.pk,
        "opponent": other.display_name,
        "won": record.won,
        "lost": record.lost,
        "matches": record.matches,
        "last_on": record.last_on.isoformat() if record.last_on else None,
    }


def head_to_head_text(record: HeadToHead, other: Player) -> str:
    """ "you against Ana: 7 won, 5 lost, last on 2 December"; empty before a first match."""
    if not record.matches or record.last_on is None:
        return ""
    return gettext("you against %(name)s: %(won)d won, %(lost)d lost, last on %(day)s") % {
        "name": other.name,
        "won": record.won,
        "lost": record.lost,
        "day": date_format(timezone.localtime(record.last_on), "MONTH_DAY_FORMAT"),
    }
