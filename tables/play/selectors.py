"""Reads of the tables' data: lookups, the lobby, a player's tables, chat history, and what the
sweepers must act on. Nothing here writes; the writers are in tables/play/services/."""

from __future__ import annotations

import datetime as dt

from django.db.models import Q, QuerySet
from django.utils import timezone

from tables.accounts.models import Player
from tables.core.errors import NotFound
from tables.core.reads import KEY_SAMPLE, CompiledRead
from tables.play.models import ChatMessage, ChatMute, Deal, Match, Table
from tables.social.selectors import blocked_by

TableRef = int | str | Table  # a primary key, an invite token, or a row to read again


def _tables_with_players() -> QuerySet[Table]:
    # The owner always sits (payloads.owner_name reads it from the seats): no join for it here.
    return Table.objects.select_related("seat0", "seat1", "current_deal__match")


# The hot path of every read (the API's state, each socket's event, the tasks): compiled once.
_TABLE_BY_KEY = CompiledRead(lambda pk: _tables_with_players().filter(pk=pk), sample=KEY_SAMPLE)
_TABLE_BY_TOKEN = CompiledRead(lambda token: _tables_with_players().filter(invite_token=token))


# What follows a committed change (the deadline's fast path, alerts, pending counts) reads no
# game state: the deal's snapshot and the match's record, which grow with the match, are left in
# the database (a match's end reads its record again, once).
_FOLLOW_UP_UNREAD = (
    "ruleset",
    "current_deal__ruleset",
    "current_deal__snapshot",
    "current_deal__match__ruleset",
    "current_deal__match__record",
)
_TABLE_TO_FOLLOW_UP = CompiledRead(
    lambda pk: _tables_with_players().defer(*_FOLLOW_UP_UNREAD).filter(pk=pk), sample=KEY_SAMPLE
)


def table_to_follow_up(table_id: int) -> Table:
    """The table as the follow-up of a change reads it: seats, deal and match without game state."""
    return table_by(table_id, _TABLE_TO_FOLLOW_UP, _TABLE_BY_TOKEN)


def get_table(ref: TableRef) -> Table:
    """A table for reading (no lock), by primary key, invite token or row."""
    return table_by(ref, _TABLE_BY_KEY, _TABLE_BY_TOKEN)


def table_by(ref: TableRef, by_key: CompiledRead[Table], by_token: CompiledRead[Table]) -> Table:
    """The table ``ref`` names, read with ``by_key`` (a primary key or a row) or ``by_token``."""
    if isinstance(ref, Table):
        ref = ref.pk
    read = by_key if isinstance(ref, int) else by_token
    try:
        table: Table = read.get(ref)
    except (Table.DoesNotExist, ValueError):
        raise NotFound("There is no such table.") from None
    return table


def lobby_tables(limit: int = 50) -> list[Table]:
    """Public tables that have not started and still have a free seat."""
    rows = Table.objects.filter(visibility=Table.Visibility.PUBLIC, current_deal__isnull=True)
    rows = rows.filter(Q(seat0__isnull=True) | Q(seat1__isnull=True)).select_related("owner")
    return list(rows.order_by("-created_at")[:limit])


def tables_of(player: Player) -> list[Table]:
    """Every table where ``player`` sits, newest activity first."""
    rows = Table.objects.filter(Q(seat0=player) | Q(seat1=player))
    return list(rows.select_related("seat0", "seat1", "current_deal__match").order_by("-updated_at"))


def chat_history(table: Table, viewer: Player | None, after: int = 0, limit: int = 100) -> list[ChatMessage]:
    """The messages ``viewer`` may read: players see the players' channel, spectators both;
    hidden messages, the authors the viewer muted and those the viewer blocks are left out."""
    seat = table.seat_of(viewer)
    messages = ChatMessage.objects.filter(table=table, hidden=False, id__gt=after).select_related("author")
    if seat is not None:
        messages = messages.filter(channel=ChatMessage.Channel.PLAYERS)
    if viewer is not None:
        muted = ChatMute.objects.filter(table=table, player=viewer).values("muted")
        messages = messages.exclude(author__in=muted).exclude(author__in=blocked_by(viewer))
    return list(messages.order_by("id")[:limit])


def mid_turn(deal: Deal | None) -> bool:
    """The player to move has drawn and is still to discard (or knock): their turn goes on,
    with the same clock, nobody new to alert and no count to refresh."""
    return deal is not None and deal.status == Deal.Status.PLAYING and deal.phase == "discard"


def overdue_deals(now: dt.datetime | None = None) -> list[tuple[int, int]]:
    """(deal id, table version) of every current deal whose clock has run out: for the sweeper."""
    rows = Table.objects.filter(
        current_deal__deadline__lte=now or timezone.now(), current_deal__match__status=Match.Status.PLAYING
    )
    return [(deal_id, version) for deal_id, version in rows.values_list("current_deal_id", "version")]


def rematch_lapsed(table: Table, now: dt.datetime) -> bool:
    expires_at = table.rematch_expires_at
    return expires_at is not None and expires_at <= now


def lapsed_rematch_offers() -> list[tuple[int, int]]:
    """(table id, version) of every rematch offer whose time is up: for the sweeper."""
    now = timezone.now()
    youngest = now - dt.timedelta(seconds=Table.REMATCH_OFFER_MIN_SECONDS)  # no offer lapses sooner
    rows = Table.objects.filter(rematch_offered_by__isnull=False, rematch_offered_at__lte=youngest)
    rows = rows.only("pk", "version", "turn_seconds", "rematch_offered_by", "rematch_offered_at")
    return [(table.pk, table.version) for table in rows if rematch_lapsed(table, now)]


def stalled_bot_turns(idle_since: dt.datetime) -> list[tuple[int, int]]:
    """(deal id, table version) of every bot's turn untouched since ``idle_since``."""
    rows = Table.objects.filter(
        Q(seat0__is_bot=True) | Q(seat1__is_bot=True),
        updated_at__lte=idle_since,
        current_deal__status=Deal.Status.PLAYING,
        current_deal__match__status=Match.Status.PLAYING,
    ).select_related("seat0", "seat1", "current_deal")
    turns = []
    for table in rows:
        deal = table.current_deal
        player = table.seats[deal.to_play] if deal is not None and deal.to_play is not None else None
        if deal is not None and player is not None and player.is_bot:
            turns.append((deal.pk, table.version))
    return turns


# -- challenges and seeks -------------------------------------------------------------------
