"""The reads behind a player's page and the leaderboard: a handful of queries each, none of them
an aggregate over the player's matches, however many they finished (the totals and the list of
finished matches are kept as each match ends, tables.records)."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import BooleanField, Case, OuterRef, QuerySet, Subquery, Value, When
from django.utils import timezone

from tables.accounts.models import Player
from tables.play.models import Match, Pace
from tables.ratings.models import Rating, RatingChange
from tables.records import selectors as records
from tables.records.models import PlayerRecord

HISTORY_POINTS = 200  # the most recent rated matches the chart draws, per pace
# What a list of matches never reads: the move record (every deal of the match) and the rules.
UNLISTED_MATCH_FIELDS = ("record", "ruleset", "timeouts_in_row", "table__ruleset")


@dataclass(frozen=True)
class Statistics:
    matches: int = 0
    wins: int = 0
    deals: int = 0  # deals played to their end
    gins: int = 0
    knocks: int = 0
    undercuts: int = 0  # of those knocks, the ones the opponent undercut
    knock_deadwood: int = 0
    turns: int = 0
    timeouts: int = 0
    # Of the finished matches, those a given visitor may see listed (the page's count); not a
    # statistic: left out of comparisons.
    listed: int = field(default=0, compare=False)

    @property
    def gin_rate(self) -> float | None:
        return _ratio(self.gins, self.deals)

    @property
    def undercut_rate(self) -> float | None:
        return _ratio(self.undercuts, self.knocks)

    @property
    def average_knock_deadwood(self) -> float | None:
        return None if not self.knocks else self.knock_deadwood / self.knocks

    @property
    def timeouts_per_100_turns(self) -> float | None:
        return None if not self.turns else 100 * self.timeouts / self.turns


def _ratio(part: int, whole: int) -> float | None:
    return None if not whole else part / whole


def account_player(player_id: int) -> Player | None:
    """An account's player; guests and robots have no page."""
    rows = Player.objects.filter(pk=player_id, user__isnull=False, is_bot=False)
    return rows.select_related("record").first()  # the statistics come with it


def statistics(player: Player, viewer: Player | None = None, staff: bool = False) -> Statistics:
    """The player's totals, kept as each match ends (tables.records), with ``listed``: how many
    of the finished matches ``viewer`` may see (the count of records.finished_match_keys). No aggregate over
    the matches: the statistics' query over the heavy player's 2,000 matches cost 11 ms on
    PostgreSQL and as much again in Python to build it; the record is one row, read with the
    player (account_player), and the pair's record for another account's count."""
    record = records.record_of(player)
    return Statistics(
        matches=record.matches,
        wins=record.wins,
        deals=record.deals,
        gins=record.gins,
        knocks=record.knocks,
        undercuts=record.undercuts,
        knock_deadwood=record.knock_deadwood,
        turns=record.turns,
        timeouts=record.timeouts,
        listed=_listed(record, player, viewer, staff),
    )


def _listed(record: PlayerRecord, player: Player, viewer: Player | None, staff: bool) -> int:
    """The archive's rule (tables_shown_to) counted from the records: an invite-only table's
    matches are named to its two players and staff only."""
    if staff or (viewer is not None and viewer.pk == player.pk):
        return record.matches
    pair = records.pair_record(player, viewer) if viewer is not None else None
    return record.public_matches + (pair.invite_matches if pair is not None else 0)


def ratings_of(player: Player) -> dict[str, Rating]:
    return {rating.pace: rating for rating in Rating.objects.filter(player=player)}


def rating_history(player: Player, pace: str) -> list[float]:
    """The ratings after the latest rated matches at ``pace``, oldest first."""
    latest = RatingChange.objects.filter(player=player, pace=pace).order_by("-created_at", "-pk")
    return list(reversed(latest.values_list("rating_after", flat=True)[:HISTORY_POINTS]))


# What a row of a player's list reads of its match: the match's result, its table's rules, and of each seat
# its name and marks (not its preferences: a player's alert settings are JSON to parse, forty
# times a page).
SEAT_FIELDS = ("display_name", "user", "is_bot", "deleted_at", "bot_account_at")
LISTED_MATCH_FIELDS = (
    *("table", "outcome", "winner", "final_scores", "ended_at"),
    *("table__ruleset_name", "table__rated", "table__seat0", "table__seat1"),
    *(f"table__{seat}__{name}" for seat in ("seat0", "seat1") for name in SEAT_FIELDS),
)


def matches_by_key(player: Player, keys: list[int]) -> list[Match]:
    """Those matches in that order, with both seats (for the opponent) and ``player``'s rating
    change on each (``rating_before`` and ``rating_after``, None where none), in one query. The
    keys come first from the player's list (one index range): joining the matches there would
    join and annotate every row an OFFSET skips (23 ms at page 50 on the benchmark's data)."""
    change = RatingChange.objects.filter(match=OuterRef("pk"), player=player)
    rows = (
        Match.objects.filter(pk__in=keys)
        .select_related("table__seat0", "table__seat1")
        .only(*LISTED_MATCH_FIELDS)
        .annotate(
            rating_before=Subquery(change.values("rating_before")[:1]),
            rating_after=Subquery(change.values("rating_after")[:1]),
        )
    )
    found = {match.pk: match for match in rows}
    return [found[key] for key in keys if key in found]


def leaderboard(pace: str) -> QuerySet[Rating]:
    """The ratings at ``pace``: the established ones ranked best first, then the provisional ones
    (fewer games, or a deviation grown past 110 while their player was away), best first too.
    Each row's ``established`` says which."""
    established = Case(
        When(established_until__gt=timezone.now(), then=Value(True)),
        default=Value(False),
        output_field=BooleanField(),
    )
    return (
        Rating.objects.filter(pace=pace, player__deleted_at__isnull=True)
        .annotate(established=established)
        .select_related("player")
        .order_by("-established", "-rating", "pk")
    )


PACES = tuple(Pace)
