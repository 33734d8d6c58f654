"""Reads of the social room: who an account follows and blocks, who is around (online now, last
seen, from the presence the live sockets keep), and two accounts' record against each other."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.db.models import Case, Exists, F, OuterRef, Q, QuerySet, Value, When

from tables.accounts.models import Player
from tables.archive.selectors import tables_shown_to
from tables.play.models import Match
from tables.ratings.selectors import UNLISTED_MATCH_FIELDS
from tables.records import selectors as records
from tables.social.models import Block, Follow, MatchNote, SocialSettings

# A socket's presence lease (tables.alerts.presence.LEASE_SECONDS): every open socket of an
# account renews its last seen on the site each heartbeat (30 s), so a last seen within one
# lease means a page of the site is open now.
ONLINE_WINDOW = dt.timedelta(seconds=75)


def account(player_id: int) -> Player | None:
    """An account's player (guests and robots are nobody to follow, block or meet)."""
    return Player.objects.filter(pk=player_id, user__isnull=False, is_bot=False).first()


def past_opponent(player_id: int) -> Player | None:
    """An account, or a deleted one: its finished matches stay in the opponents' head-to-head."""
    rows = Player.objects.filter(pk=player_id, is_bot=False)
    return rows.filter(Q(user__isnull=False) | Q(deleted_at__isnull=False)).first()


# -- follow ------------------------------------------------------------------------------


def following_of(player: Player) -> list[Follow]:
    """The accounts ``player`` follows, by name, each with its player read."""
    rows = Follow.objects.filter(follower=player).select_related("followed")
    return list(rows.order_by("followed__display_name", "followed_id"))


# What a row of the following list reads of the followed account (not its preferences...).
FOLLOWED_FIELDS = (
    "created_at",
    "followed__display_name",
    "followed__user_id",
    "followed__is_bot",
    "followed__deleted_at",
)


def following_count(player: Player) -> int:
    """How many accounts ``player`` follows: the follower's index alone, no join."""
    return Follow.objects.filter(follower=player).count()


def following_around_first(player: Player) -> QuerySet[Follow]:
    """The accounts ``player`` follows, those around first: the most recently seen (online now
    before all), then the never seen and the hidden, by name. Each row carries its presence
    (``seen_at``, ``hidden``: presence_from_row), so a page of them is one query."""
    hidden = Exists(SocialSettings.objects.filter(player=OuterRef("followed"), hide_presence=True))
    rows = Follow.objects.filter(follower=player).select_related("followed").only(*FOLLOWED_FIELDS)
    rows = rows.annotate(hidden=hidden, seen_at=F("followed__activity__last_seen"))
    shown_seen = Case(When(hidden=True, then=Value(None)), default=F("seen_at"))
    return rows.order_by(shown_seen.desc(nulls_last=True), "followed__display_name", "followed_id")


def presence_from_row(row: Follow, now: dt.datetime) -> Presence:
    """The presence of a row of following_around_first."""
    return _presence(getattr(row, "seen_at", None), bool(getattr(row, "hidden", False)), now)


def follows(follower: Player, followed: Player) -> bool:
    return Follow.objects.filter(follower=follower, followed=followed).exists()


def followed_by(player: Player, outer: str) -> Exists:
    """For a query of rows naming a player in ``outer`` (e.g. "challenger"): that ``player``
    follows them (the lobby shows their seeks first)."""
    return Exists(Follow.objects.filter(follower=player, followed=OuterRef(outer)))


# -- block -------------------------------------------------------------------------------


def blocks_of(player: Player) -> list[Block]:
    """The accounts ``player`` blocks, by name."""
    rows = Block.objects.filter(blocker=player).select_related("blocked")
    return list(rows.order_by("blocked__display_name", "blocked_id"))


def blocks(blocker: Player, blocked: Player) -> bool:
    return Block.objects.filter(blocker=blocker, blocked=blocked).exists()


def blocked_between(one_id: int, other_id: int) -> bool:
    """Does either of the two accounts block the other?"""
    pair = Q(blocker_id=one_id, blocked_id=other_id) | Q(blocker_id=other_id, blocked_id=one_id)
    return Block.objects.filter(pair).exists()


def blocked_either_way(player: Player | None) -> set[int]:
    """The ids of the accounts ``player`` blocks or is blocked by (none for a guest or nobody)."""
    if player is None or player.user_id is None:
        return set()
    rows = Block.objects.filter(Q(blocker=player) | Q(blocked=player)).values_list("blocker_id", "blocked_id")
    return {other for pair in rows for other in pair if other != player.pk}


def apart_from(player: Player, outer: str) -> Q:
    """For a query of rows naming a player in ``outer``: those not blocked by ``player`` nor
    blocking them (each stays out of the other's lobby)."""
    blocked = Block.objects.filter(blocker=player, blocked=OuterRef(outer))
    blocking = Block.objects.filter(blocker=OuterRef(outer), blocked=player)
    return ~Exists(blocked) & ~Exists(blocking)


def blocked_by(player: Player) -> QuerySet[Block, Any]:
    """The ids (a subquery) of the accounts ``player`` blocks: their chat is not shown to them."""
    return Block.objects.filter(blocker=player).values("blocked")


# -- who is around -----------------------------------------------------------------------


@dataclass(frozen=True)
class Presence:
    """What may be said of an account's presence: ``hidden`` (its choice) says nothing at all."""

    online: bool
    last_seen: dt.datetime | None  # None: never seen, or hidden
    hidden: bool = False


HIDDEN = Presence(online=False, last_seen=None, hidden=True)


def presence_of(players: Iterable[int], now: dt.datetime) -> dict[int, Presence]:
    """Each account's presence, by id, in one query however many."""
    ids = set(players)
    if not ids:
        return {}
    rows = Player.objects.filter(pk__in=ids).annotate(hidden=_hides())
    found = rows.values_list("pk", "activity__last_seen", "hidden")
    return {pk: _presence(last, hidden, now) for pk, last, hidden in found}


def _hides() -> Exists:
    """For a query of players: that the player hides its presence."""
    return Exists(SocialSettings.objects.filter(player=OuterRef("pk"), hide_presence=True))


def _presence(last: dt.datetime | None, hidden: bool, now: dt.datetime) -> Presence:
    if hidden:
        return HIDDEN
    return Presence(online=last is not None and now - last < ONLINE_WINDOW, last_seen=last)


@dataclass(frozen=True)
class Seen:
    """An account as another sees it: its presence, and whether the viewer follows or blocks it."""

    presence: Presence
    following: bool
    blocking: bool


def seen_by(shown: Player, viewer: Player | None, now: dt.datetime) -> Seen:
    """What a player page shows of ``shown`` to ``viewer`` (None: nobody logged in), one query."""
    rows = Player.objects.filter(pk=shown.pk).annotate(hidden=_hides())
    if viewer is not None and viewer.pk != shown.pk:
        rows = rows.annotate(
            following=followed_by(viewer, "pk"),
            blocking=Exists(Block.objects.filter(blocker=viewer, blocked=OuterRef("pk"))),
        )
        last, hidden, following, blocking = rows.values_list(
            "activity__last_seen", "hidden", "following", "blocking"
        ).get()
        return Seen(_presence(last, hidden, now), following, blocking)
    last, hidden = rows.values_list("activity__last_seen", "hidden").get()
    return Seen(_presence(last, hidden, now), False, False)


def hiding_presence(ids: Iterable[int]) -> set[int]:
    """Which of these accounts hide their presence (one query)."""
    wanted = list(ids)
    if not wanted:
        return set()
    rows = SocialSettings.objects.filter(player_id__in=wanted, hide_presence=True)
    return set(rows.values_list("player_id", flat=True))


def chat_muted_until(player: Player, now: dt.datetime) -> dt.datetime | None:
    """Until when staff muted the account's chat site-wide (None: not muted now)."""
    rows = SocialSettings.objects.filter(player=player, chat_muted_until__gt=now)
    return rows.values_list("chat_muted_until", flat=True).first()


def hides_presence(player: Player) -> bool:
    return SocialSettings.objects.filter(player=player, hide_presence=True).exists()


# -- head-to-head ------------------------------------------------------------------------


@dataclass(frozen=True)
class HeadToHead:
    """``viewer``'s record against another account in the finished matches the viewer may see."""

    won: int
    lost: int
    matches: int
    last_on: dt.datetime | None


def _seated(player: Player, seat: int) -> Q:
    return Q(**{f"table__seat{seat}": player})


def versus_matches(viewer: Player, other: Player) -> QuerySet[Match]:
    """The finished matches between the two, latest first: those of an invite-only table only
    for its two players (tables_shown_to: here the viewer is always one of them)."""
    pair = (_seated(viewer, 0) & _seated(other, 1)) | (_seated(viewer, 1) & _seated(other, 0))
    rows = Match.objects.filter(pair, status=Match.Status.OVER).filter(
        tables_shown_to(viewer, False, "table__")
    )
    rows = rows.select_related("table__seat0", "table__seat1").defer(*UNLISTED_MATCH_FIELDS)
    return rows.order_by("-ended_at", "-pk")


def head_to_head(viewer: Player, other: Player) -> HeadToHead:
    """The pair's record, kept as each of their matches ends (tables.records): one row by its key.
    The viewer is one of the two, so every match between them counts, invite-only ones too."""
    record = records.pair_record(viewer, other)
    if record is None:
        return HeadToHead(0, 0, 0, None)
    won, lost = records.wins_of(record, viewer)
    return HeadToHead(won, lost, record.matches, record.last_on)


def note_of(author: Player | None, match_id: int | None) -> MatchNote | None:
    """The author's own notes on a match (None for anyone else: notes are never read for others)."""
    if author is None or match_id is None:
        return None
    return MatchNote.objects.filter(author=author, match_id=match_id).first()
