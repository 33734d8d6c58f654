"""Whole events played through the services: every match played to its end by the robots'
choices, round 1 opened by its task after the start's commit and each match's end reaching its
tournament through the announcement after commit (the ``after_commit`` fixture, conftest.py)."""

from __future__ import annotations

import random

import pytest

from tables.play import engine
from tables.tournaments import services
from tables.tournaments.engine.standings import Result, standings
from tables.tournaments.models import Entry, Pairing, Tournament

from .helpers import accounts, open_tables, play_out

pytestmark = pytest.mark.django_db


def play_everything(tournament: Tournament, after_commit, rng: random.Random) -> int:
    played = 0
    while True:
        tables = open_tables(tournament.pk)
        if not tables:
            return played
        for table_id in tables:
            with after_commit():
                play_out(table_id, rng)
            played += 1


def recomputed(pairings: list[Pairing], players: list[int], seeds: dict[int, int], swiss: bool):
    results, byes = [], {}
    for p in pairings:
        if p.second_id is None:
            byes[p.first_id] = byes.get(p.first_id, 0) + 1
            continue
        match = p.table.matches.get(number=1)
        totals = engine.load_match(match).totals
        assert (p.first_points, p.second_points) == (totals[0], totals[1])
        winner = None if match.winner is None else (p.first_id, p.second_id)[match.winner]
        assert winner == p.winner_id
        results.append(Result(p.first_id, p.second_id, p.first_points, p.second_points, winner))
    return standings(players, results, seeds, byes, swiss=swiss)


def test_a_twelve_player_round_robin_groups_event_plays_to_its_winner(after_commit):
    creator, *others = accounts(12, "rr")
    tournament = services.create_tournament(
        creator,
        name="Groups",
        format="groups",
        max_players=12,
        group_size=4,
        advance_per_group=1,
        runners_up=1,
    )
    with after_commit():
        for player in [creator, *others]:
            services.join(tournament.pk, player)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.RUNNING
    first_round = Pairing.objects.filter(round__tournament=tournament, round__number=1)
    assert first_round.count() == 3 * 6  # three groups of four, every pair once
    assert {p.table.matches.get().first_dealer for p in first_round} == {0}  # the first deals first
    played = play_everything(tournament, after_commit, random.Random(12))
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED and tournament.winner is not None
    # round 2: the three group winners and the best runner-up, one group of four
    second = Pairing.objects.filter(round__tournament=tournament, round__number=2)
    assert second.count() == 6 and {p.group for p in second} == {1}
    assert played == 18 + 6
    entries = {e.pk: e for e in Entry.objects.filter(tournament=tournament)}
    seeds = {pk: e.seed for pk, e in entries.items()}
    members = sorted({p.first_id for p in second} | {p.second_id for p in second})
    final = recomputed(list(second.select_related("table")), members, seeds, swiss=False)
    assert final[0].player == entries[next(pk for pk, e in entries.items() if e.place == 1)].pk
    assert tournament.winner_id == entries[final[0].player].player_id
    assert sorted(e.place for e in entries.values()) == list(range(1, 13))


def test_a_nine_player_four_round_swiss_plays_to_its_winner(after_commit):
    players = accounts(9, "sw")
    tournament = services.create_tournament(
        players[0], name="Swiss", format="swiss", max_players=9, swiss_rounds=4
    )
    with after_commit():
        for player in players:
            services.join(tournament.pk, player)
    played = play_everything(tournament, after_commit, random.Random(9))
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED and played == 16
    pairings = list(Pairing.objects.filter(round__tournament=tournament).select_related("table", "round"))
    assert len({p.round.number for p in pairings}) == 4
    met = [frozenset((p.first_id, p.second_id)) for p in pairings if p.second_id]
    assert len(met) == len(set(met))  # nobody met twice
    byes = [p.first_id for p in pairings if p.second_id is None]
    assert len(byes) == 4 and len(set(byes)) == 4  # one bye a round, never twice to one player
    entries = {e.pk: e for e in Entry.objects.filter(tournament=tournament)}
    final = recomputed(pairings, list(entries), {pk: e.seed for pk, e in entries.items()}, swiss=True)
    assert [s.player for s in final] == sorted(entries, key=lambda pk: entries[pk].place)
    assert tournament.winner_id == entries[final[0].player].player_id
