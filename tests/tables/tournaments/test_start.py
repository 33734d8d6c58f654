"""The start and round 1, two steps: the join that takes the last place (or the start-date
sweep) starts the event in its own short transaction, whatever its size, and opens no table;
its commit hands round 1 to the task (advance_tournament), which opens it once however often it
runs; the sweep opens it when that task was lost. A player who leaves in between is not paired."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from tables.alerts.models import InboxItem
from tables.background import registry
from tables.play.models import Table
from tables.tournaments import services
from tables.tournaments.models import Entry, Pairing, Round, Tournament
from tables.tournaments.services.results import FIRST_ROUND_GRACE
from tables.tournaments.tasks import advance_tournament

from .helpers import accounts

pytestmark = pytest.mark.django_db


def full_but_one(size: int, prefix: str, **settings) -> tuple[Tournament, list]:
    """An event of ``size`` places with all but the last taken, and the player who takes it."""
    players = accounts(size, prefix)
    event = services.create_tournament(
        players[0], **{"name": "Cup", "max_players": size, "swiss_rounds": 2, **settings}
    )
    for player in players[:-1]:
        services.join(event.pk, player)
    return event, players


def started(size: int, prefix: str, **settings) -> Tournament:
    event, players = full_but_one(size, prefix, **settings)
    services.join(event.pk, players[-1])
    return event


def test_the_last_join_starts_the_event_and_leaves_round_1_to_the_task_after_its_commit(
    django_capture_on_commit_callbacks, later
):
    costs = []
    for size, prefix in ((4, "small"), (16, "big")):
        event, players = full_but_one(size, prefix)
        with (
            django_capture_on_commit_callbacks() as after_commit,
            CaptureQueriesContext(connection) as queries,
        ):
            services.join(event.pk, players[-1])
        costs.append(len(queries))
    assert costs[0] == costs[1] < 20  # the same few queries for 4 players or 16: no table, no pairing
    event.refresh_from_db()
    assert event.status == Tournament.Status.RUNNING and event.round_number == 0
    assert event.started_at is not None
    seeds = Entry.objects.filter(tournament=event).values_list("seed", flat=True)
    assert sorted(seeds) == list(range(1, 17))  # fixed at the start
    assert not Round.objects.exists() and not Table.objects.exists()
    assert not InboxItem.objects.filter(kind="tournament_match").exists()
    for callback in after_commit:  # the join's commit: the version told, round 1 handed over
        callback()
    assert (registry.ADVANCE_TOURNAMENT, (event.pk,), None) in later
    assert not Round.objects.exists()  # handed over, not opened in the commit's hook
    version = Tournament.objects.get(pk=event.pk).version
    assert advance_tournament(event.pk)  # the task
    event.refresh_from_db()
    assert event.round_number == 1 and event.version > version
    pairings = Pairing.objects.filter(round__tournament=event)
    assert pairings.count() == 8 and pairings.filter(table__isnull=False).count() == 8


def test_the_task_opens_round_1_once_however_often_it_runs():
    event = started(4, "twice")
    assert advance_tournament(event.pk)
    assert not advance_tournament(event.pk)  # a retry, or the task sent twice
    later = timezone.now() + FIRST_ROUND_GRACE + dt.timedelta(seconds=1)
    assert services.sweep_tournaments(later) == 0  # nothing left for the sweep
    assert Round.objects.filter(tournament=event).count() == 1
    assert Pairing.objects.filter(round__tournament=event).count() == 2 and Table.objects.count() == 2
    assert InboxItem.objects.filter(kind="tournament_match").count() == 4


def test_the_sweep_opens_round_1_when_its_task_was_lost():
    event = started(4, "lost")  # a test's transaction never commits: no task was sent
    assert services.sweep_tournaments() == 0  # the task has its grace first
    later = timezone.now() + FIRST_ROUND_GRACE + dt.timedelta(seconds=1)
    assert services.sweep_tournaments(later) == 1
    assert services.sweep_tournaments(later) == 0
    assert Pairing.objects.filter(round__tournament=event, table__isnull=False).count() == 2
    assert not advance_tournament(event.pk)  # the task, come late, finds nothing to do


def test_a_player_who_leaves_before_round_1_is_opened_is_not_paired():
    event = started(3, "gone")
    leaver = Entry.objects.get(tournament=event, seed=1)
    services.withdraw(event.pk, leaver.player)
    assert advance_tournament(event.pk)
    (pairing,) = Pairing.objects.filter(round__tournament=event)  # two left: one match, no bye
    assert leaver.pk not in (pairing.first_id, pairing.second_id) and pairing.table_id is not None


def test_an_event_left_with_one_player_before_round_1_ends_with_every_place():
    event = started(3, "alone", format="groups", group_size=3)
    entries = list(Entry.objects.filter(tournament=event).select_related("player").order_by("seed"))
    for entry in entries[:2]:
        services.withdraw(event.pk, entry.player)
    assert advance_tournament(event.pk)  # nobody to pair: the end
    event.refresh_from_db()
    assert event.status == Tournament.Status.FINISHED and event.winner_id == entries[2].player_id
    places = dict(Entry.objects.filter(tournament=event).values_list("pk", "place"))
    assert [places[entry.pk] for entry in entries] == [2, 3, 1]  # the withdrawn after, by seed
    assert not Round.objects.filter(tournament=event).exists()
    assert InboxItem.objects.filter(kind="tournament_over").count() == 3
