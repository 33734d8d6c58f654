"""The reads behind a player's page and the leaderboard: a handful of aggregate queries each,
however many matches a player has finished (the figures per deal are columns written as the
deal is played, so nothing is replayed here)."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import BooleanField, Case, Count, Q, QuerySet, Sum, Value, When
from django.utils import timezone

from rules import scoring
from tables.accounts.models import Player
from tables.archive import selectors as archive
from tables.play.models import Deal, Match, Pace, Table
from tables.ratings.models import Rating, RatingChange

HISTORY_POINTS = 200  # the most recent rated matches the chart draws, per pace
KNOCKS = (scoring.KNOCK, scoring.UNDERCUT)  # knocked with deadwood (a gin has none to average)
GINS = (scoring.GIN, scoring.BIG_GIN)
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
    return Player.objects.filter(pk=player_id, user__isnull=False, is_bot=False).first()


def _at_seat(player: Player, prefix: str, *seat_fields: str) -> Q:
    """Rows where ``player`` sits at seat 0 or 1 (``prefix`` leads to the table) and each of
    ``seat_fields`` (winner, knocker) names that same seat."""
    either = Q()
    for seat in (0, 1):
        either |= Q(**{f"{prefix}seat{seat}": player}, **dict.fromkeys(seat_fields, seat))
    return either


def _tables_of(player: Player) -> QuerySet[Table, int]:
    """The player's tables, as a subquery: the indexes on both seats lead to them, then the
    index on the table key to their matches (not a scan of every match)."""
    return Table.objects.filter(Q(seat0=player) | Q(seat1=player)).values_list("pk", flat=True)


def statistics(player: Player, viewer: Player | None = None, staff: bool = False) -> Statistics:
    """One aggregate query over the player's deals, joined to their matches and tables once;
    ``listed``: how many of the finished matches ``viewer`` may see (finished_match_keys'
    count), from the same pass.
    The matches are counted from their deals: a match is created with its first deal in the
    same transaction (`services.matches.begin_match`), so none is missed. One pass over the
    deals costs half what a pass over the matches and another over the deals did (EXPLAIN
    on PostgreSQL with 10,000 matches: the heavy player's two queries 28 ms, this one 14)."""
    mine = "match__table__"
    over = Q(match__status=Match.Status.OVER)
    knocked = Q(outcome__in=KNOCKS) & _at_seat(player, mine, "knocker")
    deals = Deal.objects.filter(Q(**{f"{mine}seat0": player}) | Q(**{f"{mine}seat1": player})).aggregate(
        matches=Count("match", distinct=True, filter=over),
        listed=Count("match", distinct=True, filter=over & archive.tables_shown_to(viewer, staff, mine)),
        wins=Count("match", distinct=True, filter=over & _at_seat(player, mine, "match__winner")),
        deals=Count("pk", filter=Q(status=Deal.Status.OVER)),
        gins=Count("pk", filter=Q(outcome__in=GINS) & _at_seat(player, mine, "winner")),
        knocks=Count("pk", filter=knocked),
        undercuts=Count("pk", filter=knocked & Q(outcome=scoring.UNDERCUT)),
        knock_deadwood=Sum("knocker_deadwood", filter=knocked),
        turns0=Sum("turns0", filter=Q(**{f"{mine}seat0": player})),
        turns1=Sum("turns1", filter=Q(**{f"{mine}seat1": player})),
        timeouts0=Sum("timeouts0", filter=Q(**{f"{mine}seat0": player})),
        timeouts1=Sum("timeouts1", filter=Q(**{f"{mine}seat1": player})),
    )
    return Statistics(
        matches=deals["matches"],
        wins=deals["wins"],
        deals=deals["deals"],
        gins=deals["gins"],
        knocks=deals["knocks"],
        undercuts=deals["undercuts"],
        knock_deadwood=deals["knock_deadwood"] or 0,
        turns=(deals["turns0"] or 0) + (deals["turns1"] or 0),
        timeouts=(deals["timeouts0"] or 0) + (deals["timeouts1"] or 0),
        listed=deals["listed"],
    )


def ratings_of(player: Player) -> dict[str, Rating]:
    return {rating.pace: rating for rating in Rating.objects.filter(player=player)}


def rating_history(player: Player, pace: str) -> list[float]:
    """The ratings after the latest rated matches at ``pace``, oldest first."""
    latest = RatingChange.objects.filter(player=player, pace=pace).order_by("-created_at", "-pk")
    return list(reversed(latest.values_list("rating_after", flat=True)[:HISTORY_POINTS]))


def finished_match_keys(player: Player, viewer: Player | None, staff: bool) -> QuerySet[Match, int]:
    """The keys of the player's finished matches that ``viewer`` may see (the archive's rule: an
    invite-only table's are for its players and staff), newest first: a page is cut from these
    narrow rows, and only its matches are then read whole (`matches_by_key`)."""
    tables = _tables_of(player).filter(archive.tables_shown_to(viewer, staff))
    return (
        Match.objects.filter(table__in=tables, status=Match.Status.OVER)
        .order_by("-ended_at", "-pk")
        .values_list("pk", flat=True)
    )


def matches_by_key(keys: list[int]) -> list[Match]:
    """Those matches in that order, with both seats (for the opponent)."""
    rows = (
        Match.objects.filter(pk__in=keys)
        .select_related("table__seat0", "table__seat1")
        .defer(*UNLISTED_MATCH_FIELDS)
    )
    found = {match.pk: match for match in rows}
    return [found[key] for key in keys if key in found]


def rating_changes_for(player: Player, match_ids: list[int]) -> dict[int, RatingChange]:
    changes = RatingChange.objects.filter(player=player, match_id__in=match_ids)
    return {change.match_id: change for change in changes}


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
