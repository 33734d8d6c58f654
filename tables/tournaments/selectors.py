"""Reads of tournaments: the entry rules a player meets or not (and why), entries and results."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass

from django.db.models import Count, Q
from django.utils.translation import gettext

from tables.accounts.models import Player
from tables.play.models import Match, Table
from tables.ratings.models import Rating, RatingChange
from tables.tournaments.engine.standings import Result
from tables.tournaments.models import Entry, Pairing, Tournament

TIMEOUT_WINDOW = dt.timedelta(days=90)  # Chess.com's window for its timeout-rate entry rule
DEFAULT_RATING = 1500.0  # Glicko-2's start: a player without a rating at the pace


@dataclass(frozen=True)
class RuleCheck:
    """One entry rule: its name, whether the player meets it, and in words why not."""

    rule: str
    met: bool
    reason: str


def rating_at(player: Player, pace: str) -> float:
    row = Rating.objects.filter(player=player, pace=pace).values_list("rating", flat=True).first()
    return DEFAULT_RATING if row is None else row


def ratings_at(player_ids: list[int], pace: str) -> dict[int, float]:
    """Each of the players' rating at the pace, in one query (DEFAULT_RATING for those without)."""
    rows = dict(Rating.objects.filter(player_id__in=player_ids, pace=pace).values_list("player_id", "rating"))
    return {pk: rows.get(pk, DEFAULT_RATING) for pk in player_ids}


def timeout_percent(player: Player, now: dt.datetime) -> float:
    """Of the player's matches that ended in the last 90 days, the share lost on time."""
    seated = Q(table__seat0=player) | Q(table__seat1=player)
    ended = Match.objects.filter(seated, status=Match.Status.OVER, ended_at__gte=now - TIMEOUT_WINDOW)
    rows = list(ended.values_list("table__seat0_id", "winner", "decided_by_timeout"))
    if not rows:
        return 0.0
    lost_on_time = sum(
        1 for seat0, winner, timed_out in rows if timed_out and winner != (0 if seat0 == player.pk else 1)
    )
    return 100.0 * lost_on_time / len(rows)


def entry_rules(tournament: Tournament, player: Player | None, now: dt.datetime) -> list[RuleCheck]:
    """Every entry rule of the tournament, checked for ``player`` (None: a visitor, who meets none)."""
    checks: list[RuleCheck] = []
    account = player is not None and player.user_id is not None and not player.is_bot
    if tournament.accounts_only or tournament.rated:
        checks.append(
            RuleCheck(
                "account", account, "" if account else gettext("Only accounts can join: sign up or log in.")
            )
        )
    if tournament.rated and player is not None and player.is_bot_account:
        checks.append(RuleCheck("unrated_bot", False, gettext("Bot accounts play unrated events only.")))
    if tournament.min_rating is not None or tournament.max_rating is not None:
        checks.append(_rating_range(tournament, player))
    if tournament.min_rated_matches:
        played = (
            0 if player is None else RatingChange.objects.filter(player=player, pace=tournament.pace).count()
        )
        met = played >= tournament.min_rated_matches
        reason = gettext("You need %(needed)s finished rated matches at this pace; you have %(played)s.") % {
            "needed": tournament.min_rated_matches,
            "played": played,
        }
        checks.append(RuleCheck("rated_matches", met, "" if met else reason))
    if tournament.max_timeout_percent is not None:
        share = 0.0 if player is None else timeout_percent(player, now)
        met = player is not None and share <= tournament.max_timeout_percent
        reason = gettext(
            "You lost %(share).0f%% of your matches of the last 90 days on time; at most %(most)s%% may."
        ) % {
            "share": share,
            "most": tournament.max_timeout_percent,
        }
        checks.append(RuleCheck("timeouts", met, "" if met else reason))
    return checks


def _rating_range(tournament: Tournament, player: Player | None) -> RuleCheck:
    rating = DEFAULT_RATING if player is None else rating_at(player, tournament.pace)
    low_ok = tournament.min_rating is None or rating >= tournament.min_rating
    high_ok = tournament.max_rating is None or rating <= tournament.max_rating
    met = player is not None and low_ok and high_ok
    reason = gettext("Your rating at this pace is %(rating).0f; this event is for %(low)s to %(high)s.") % {
        "rating": rating,
        "low": tournament.min_rating if tournament.min_rating is not None else "…",
        "high": tournament.max_rating if tournament.max_rating is not None else "…",
    }
    return RuleCheck("rating", met, "" if met else reason)


def version_by_token(token: str) -> tuple[int, int] | None:
    """(primary key, version) of the event with this invite token, or None."""
    return Tournament.objects.filter(invite_token=token).values_list("pk", "version").first()


def active_entries(tournament: Tournament) -> list[Entry]:
    return list(
        tournament.entries.filter(withdrawn_at__isnull=True).select_related("player").order_by("seed", "pk")
    )


def round_pairings(tournament: Tournament, number: int) -> list[Pairing]:
    return list(
        Pairing.objects.filter(round__tournament=tournament, round__number=number).order_by("group", "pk")
    )


def all_pairings(tournament: Tournament) -> list[Pairing]:
    rows = Pairing.objects.filter(round__tournament=tournament).select_related("round", "table")
    return list(rows.order_by("round__number", "group", "pk"))


def result_of(pairing: Pairing) -> Result | None:
    """A finished match as the standings read it; None for a bye or a match still on."""
    if pairing.finished_at is None or pairing.second_id is None:
        return None
    return Result(
        pairing.first_id, pairing.second_id, pairing.first_points, pairing.second_points, pairing.winner_id
    )


LIST_SIZE = 50


def listed(status: str, filters: Mapping[str, str]) -> list[Tournament]:
    """Listed (public) tournaments of a status (registering, running, finished), newest first,
    filtered by rule set, pace and rated."""
    if status not in ("registering", "running", "finished"):
        status = "registering"
    rows = Tournament.objects.filter(status=status, visibility=Tournament.Visibility.PUBLIC)
    if filters.get("ruleset"):
        rows = rows.filter(ruleset_name=filters["ruleset"])
    if filters.get("pace") == "slow":
        rows = rows.filter(turn_seconds__gte=Table.SLOW_CLOCK_SECONDS)
    elif filters.get("pace") == "live":
        rows = rows.filter(turn_seconds__lt=Table.SLOW_CLOCK_SECONDS)
    if filters.get("rated") in ("true", "false"):
        rows = rows.filter(rated=filters["rated"] == "true")
    rows = rows.select_related("winner").annotate(
        players=Count("entries", filter=Q(entries__withdrawn_at__isnull=True))
    )
    return list(rows.order_by("-created_at")[:LIST_SIZE])


def seeds_of(tournament: Tournament) -> dict[int, int]:
    """Each entry's seed (fixed at the start; 0 before it)."""
    return {pk: seed or 0 for pk, seed in tournament.entries.values_list("pk", "seed")}


def joinable(rows: list[Tournament], player: Player | None, now: dt.datetime) -> list[Tournament]:
    """The registering tournaments whose every entry rule ``player`` meets, with a place left."""
    return [
        row
        for row in rows
        if row.status == Tournament.Status.REGISTERING
        and getattr(row, "players", 0) < row.max_players
        and all(check.met for check in entry_rules(row, player, now))
        and (player is None or not row.entries.filter(player=player).exists())
    ]


def events_of(player: Player, viewer: Player | None) -> list[Entry]:
    """The player's entries in tournaments under way or over, latest first, in one query: the
    listed ones, and the invite-only ones to the player only."""
    rows = Entry.objects.filter(player=player).exclude(tournament__status=Tournament.Status.CANCELLED)
    if viewer is None or viewer.pk != player.pk:
        rows = rows.filter(tournament__visibility=Tournament.Visibility.PUBLIC)
    return list(rows.select_related("tournament").order_by("-tournament__created_at"))
