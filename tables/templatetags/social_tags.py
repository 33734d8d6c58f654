"""The social room's pieces of other rooms' pages: a player page's follow and block buttons with
presence and head-to-head, the challenge form's head-to-head, the table's "last seen" of the
opponent, the table's and the archive's private notes of their author, and the profile's presence
setting and block list. Each reads where the page is built
(never on the path of a move)."""

from __future__ import annotations

from typing import Any

from django import template
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext

from tables.accounts import identity
from tables.accounts.models import Player
from tables.play.models import Table
from tables.social import payloads, selectors, services

register = template.Library()


def _viewer(context: template.Context) -> Player | None:
    request = context.get("request")
    player = identity.player_for_request(request) if request is not None else None
    return player if player is not None and player.user_id is not None and not player.is_bot else None


def _presence(player: Player, found: selectors.Presence | None = None) -> dict[str, Any]:
    now = timezone.now()
    if found is None:
        found = selectors.presence_of([player.pk], now).get(player.pk)
    return {
        "presence_text": payloads.presence_text(found, now),
        "online": bool(found and found.online and not found.hidden),
        "last_seen": found.last_seen if found else None,
    }


def _record(viewer: Player, other: Player) -> dict[str, Any]:
    record = selectors.head_to_head(viewer, other)
    return {
        "head_to_head": payloads.head_to_head_text(record, other),
        "versus_url": reverse("versus", args=[other.pk]) if record.matches else None,
    }


@register.inclusion_tag("social/_player_social.html", takes_context=True)
def player_social(context: template.Context, shown: Player) -> dict[str, Any]:
    """A player page's line: presence, the visitor's record against them, follow and block."""
    viewer = _viewer(context)
    seen = selectors.seen_by(shown, viewer, timezone.now())  # one query, and one for the record
    data: dict[str, Any] = {
        "shown": shown,
        "csrf_token": context.get("csrf_token"),
        **_presence(shown, seen.presence),
    }
    if viewer is not None and viewer.pk != shown.pk:
        data |= {
            "viewer": viewer,
            "following": seen.following,
            "blocking": seen.blocking,
            **_record(viewer, shown),
        }
    return data


@register.inclusion_tag("social/_head_to_head.html", takes_context=True)
def head_to_head_line(context: template.Context, opponent: Player) -> dict[str, Any]:
    """The challenge form's "you against Ana: 7 won, 5 lost, last on 2 December"."""
    viewer = _viewer(context)
    if viewer is None or viewer.pk == opponent.pk:
        return {}
    return _record(viewer, opponent)


@register.inclusion_tag("social/_opponent_presence.html", takes_context=True)
def opponent_presence(context: template.Context, table: Table) -> dict[str, Any]:
    """At the table, the seated player's opponent (an account): online now, or last seen when."""
    viewer = context.get("player")
    seat = table.seat_of(viewer) if isinstance(viewer, Player) else None
    opponent = table.seats[1 - seat] if seat is not None else None
    if seat is None or opponent is None or opponent.user_id is None or opponent.is_bot:
        return {}
    # The page's presence messages then say when the opponent opens or leaves this table.
    texts = {"online_text": gettext("online now"), "left_text": gettext("last seen just now")}
    return {"opponent": opponent, "seat": 1 - seat, **texts, **_presence(opponent)}


@register.inclusion_tag("social/_profile_social.html", takes_context=True)
def profile_social(context: template.Context) -> dict[str, Any]:
    """The profile's presence setting and block list (accounts)."""
    viewer = _viewer(context)
    if viewer is None:
        return {}
    return {
        "viewer": viewer,
        "csrf_token": context.get("csrf_token"),
        "hidden": selectors.hides_presence(viewer),
        "blocks": selectors.blocks_of(viewer),
        "next": reverse("profile"),
    }


@register.inclusion_tag("social/_table_note.html", takes_context=True)
def table_note(context: template.Context, table: Table) -> dict[str, Any]:
    """At the table, the seated player's own notes on the current match (nothing for others)."""
    viewer = context.get("player")
    if not isinstance(viewer, Player) or viewer.is_bot or table.seat_of(viewer) is None:
        return {}
    match_id = table.current_deal.match_id if table.current_deal else None
    note = selectors.note_of(viewer, match_id)
    return {
        "table": table,
        "shown": True,
        "started": match_id is not None,
        "text": note.text if note else "",
        "max_chars": services.NOTE_MAX_CHARS,
        "csrf_token": context.get("csrf_token"),
    }


@register.inclusion_tag("social/_archive_note.html", takes_context=True)
def archive_note(context: template.Context, match_id: int) -> dict[str, Any]:
    """On a match's archive page, the visitor's own notes on it, if they wrote any."""
    request = context.get("request")
    viewer = identity.player_for_request(request) if request is not None else None
    note = selectors.note_of(viewer, match_id)
    return {"text": note.text if note and note.text else ""}
