"""Races on PostgreSQL with real threads: joins into the last places, the sweeper's start
against the last join, round 1's task against its retries and the sweep, a round's last match
ending twice, a withdrawal against a pairing. What a commit hands to a task is recorded (the
``later`` fixture) and run by the test, racing what it races in production."""

from __future__ import annotations

import datetime as dt
import random

import pytest
from django.utils import timezone

import rules
from bots import BOTS
from bots.base import MatchContext
from tables.alerts.models import InboxItem
from tables.background import registry
from tables.core.errors import ServiceError
from tables.play import engine
from tables.play import services as play
from tables.play.models import Table
from tables.tournaments import services
from tables.tournaments.models import Entry, Pairing, Round, Tournament
from tables.tournaments.services.results import FIRST_ROUND_GRACE
from tables.tournaments.tasks import advance_tournament
from tests.tables.play.test_concurrency import _race, needs_row_locks

from .helpers import accounts, fill, play_out

pytestmark = [needs_row_locks, pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("later")]


def attempt(work):
    try:
        return work()
    except ServiceError as error:
        return error


def handed_over(later: list, tournament: Tournament) -> int:
    """How many times a commit handed the event's next step to its task (advance_tournament)."""
    return sum(task == registry.ADVANCE_TOURNAMENT and args == (tournament.pk,) for task, args, _ in later)


def test_thirty_joins_at_once_into_sixteen_places_seat_sixteen_and_start_once(later):
    players = accounts(30, "race")
    tournament = services.create_tournament(players[0], name="Race", max_players=16, swiss_rounds=3)
    outcomes = _race(30, lambda index: attempt(lambda: services.join(tournament.pk, players[index])))
    assert sum(isinstance(outcome, Entry) for outcome in outcomes) == 16
    assert Entry.objects.filter(tournament=tournament).count() == 16
    tournament.refresh_from_db()  # started by one join, round 1 handed to its task once
    assert tournament.status == Tournament.Status.RUNNING and tournament.round_number == 0
    assert not Round.objects.filter(tournament=tournament).exists() and handed_over(later, tournament) == 1
    assert advance_tournament(tournament.pk)
    assert Round.objects.filter(tournament=tournament).count() == 1
    assert Pairing.objects.filter(round__tournament=tournament).count() == 8


def test_the_sweepers_start_racing_the_last_join_starts_the_event_once(later):
    players = accounts(8, "start")
    date = timezone.now() + timezone.timedelta(hours=1)
    tournament = services.create_tournament(players[0], name="Dated", max_players=8, starts_at=date)
    for player in players[:7]:
        services.join(tournament.pk, player)
    work = [lambda: services.join(tournament.pk, players[7]), lambda: services.sweep_tournaments(date)]
    _race(2, lambda index: attempt(work[index]))
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.RUNNING and handed_over(later, tournament) == 1
    advance_tournament(tournament.pk)  # the task handed over (the sweep may have opened it first)
    services.sweep_tournaments(date)
    assert Round.objects.filter(tournament=tournament).count() == 1
    seated = [p for pairing in Pairing.objects.all() for p in (pairing.first_id, pairing.second_id) if p]
    assert len(seated) == len(set(seated)) == Entry.objects.filter(tournament=tournament).count()


def _to_last_move(table_id: int, rng: random.Random) -> tuple[Table, rules.Action]:
    """Play the table's single-deal match (TITO's choices) up to a move that ends it."""
    while True:
        table = Table.objects.select_related("seat0", "seat1", "current_deal__match").get(pk=table_id)
        state = engine.load_deal(table.current_deal)
        ending = [action for action in state.legal_actions() if state.apply(action)[0].is_over]
        if ending:
            return table, ending[0]
        seat = state.to_play
        action = BOTS["tito"]().choose(state.view(seat), rng, MatchContext(0, 0, state.ruleset.target))
        play.apply_move(table.pk, table.seats[seat], action, expected_version=table.version)


def test_round_1s_task_its_retries_and_the_sweep_at_once_open_it_once(later):
    players = accounts(8, "first")
    tournament = services.create_tournament(players[0], name="Eight", max_players=8, swiss_rounds=3)
    for player in players:
        services.join(tournament.pk, player)
    assert handed_over(later, tournament) == 1 and not Round.objects.filter(tournament=tournament).exists()
    after_grace = timezone.now() + FIRST_ROUND_GRACE + dt.timedelta(seconds=1)  # the task looks lost
    steps = [lambda: advance_tournament(tournament.pk)] * 3 + [
        lambda: services.sweep_tournaments(after_grace)
    ]
    outcomes = _race(4, lambda index: steps[index]())
    assert sum(int(outcome) for outcome in outcomes) == 1  # one of them took the step
    assert Round.objects.filter(tournament=tournament).count() == 1
    pairings = Pairing.objects.filter(round__tournament=tournament)
    assert pairings.count() == 4 and pairings.filter(table__isnull=False).count() == 4
    assert Table.objects.count() == 4 and InboxItem.objects.filter(kind="tournament_match").count() == 8
    tournament.refresh_from_db()
    assert tournament.round_number == 1


def test_a_withdrawal_racing_round_1s_opening_leaves_nobody_paired_with_the_withdrawn(later):
    players = accounts(4, "early")
    tournament = services.create_tournament(players[0], name="Early", max_players=4, swiss_rounds=2)
    for player in players:
        services.join(tournament.pk, player)
    work = [lambda: services.withdraw(tournament.pk, players[1]), lambda: advance_tournament(tournament.pk)]
    _race(2, lambda index: attempt(work[index]))
    withdrawn = Entry.objects.get(tournament=tournament, player=players[1])
    assert withdrawn.withdrawn_at is not None and Round.objects.filter(tournament=tournament).count() == 1
    still_on = Pairing.objects.filter(round__tournament=tournament, finished_at__isnull=True)
    assert not still_on.filter(first=withdrawn).exists() and not still_on.filter(second=withdrawn).exists()


def four_player_swiss(prefix: str) -> tuple[Tournament, list[Pairing]]:
    players = accounts(4, prefix)
    tournament = services.create_tournament(players[0], name="Four", max_players=4, swiss_rounds=2)
    fill(tournament.pk, players)
    return tournament, list(Pairing.objects.filter(round__tournament=tournament).order_by("pk"))


def test_the_last_match_of_a_round_ending_twice_pairs_the_next_round_once():
    tournament, (first, last) = four_player_swiss("twice")
    play_out(first.table_id, random.Random(1))
    table, ending = _to_last_move(last.table_id, random.Random(2))
    mover = table.seats[engine.load_deal(table.current_deal).to_play]

    def work(index: int):
        if index < 2:  # the move and its retry, with the same client move id
            return attempt(
                lambda: play.apply_move(
                    table.pk, mover, ending, expected_version=table.version, client_move_id="last"
                )
            )
        if index < 6:
            return services.record_match_end(last.table_id)
        return services.sweep_tournaments()

    _race(8, work)
    # the round is over: its task (a retry of it, the sweep) pairs the next one, racing
    steps = [lambda: services.advance(tournament.pk)] * 3 + [services.sweep_tournaments]
    _race(4, lambda index: steps[index]())
    assert Round.objects.filter(tournament=tournament).count() == 2
    assert Pairing.objects.filter(round__tournament=tournament, round__number=2).count() == 2


def test_a_withdrawal_racing_a_pairing_leaves_nobody_paired_with_the_withdrawn():
    tournament, (first, last) = four_player_swiss("leave")
    play_out(first.table_id, random.Random(3))
    table, ending = _to_last_move(last.table_id, random.Random(4))
    mover = table.seats[engine.load_deal(table.current_deal).to_play]
    leaver = first.second.player
    work = [
        lambda: play.apply_move(table.pk, mover, ending, expected_version=table.version),
        lambda: services.withdraw(tournament.pk, leaver),
        lambda: services.advance(tournament.pk),  # the pairing's task, early or in time
    ]
    _race(3, lambda index: attempt(work[index]))
    services.sweep_tournaments()  # the guarantee, had the task come too early
    withdrawn = Entry.objects.get(tournament=tournament, player=leaver)
    assert withdrawn.withdrawn_at is not None
    still_on = Pairing.objects.filter(round__tournament=tournament, finished_at__isnull=True)
    assert not still_on.filter(first=withdrawn).exists() and not still_on.filter(second=withdrawn).exists()
    assert Round.objects.filter(tournament=tournament).count() == 2
