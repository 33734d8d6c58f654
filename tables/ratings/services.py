"""Glicko-2 ratings: moved once per finished match of a rated table, inside the transaction
that ends the match (tables.play.services.matches.end_match, the one place a match ends).

Exactly once: the table row is locked and the match is still playing when end_match runs, so
only one writer ever reaches here for a match; the unique (match, player) rating change is the
guard behind that. Both players' rating rows are locked in one order (by player), since one player
may finish matches at two tables at the same moment.
"""

from __future__ import annotations

import datetime as dt

from django.db.models import QuerySet
from django.utils import timezone
from django.utils.translation import gettext

from tables.accounts.models import Player
from tables.core.errors import BotAccountUnrated
from tables.play.models import Match, Move, Table
from tables.ratings import glicko2
from tables.ratings.models import Rating, RatingChange


def rate_match(match: Match) -> list[RatingChange]:
    """The rating changes of a match that just ended (none for an unrated or aborted one)."""
    table = Table.objects.only("rated", "turn_seconds", "seat0_id", "seat1_id").get(pk=match.table_id)
    if not table.rated or table.seat0_id is None or table.seat1_id is None:
        return []
    if aborted(match):
        return []
    pace = Table.pace_of(table.turn_seconds)
    players = (table.seat0_id, table.seat1_id)
    ratings = _locked_ratings(players, pace)
    now = timezone.now()
    # Read under the lock, each deviation grown for the days its player was away (step 6).
    before = {key: row.as_of(now) for key, row in ratings.items()}
    changes = []
    for seat, player_id in enumerate(players):
        score = _score(match.winner, seat)
        opponent = before[players[1 - seat]]
        after = glicko2.rate(before[player_id], [(opponent, score)])
        changes.append(_apply(ratings[player_id], before[player_id], after, match, score, now))
    return RatingChange.objects.bulk_create(changes)


def aborted(match: Match) -> bool:
    """An aborted match does not count: one side never made a move of its own in it (only the
    server's moves on timeout, or none at all)."""
    movers = set(
        Move.objects.filter(deal__match=match, source=Move.Source.PLAYER).values_list("seat", flat=True)
    )
    return movers != {0, 1}


def _score(winner: int | None, seat: int) -> float:
    """Resign and forfeit count as losses: the engine names the other seat the winner."""
    if winner is None:
        return 0.5
    return 1.0 if winner == seat else 0.0


def _locked_ratings(players: tuple[int, int], pace: str) -> dict[int, Rating]:
    """Both rows, created if new, locked in player order (as every other match end locks them)."""
    Rating.objects.bulk_create(
        [Rating(player_id=player_id, pace=pace) for player_id in sorted(players)], ignore_conflicts=True
    )
    rows: QuerySet[Rating] = (
        Rating.objects.select_for_update().filter(player_id__in=players, pace=pace).order_by("player_id")
    )
    return {row.player_id: row for row in rows}


def _apply(
    row: Rating, before: glicko2.Rating, after: glicko2.Rating, match: Match, score: float, now: dt.datetime
) -> RatingChange:
    row.settle(after, now)
    row.games += 1
    row.updated_at = now
    # An update, not save(): auto_now would stamp a later instant than established_until counts from.
    Rating.objects.filter(pk=row.pk).update(
        rating=row.rating,
        deviation=row.deviation,
        volatility=row.volatility,
        games=row.games,
        updated_at=now,
        established_until=row.established_until,
    )
    return RatingChange(
        match=match,
        player_id=row.player_id,
        pace=row.pace,
        score=score,
        rating_before=before.rating,
        rating_after=after.rating,
        deviation_before=before.deviation,
        deviation_after=after.deviation,
        volatility_before=before.volatility,
        volatility_after=after.volatility,
    )


def may_sit_at(table: Table, player: Player) -> bool:
    """Only accounts sit at a rated table: guests and robots are unrated."""
    return not table.rated or (player.user_id is not None and not player.is_bot)


def require_rated_seat(player: Player, rated: bool) -> None:
    """A bot account is refused any rated seat (a table, a challenge, a seek, a rematch): it plays
    unrated games only. Raises BotAccountUnrated."""
    if rated and player.is_bot_account:
        raise BotAccountUnrated(
            gettext("%(name)s is a bot account: bot accounts play unrated games only.")
            % {"name": player.name}
        )
