"""Reads of the tables' data: lookups, the lobby, a player's tables, chat history, and what the
sweepers must act on. Nothing here writes; the writers are in tables/play/services/."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.db.models import Max, Q, QuerySet
from django.dispatch import Signal
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


@dataclass(frozen=True)
class SharedChat:
    """One conversation that several tables show (a game's boards, tables.variants): the
    messages kept at any of them, and the players who write and read its players' channel
    wherever they are."""

    table_ids: tuple[int, ...]
    player_ids: frozenset[int]


# Asked with ``table`` (its row): a room whose tables share one chat answers with a SharedChat
# for its tables (receivers wired in tables/apps.py); no answer: the table keeps a chat of its own.
chat_shared = Signal()


def shared_chat(table: Table) -> SharedChat | None:
    for _receiver, answer in chat_shared.send(sender=SharedChat, table=table):
        if isinstance(answer, SharedChat):
            return answer
    return None


def chats_as_player(table: Table, viewer: Player | None, shared: SharedChat | None) -> bool:
    """Whether ``viewer`` writes and reads the players' channel here (else a spectator's)."""
    if table.seat_of(viewer) is not None:
        return True
    return shared is not None and viewer is not None and viewer.pk in shared.player_ids


def chat_history(table: Table, viewer: Player | None, after: int = 0, limit: int = 100) -> list[ChatMessage]:
    """The messages ``viewer`` may read: players see the players' channel, spectators both;
    hidden messages, the authors the viewer muted and those the viewer blocks are left out.
    A table that shares its chat (shared_chat) reads the whole conversation. From the start
    (``after`` 0), the newest ``limit``: what follows them comes by the socket or ``after``."""
    shared = shared_chat(table)
    tables = (table.pk,) if shared is None else shared.table_ids
    rows = ChatMessage.objects.filter(table_id__in=tables, hidden=False, id__gt=after)
    messages = rows.select_related("author")
    if chats_as_player(table, viewer, shared):
        messages = messages.filter(channel=ChatMessage.Channel.PLAYERS)
    if viewer is not None:
        muted = ChatMute.objects.filter(table_id__in=tables, player=viewer).values("muted")
        messages = messages.exclude(author__in=muted).exclude(author__in=blocked_by(viewer))
    if after == 0:
        return list(messages.order_by("-id")[:limit])[::-1]
    return list(messages.order_by("id")[:limit])


def chat_players(table: Table, shared: SharedChat | None) -> list[tuple[Player, Table]]:
    """The human players of the table's chat, each with the table where they read it: its own
    two, or every player of the chat it shares at the newest of its tables where they sit
    (tables opened later have larger keys), else at ``table`` (one who has not played yet)."""
    if shared is None:
        return [(player, table) for player in table.seats if player is not None and not player.is_bot]
    found: dict[int, tuple[Player, Table]] = {}
    for row in Table.objects.filter(pk__in=shared.table_ids).select_related("seat0", "seat1").order_by("pk"):
        for player in row.seats:
            if player is not None and not player.is_bot and player.pk in shared.player_ids:
                found[player.pk] = (player, row)
    others = Player.objects.filter(pk__in=shared.player_ids - found.keys(), is_bot=False)
    return [*found.values(), *((player, table) for player in others)]


def last_chat_id(table_id: int) -> int:
    """The newest message of the table's chat (the shared conversation's, if it shares one)."""
    row = Table.objects.only("rematches", "rated", "visibility").filter(pk=table_id).first()
    shared = None if row is None else shared_chat(row)
    tables = (table_id,) if shared is None else shared.table_ids
    last: int | None = ChatMessage.objects.filter(table_id__in=tables).aggregate(last=Max("id"))["last"]
    return last or 0


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
