"""Reads of the tables' data: lookups, the lobby, a player's tables, chat history, and what the
sweepers must act on. Nothing here writes; the writers are in tables/services/."""

from __future__ import annotations

import datetime as dt

from django.db.models import Q, QuerySet
from django.utils import timezone

from . import glicko2
from .errors import NotFound
from .models import Challenge, ChatMessage, ChatMute, Deal, Match, Pace, Player, Rating, Table, Vacation
from .reads import KEY_SAMPLE, CompiledRead

TableRef = int | str | Table  # a primary key, an invite token, or a row to read again


def _tables_with_players() -> QuerySet[Table]:
    # The owner always sits (payloads.owner_name reads it from the seats): no join for it here.
    return Table.objects.select_related("seat0", "seat1", "current_deal__match")


# The hot path of every read (the API's state, each socket's event, the tasks): compiled once.
_TABLE_BY_KEY = CompiledRead(lambda pk: _tables_with_players().filter(pk=pk), sample=KEY_SAMPLE)
_TABLE_BY_TOKEN = CompiledRead(lambda token: _tables_with_players().filter(invite_token=token))


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
    hidden messages and the authors the viewer muted are left out."""
    seat = table.seat_of(viewer)
    messages = ChatMessage.objects.filter(table=table, hidden=False, id__gt=after).select_related("author")
    if seat is not None:
        messages = messages.filter(channel=ChatMessage.Channel.PLAYERS)
    if viewer is not None:
        muted = ChatMute.objects.filter(table=table, player=viewer).values("muted")
        messages = messages.exclude(author__in=muted)
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


def playing_table_ids(player: Player) -> list[int]:
    """Every table where ``player`` sits with a match under way, in the order writers lock them."""
    rows = Table.objects.filter(
        Q(seat0=player) | Q(seat1=player), current_deal__match__status=Match.Status.PLAYING
    )
    return list(rows.order_by("pk").values_list("pk", flat=True))


def vacation_days_of(player: Player, exclude: Vacation | None = None) -> list[tuple[dt.date, dt.date]]:
    """(first day, last day) of the player's vacations of last year and later (one across New
    Year counts in this one), but ``exclude``."""
    rows = Vacation.objects.filter(player=player, last_day__year__gte=timezone.now().year - 1)
    if exclude is not None:
        rows = rows.exclude(pk=exclude.pk)
    return list(rows.values_list("first_day", "last_day"))


def ended_vacations(now: dt.datetime | None = None) -> list[tuple[int, dt.datetime]]:
    """(player id, end) of every vacation whose end has come: for the sweep."""
    rows = Player.objects.filter(vacation_until__lte=now or timezone.now())
    return [(pk, until) for pk, until in rows.values_list("pk", "vacation_until") if until is not None]


# -- challenges and seeks -------------------------------------------------------------------


def open_seeks(
    ruleset: str | None = None,
    pace: str | None = None,
    limit: int = 50,
    takeable_by: tuple[Player, dict[str, float]] | None = None,
) -> list[Challenge]:
    """Seeks still open, newest first, filtered by rule set and pace (``slow`` or ``live``), and,
    with ``takeable_by`` (a player and their ratings by pace), to those that player may take."""
    rows = Challenge.objects.filter(
        challenged__isnull=True, status=Challenge.Status.OPEN, expires_at__gt=timezone.now()
    )
    if takeable_by is not None:
        taker, ratings = takeable_by
        rows = rows.exclude(challenger=taker).filter(
            _admits(Q(turn_seconds__gte=Table.SLOW_CLOCK_SECONDS), ratings[Pace.SLOW])
            | _admits(Q(turn_seconds__lt=Table.SLOW_CLOCK_SECONDS), ratings[Pace.LIVE])
        )
    if ruleset:
        rows = rows.filter(ruleset_name=ruleset)
    if pace == "slow":
        rows = rows.filter(turn_seconds__gte=Table.SLOW_CLOCK_SECONDS)
    elif pace == "live":
        rows = rows.filter(turn_seconds__lt=Table.SLOW_CLOCK_SECONDS)
    return list(rows.select_related("challenger").order_by("-created_at")[:limit])


def _admits(at_pace: Q, rating: float) -> Q:
    low = Q(min_rating__isnull=True) | Q(min_rating__lte=rating)
    return at_pace & low & (Q(max_rating__isnull=True) | Q(max_rating__gte=rating))


def ratings_by_pace(player: Player) -> dict[str, float]:
    """A player's rating at each pace, 1500 where they have none yet (what a seek's range tests)."""
    found = dict(Rating.objects.filter(player=player).values_list("pace", "rating"))
    return {pace: found.get(pace, glicko2.INITIAL_RATING) for pace in Pace.values}


def open_challenges(player: Player) -> tuple[list[Challenge], list[Challenge]]:
    """The open challenges ``player`` received and those they sent (seeks included), newest first."""
    rows = Challenge.objects.filter(status=Challenge.Status.OPEN, expires_at__gt=timezone.now())
    rows = rows.select_related("challenger", "challenged", "table").order_by("-created_at")
    return list(rows.filter(challenged=player)), list(rows.filter(challenger=player))


def accounts_named(name: str, limit: int = 20) -> list[Player]:
    """Accounts whose display name is ``name`` (any case), or starts with it when none is."""
    accounts = Player.objects.filter(user__isnull=False, is_bot=False).order_by("display_name", "pk")
    exact = list(accounts.filter(display_name__iexact=name)[:limit])
    return exact or list(accounts.filter(display_name__istartswith=name)[:limit])


def recent_opponents(player: Player, limit: int = 10) -> list[Player]:
    """The accounts ``player`` met at their latest tables, most recent first."""
    opponents: dict[int, Player] = {}
    tables = Table.objects.filter(Q(seat0=player) | Q(seat1=player), current_deal__isnull=False)
    for table in tables.select_related("seat0", "seat1").order_by("-updated_at")[: limit * 3]:
        other = table.seat1 if table.seat0_id == player.pk else table.seat0
        if other is not None and other.user_id is not None and not other.is_bot:
            opponents.setdefault(other.pk, other)
    return list(opponents.values())[:limit]
