"""Players for tournament tests, events filled and started, and matches played to their end by
the robots' own choices through the play services (the announcement of each match's end runs as
after a commit)."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from contextlib import AbstractContextManager, nullcontext

from django.contrib.auth import get_user_model

import rules
from bots import BOTS
from bots.base import MatchContext
from tables.accounts.models import Player
from tables.play import engine, services
from tables.play.models import Match, Move, Table
from tables.tournaments import services as tournaments
from tables.tournaments.models import Pairing


def accounts(count: int, prefix: str = "p") -> list[Player]:
    users = get_user_model().objects.bulk_create(
        get_user_model()(username=f"{prefix}{n}", email=f"{prefix}{n}@example.com", password="!")
        for n in range(count)
    )
    return list(Player.objects.bulk_create(Player(user=user, display_name=user.username) for user in users))


def fill(tournament_id: int, players: Iterable[Player]) -> None:
    """Every player joins: the last join starts the event, and round 1 is opened by the task its
    commit hands over (services.advance), called here since a test's transaction never commits."""
    for player in players:
        tournaments.join(tournament_id, player)
    assert tournaments.advance(tournament_id)


def play_out(
    table_id: int,
    rng: random.Random,
    resign_seat: int | None = None,
    around: Callable[[], AbstractContextManager[object]] = nullcontext,
) -> Match:
    """Play the table's match to its end, each seat's move chosen by a robot (TITO); each write
    runs inside ``around()`` (a test's "as after commit", say)."""
    while True:
        table = Table.objects.select_related("seat0", "seat1", "current_deal__match").get(pk=table_id)
        deal = table.current_deal
        assert deal is not None
        if deal.match.status == Match.Status.OVER:
            return deal.match
        state = engine.load_deal(deal)
        with around():
            _play_one(table, state, rng, resign_seat)


def _play_one(table: Table, state: rules.Deal, rng: random.Random, resign_seat: int | None) -> None:
    if state.is_over:
        dealer = next((p for p in table.seats if p is not None and not p.is_bot), table.seat0)
        services.next_deal(table.pk, dealer, expected_version=table.version)
        return
    seat = state.to_play
    player = table.seats[seat]
    assert player is not None
    if resign_seat == seat:
        services.resign(table.pk, player)
        return
    totals = engine.load_match(table.current_deal.match).totals
    context = MatchContext(totals[seat], totals[1 - seat], state.ruleset.target)
    action = BOTS["tito"]().choose(state.view(seat), rng, context)
    source = Move.Source.BOT if player.is_bot else Move.Source.PLAYER
    services.apply_move(table.pk, player, action, expected_version=table.version, source=source)


def open_tables(tournament_id: int) -> list[int]:
    rows = Pairing.objects.filter(
        round__tournament_id=tournament_id, finished_at__isnull=True, table__isnull=False
    )
    return list(rows.order_by("pk").values_list("table_id", flat=True))
