"""The tournament writers one call at a time: settings, entry rules and their reasons,
registration, cancelling, the sweeper's start, withdrawals and the match-end hook's cost. Round
1 follows the start in its task (services.advance, the ``after_commit`` fixture or ``fill``;
test_start.py tests that hand-over)."""

from __future__ import annotations

import datetime as dt
import random

import pytest
from django.utils import timezone

from tables.accounts.models import Player
from tables.accounts.services.vacation import declare_vacation
from tables.alerts.models import InboxItem
from tables.background import registry
from tables.core.errors import BadRequest, Conflict, Forbidden
from tables.play.models import Match, Table
from tables.ratings.models import Rating, RatingChange
from tables.social.models import Block
from tables.tournaments import services
from tables.tournaments.models import Entry, Pairing, Round, Tournament
from tables.tournaments.tasks import sweep_tournaments as sweep_task

from .helpers import accounts, fill, play_out

pytestmark = pytest.mark.django_db


def swiss(creator: Player, **settings) -> Tournament:
    return services.create_tournament(
        creator, **{"name": "Weekly", "max_players": 4, "swiss_rounds": 2, **settings}
    )


@pytest.mark.parametrize(
    ("chosen", "field"),
    [
        ({"name": ""}, "name"),
        ({"format": "knockout"}, "format"),
        ({"max_players": 1}, "max_players"),
        ({"format": "groups", "group_size": 11}, "group_size"),
        ({"format": "groups", "group_size": 4, "advance_per_group": 4}, "advance_per_group"),
        ({"turn_seconds": 7}, "turn_seconds"),
        ({"ruleset": "nonsense"}, "ruleset"),
        ({"min_rating": 1800, "max_rating": 1200}, "min_rating"),
        ({"starts_at": dt.datetime(2000, 1, 1, tzinfo=dt.UTC)}, "starts_at"),
        ({"colour": "red"}, "colour"),
    ],
)
def test_bad_settings_are_refused_with_their_field(chosen, field):
    (creator,) = accounts(1)
    with pytest.raises(BadRequest) as refused:
        swiss(creator, **chosen)
    assert refused.value.field == field
    assert not Tournament.objects.exists()


def test_a_guest_cannot_create_and_an_account_only_event_refuses_a_guest():
    (creator,) = accounts(1)
    guest = Player.objects.create(display_name="Guest", guest_key="g-1")
    with pytest.raises(Forbidden):
        swiss(guest)
    tournament = swiss(creator)
    with pytest.raises(Forbidden) as refused:
        services.join(tournament.pk, guest)
    assert refused.value.extra["rule"] == "account"


def test_each_unmet_entry_rule_says_why():
    creator, low, new = accounts(3)
    Rating.objects.create(player=low, pace="slow", rating=1200)
    tournament = swiss(creator, min_rating=1400, min_rated_matches=0, max_timeout_percent=10)
    with pytest.raises(Forbidden) as refused:
        services.join(tournament.pk, low)
    assert refused.value.extra["rule"] == "rating" and "1200" in refused.value.message
    strict = swiss(creator, min_rated_matches=5)
    with pytest.raises(Forbidden) as refused:
        services.join(strict.pk, new)
    assert refused.value.extra["rule"] == "rated_matches" and "5" in refused.value.message
    assert not Entry.objects.exists()


def test_the_timeout_rate_counts_matches_lost_on_time_in_the_last_ninety_days():
    creator, flaky, other = accounts(3)
    for index in range(4):
        table = Table.objects.create(
            owner=flaky, seat0=flaky, seat1=other, ruleset_name="classic", ruleset={}
        )
        Match.objects.create(
            table=table,
            number=1,
            ruleset={},
            first_dealer=0,
            record={},
            status=Match.Status.OVER,
            winner=1,
            decided_by_timeout=index < 2,
            ended_at=timezone.now(),
        )
    tournament = swiss(creator, max_timeout_percent=25)
    with pytest.raises(Forbidden) as refused:
        services.join(tournament.pk, flaky)
    assert refused.value.extra["rule"] == "timeouts" and "50" in refused.value.message
    services.join(tournament.pk, other)  # won those four: no timeout of its own


def test_the_join_that_fills_the_event_starts_it_and_its_task_puts_every_match_on(after_commit):
    players = accounts(4)
    tournament = swiss(players[0])
    for player in players[:3]:
        services.join(tournament.pk, player)
    with after_commit():
        services.join(tournament.pk, players[3])
        tournament.refresh_from_db()  # the join's own transaction: started, round 1 not yet
        assert tournament.status == Tournament.Status.RUNNING and tournament.round_number == 0
        assert not Round.objects.exists() and not Table.objects.exists()
    tournament.refresh_from_db()  # after its commit: the task opened round 1
    assert tournament.status == Tournament.Status.RUNNING and tournament.round_number == 1
    pairings = list(Pairing.objects.filter(round__tournament=tournament).select_related("table"))
    assert len(pairings) == 2
    for pairing in pairings:
        table = pairing.table
        assert table.seat0_id == pairing.first.player_id and table.seat1_id == pairing.second.player_id
        assert table.current_deal is not None and table.matches.get().first_dealer == 0
    assert InboxItem.objects.filter(kind="tournament_match").count() == 4
    with pytest.raises(Conflict):
        services.join(tournament.pk, accounts(1, "late")[0])


def test_withdrawing_before_the_start_frees_the_place_and_cancel_is_the_organisers():
    creator, player, stranger = accounts(3)
    tournament = swiss(creator)
    services.join(tournament.pk, player)
    services.withdraw(tournament.pk, player)
    assert not Entry.objects.exists()
    services.join(tournament.pk, player)
    with pytest.raises(Forbidden):
        services.cancel(tournament.pk, stranger)
    services.cancel(tournament.pk, creator)
    assert Tournament.objects.get().status == Tournament.Status.CANCELLED
    assert InboxItem.objects.filter(kind="tournament_cancelled", player=player).exists()
    with pytest.raises(Conflict):
        services.join(tournament.pk, stranger)


def test_the_sweeper_starts_a_scheduled_event_once_and_calls_off_one_too_small(after_commit):
    creator, a, b = accounts(3)
    later = timezone.now() + dt.timedelta(hours=1)
    ready = swiss(creator, starts_at=later, max_players=8)
    alone = swiss(creator, starts_at=later, max_players=8)
    for player in (a, b, creator):
        services.join(ready.pk, player)
    services.join(alone.pk, a)
    assert services.sweep_tournaments(timezone.now()) == 0  # not yet
    with after_commit():  # round 1 is the task's, after the start's commit
        assert services.sweep_tournaments(later) == 2
        assert not Round.objects.exists()
    assert services.sweep_tournaments(later) == 0
    ready.refresh_from_db()
    alone.refresh_from_db()
    assert ready.status == Tournament.Status.RUNNING and alone.status == Tournament.Status.CANCELLED
    assert Pairing.objects.filter(round__tournament=ready).count() == 2  # a match and a bye


def test_a_match_end_seen_twice_counts_once_and_pairs_the_next_round_once():
    players = accounts(4)
    tournament = swiss(players[0])
    fill(tournament.pk, players)
    tables = list(Pairing.objects.filter(round__number=1).values_list("table_id", flat=True))
    for table_id in tables:
        play_out(table_id, random.Random(table_id))
        assert services.record_match_end(table_id)
        assert not services.record_match_end(table_id)
    assert Round.objects.get(number=1).ended_at is not None  # over: its next step is due
    assert services.advance(tournament.pk)  # the task after the commit
    assert not services.advance(tournament.pk)  # a retry of it
    assert services.sweep_tournaments() == 0
    assert Pairing.objects.filter(round__number=2).count() == 2


def test_the_sweeper_takes_the_next_step_of_a_round_whose_task_was_lost():
    players = accounts(4)
    tournament = swiss(players[0])
    fill(tournament.pk, players)
    for table_id in Pairing.objects.filter(round__number=1).values_list("table_id", flat=True):
        play_out(table_id, random.Random(table_id))
        services.record_match_end(table_id)  # no commit here: no task was sent
    assert services.sweep_tournaments() == 1
    assert services.sweep_tournaments() == 0
    assert Pairing.objects.filter(round__number=2).count() == 2


def test_the_sweeper_records_a_result_whose_announcement_was_lost():
    players = accounts(2)
    tournament = swiss(players[0], max_players=2, swiss_rounds=1)
    fill(tournament.pk, players)
    pairing = Pairing.objects.get()
    play_out(pairing.table_id, random.Random(1))  # no commit here: nothing was announced
    assert services.sweep_tournaments() == 2  # the result, then the end of the event
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED and tournament.winner_id is not None
    assert InboxItem.objects.filter(kind="tournament_over").count() == 2


def test_a_withdrawal_during_the_event_forfeits_the_match_still_on():
    players = accounts(4)
    tournament = swiss(players[0])
    fill(tournament.pk, players)
    done, still_on = Pairing.objects.filter(round__number=1).order_by("pk")
    play_out(done.table_id, random.Random(3))
    services.record_match_end(done.table_id)
    leaver = still_on.second
    services.withdraw(tournament.pk, leaver.player)
    services.advance(tournament.pk)  # the task after the round ended
    still_on.refresh_from_db()
    assert still_on.forfeited and still_on.winner_id == still_on.first_id
    assert Match.objects.get(table_id=still_on.table_id).outcome == Match.Outcome.RESIGNED
    second_round = Pairing.objects.filter(round__number=2)
    assert second_round.count() == 2  # three players left: a match and a bye
    assert not second_round.filter(first=leaver).exists() and not second_round.filter(second=leaver).exists()


def test_the_hook_costs_one_query_for_a_match_outside_any_tournament(django_assert_num_queries):
    with django_assert_num_queries(1):
        assert not services.record_match_end(123456)


def test_robots_fill_unrated_events_only():
    creator, other = accounts(2)
    tournament = swiss(creator, max_players=3)
    services.add_robot(tournament.pk, creator, "tito")
    with pytest.raises(Conflict):
        services.add_robot(tournament.pk, creator, "tito")
    with pytest.raises(Forbidden):
        services.add_robot(tournament.pk, other, "luna")
    rated = swiss(creator, rated=True)
    with pytest.raises(Forbidden):
        services.add_robot(rated.pk, creator, "carmen")
    with pytest.raises(BadRequest):
        services.add_robot(tournament.pk, creator, "robocop")


def test_the_periodic_sweep_is_registered_and_runs_the_start():
    assert registry.SWEEP_TOURNAMENTS in registry.PERIODIC
    creator, other = accounts(2)
    tournament = swiss(creator, starts_at=timezone.now() + dt.timedelta(seconds=1), max_players=8)
    services.join(tournament.pk, other)
    services.join(tournament.pk, creator)
    Tournament.objects.filter(pk=tournament.pk).update(starts_at=timezone.now() - dt.timedelta(seconds=1))
    assert sweep_task() == 1
    assert Tournament.objects.get(pk=tournament.pk).status == Tournament.Status.RUNNING


def test_an_account_cannot_join_an_event_with_one_it_blocks_or_that_blocks_it():
    creator, blocker, blocked = accounts(3)
    Block.objects.create(blocker=blocker, blocked=blocked)
    tournament = swiss(creator)
    services.join(tournament.pk, blocked)
    with pytest.raises(Forbidden):
        services.join(tournament.pk, blocker)
    assert Entry.objects.count() == 1


def test_a_rated_event_rates_each_match_at_the_clocks_pace():
    players = accounts(2, "rated")
    tournament = swiss(players[0], rated=True, max_players=2, swiss_rounds=1, turn_seconds=86400)
    fill(tournament.pk, players)
    pairing = Pairing.objects.get()
    assert pairing.table.rated
    play_out(pairing.table_id, random.Random(21))
    services.record_match_end(pairing.table_id)
    assert set(RatingChange.objects.values_list("pace", flat=True)) == {"slow"}
    assert RatingChange.objects.count() == 2


@pytest.mark.parametrize("allowed", [True, False])
def test_a_no_vacation_events_clocks_run_on_through_a_vacation(allowed):
    players = accounts(2, f"away{allowed}")
    tournament = swiss(players[0], max_players=2, swiss_rounds=1, vacation_allowed=allowed)
    fill(tournament.pk, players)
    table = Pairing.objects.get().table
    assert table.vacation_stops_clock is allowed
    on_turn = table.seats[table.current_deal.to_play]
    declare_vacation(on_turn, timezone.localdate() + dt.timedelta(days=2))
    deal = Table.objects.get(pk=table.pk).current_deal
    assert (deal.deadline is None) is allowed  # stopped for the vacation, or still running


def test_a_tournament_table_offers_no_rematch_and_a_refused_offer_changes_nothing():
    from tables.play import services as play

    players = accounts(2, "again")
    tournament = swiss(players[0], max_players=2, swiss_rounds=1)
    fill(tournament.pk, players)
    table = Pairing.objects.get().table
    assert table.rematches is False
    play_out(table.pk, random.Random(5), resign_seat=0)
    before = Table.objects.get(pk=table.pk)
    for player in players:
        with pytest.raises(Conflict):
            play.offer_rematch(table.pk, player)
    after = Table.objects.get(pk=table.pk)
    assert (after.version, after.rematch_offered_by) == (before.version, None)
    assert not InboxItem.objects.filter(kind="rematch_offer").exists()


def test_a_block_made_after_both_entered_does_not_stop_their_pairing(after_commit):
    creator, first, second = accounts(3, "late-block")
    tournament = swiss(
        creator, starts_at=timezone.now() + dt.timedelta(seconds=1), max_players=8, swiss_rounds=1
    )
    for player in (first, second):
        services.join(tournament.pk, player)
    Block.objects.create(blocker=first, blocked=second)
    Tournament.objects.filter(pk=tournament.pk).update(starts_at=timezone.now() - dt.timedelta(seconds=1))
    with after_commit():  # the start, then its round 1 in the task after its commit
        assert sweep_task() == 1
    pairing = Pairing.objects.get(round__tournament=tournament)
    assert pairing.table is not None
    assert {pairing.table.seat0_id, pairing.table.seat1_id} == {first.pk, second.pk}
    assert Match.objects.get(table=pairing.table).status == Match.Status.PLAYING


def test_a_deleted_account_leaves_its_events_waiting_and_running():
    from tables.accounts.services.deletion import delete_account

    creator, leaver, second, third = accounts(4, "leaving")
    waiting = swiss(creator, max_players=8)
    services.join(waiting.pk, leaver)
    running = swiss(creator, max_players=3, swiss_rounds=2)
    fill(running.pk, (leaver, second, third))
    assert Match.objects.filter(status=Match.Status.PLAYING).count() == 1  # and a bye
    assert Tournament.objects.get(pk=running.pk).status == Tournament.Status.RUNNING
    delete_account(leaver.user)
    assert not Entry.objects.filter(tournament=waiting, player=leaver).exists()
    entry = Entry.objects.get(tournament=running, player=leaver)
    assert entry.withdrawn_at is not None or entry.tournament.status == Tournament.Status.FINISHED
    on = Match.objects.filter(status=Match.Status.PLAYING)
    assert not on.filter(table__seat0=leaver).exists() and not on.filter(table__seat1=leaver).exists()
    assert (
        not Pairing.objects.filter(finished_at__isnull=True, table__isnull=True).filter(first=entry).exists()
    )
