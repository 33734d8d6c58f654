"""Reads of challenges and seeks: open seeks a player may take, open challenges, finding a player."""

from __future__ import annotations

from django.db.models import Q
from django.utils import timezone

from tables.accounts.models import Player
from tables.challenges.models import Challenge
from tables.play.models import Pace, Table
from tables.ratings import glicko2
from tables.ratings.models import Rating
from tables.social import selectors as social


def open_seeks(
    ruleset: str | None = None,
    pace: str | None = None,
    limit: int = 50,
    takeable_by: tuple[Player, dict[str, float]] | None = None,
    viewer: Player | None = None,
) -> list[Challenge]:
    """Seeks still open, newest first, filtered by rule set and pace (``slow`` or ``live``), and,
    with ``takeable_by`` (a player and their ratings by pace), to those that player may take.
    For an account ``viewer``: the seeks of the players it follows first, and none of those it
    blocks or that block it (tables.social)."""
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
    order = ["-created_at"]
    if viewer is not None and viewer.user_id is not None:
        rows = rows.filter(social.apart_from(viewer, "challenger"))
        rows = rows.annotate(followed=social.followed_by(viewer, "challenger"))
        order = ["-followed", *order]
    return list(rows.select_related("challenger").order_by(*order)[:limit])


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
