"""Many finished rated matches, written in bulk: for the player pages' query-count tests and
their benchmark (bench/player_pages.py). Player 0 is a regular who sits in one match of five.
One table in twenty is invite-only: its matches count, but a stranger's page does not list them.

The deals are rows with their figures only (outcome, knocker, turns): no deck, no move log;
`unseed` removes them before the suite's replay check looks at every stored deal."""

from __future__ import annotations

import datetime as dt

from django.contrib.auth import get_user_model
from django.utils import timezone

from rules import RULESETS
from tables.accounts.models import Player
from tables.play.models import Deal, Match, Table
from tables.ratings import glicko2
from tables.ratings.models import Rating, RatingChange
from tables.records import services as records

OUTCOMES = ("knock", "gin", "undercut", "knock", "big_gin", "dead")
PREFIX = "seeded"


def seed(players: int = 1000, matches: int = 10_000) -> list[Player]:
    """``matches`` finished rated matches between ``players`` accounts; returns the players."""
    users = get_user_model().objects.bulk_create(
        get_user_model()(username=f"{PREFIX}{n}", email=f"{PREFIX}{n}@example.com", password="!")
        for n in range(players)
    )
    seated = Player.objects.bulk_create(Player(user=user, display_name=user.username) for user in users)
    ruleset = RULESETS["playgridia"].to_dict()
    now = timezone.now()
    pairs = [_pair(n, players) for n in range(matches)]
    tables = Table.objects.bulk_create(
        Table(
            owner=seated[a],
            seat0=seated[a],
            seat1=seated[b],
            invite_token=f"{PREFIX}{n}",
            ruleset_name="playgridia",
            ruleset=ruleset,
            rated=True,
            turn_seconds=86400 if n % 3 else 600,
            # Most in the open; one in twenty invite-only (a quarter of player 0's): named to its players only.
            visibility=Table.Visibility.INVITE if n % 20 == 5 else Table.Visibility.PUBLIC,
        )
        for n, (a, b) in enumerate(pairs)
    )
    finished = Match.objects.bulk_create(
        Match(
            table=table,
            number=1,
            ruleset=ruleset,
            first_dealer=0,
            record={},
            status=Match.Status.OVER,
            outcome=Match.Outcome.COMPLETED if n % 7 else Match.Outcome.RESIGNED,
            winner=n % 2,
            final_scores=[_score(n % 2 == 0, n), _score(n % 2 == 1, n)],
            timeouts_in_row=[0, 0],
            ended_at=now - dt.timedelta(minutes=n),
        )
        for n, table in enumerate(tables)
    )
    Deal.objects.bulk_create(_deal(match, n) for n, match in enumerate(finished))
    _ratings(seated, pairs, finished)
    records.rebuild()  # rows written in bulk: counted as the data migration counts them
    return seated


def _pair(n: int, players: int) -> tuple[int, int]:
    a = 0 if n % 5 == 0 else n % players
    b = (n * 7 + 1) % players
    return (a, b) if a != b else (a, (b + 1) % players)


def _score(won: bool, n: int) -> dict[str, int]:
    points = 100 + n % 50 if won else n % 40
    return {"deal_points": points, "game_bonus": 0, "deal_bonus": 0, "deals_won": int(won), "total": points}


def _deal(match: Match, n: int) -> Deal:
    outcome = OUTCOMES[n % len(OUTCOMES)]
    knocked = outcome != "dead"
    return Deal(
        match=match,
        number=1,
        ruleset=match.ruleset,
        dealer=0,
        deck="",
        snapshot={},
        phase="over",
        status=Deal.Status.OVER,
        outcome=outcome,
        winner=None if not knocked else match.winner,
        points=25 if knocked else 0,
        knocker=n % 2 if knocked else None,
        knocker_deadwood=n % 10 if outcome in ("knock", "undercut") else (0 if knocked else None),
        turns0=10 + n % 5,
        turns1=10 + n % 3,
        timeouts0=int(n % 11 == 0),
        timeouts1=int(n % 13 == 0),
        ended_at=match.ended_at,
    )


def _ratings(seated: list[Player], pairs: list[tuple[int, int]], finished: list[Match]) -> None:
    changes = []
    for (a, b), match in zip(pairs, finished, strict=True):
        pace = Table.pace_of(match.table.turn_seconds)
        for seat, player in enumerate((a, b)):
            won = match.winner == seat
            before = 1500.0 + (player % 300)
            changes.append(
                RatingChange(
                    match=match,
                    player=seated[player],
                    pace=pace,
                    score=1.0 if won else 0.0,
                    rating_before=before,
                    rating_after=before + (8 if won else -8),
                    deviation_before=80,
                    deviation_after=79,
                    volatility_before=0.06,
                    volatility_after=0.06,
                )
            )
    RatingChange.objects.bulk_create(changes, batch_size=2000)
    now = timezone.now()
    Rating.objects.bulk_create(
        Rating(
            player=player,
            pace=pace,
            rating=1200 + (n * 37) % 900,
            deviation=60 + n % 90,
            games=20,
            established_until=Rating.established_until_for(glicko2.Rating(deviation=60 + n % 90), now),
        )
        for n, player in enumerate(seated)
        for pace in ("slow", "live")
    )


def unseed() -> None:
    Deal.objects.filter(match__table__invite_token__startswith=PREFIX).delete()
