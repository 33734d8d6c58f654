"""A new round's matches are alerted to their players on the channels chosen for tournament
matches, with quiet hours, once per channel; robots are told nothing; the task after the round's
commit is the fast path and the sweep the guarantee. The push sender is mocked here (unit
tests; tests/tables/live/test_alerts_push.py sends real pushes)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core import mail
from django.utils import timezone

from tables.accounts.models import Player
from tables.alerts import notify
from tables.alerts.models import Activity, SentAlert, TablePresence
from tables.background import registry
from tables.tournaments import alerts, services
from tables.tournaments.models import Pairing, Round

from .helpers import accounts, fill

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("pushes", "later")]

KIND = "tournament_match"


def started_event(players: list[Player], **settings) -> Round:
    """A two-player Swiss event, started by the second join: its round 1 is on (the task after
    the start's commit, called here)."""
    event = services.create_tournament(
        players[0], **{"name": "Winter Cup", "max_players": 2, "swiss_rounds": 1, **settings}
    )
    fill(event.pk, players)
    for player in Player.objects.filter(pk__in=[p.pk for p in players]):
        Activity.objects.create(player=player, last_seen=timezone.now() - dt.timedelta(hours=2))
    return Round.objects.get(tournament=event, number=1)


def test_each_player_hears_of_the_new_match_on_every_channel_once(pushes, site):
    players = accounts(2, "cup")
    first_round = started_event(players)
    assert alerts.alert_round(first_round.pk) == 2
    told = {pid: message for pid, message in site}
    assert set(told) == {p.pk for p in players}
    table = Pairing.objects.get(round=first_round).table
    for player, opponent in zip(players, reversed(players), strict=True):
        assert told[player.pk]["kind"] == KIND and told[player.pk]["table"] == table.invite_token
        title = told[player.pk]["title"]  # in the player's language (Spanish by default)
        assert title.startswith("Winter Cup: ") and title.endswith(opponent.name)
    assert len(pushes) == 2 and len(mail.outbox) == 2
    assert {email.to[0] for email in mail.outbox} == {"cup0@example.com", "cup1@example.com"}
    first_round.refresh_from_db()
    assert first_round.alerted_at is not None
    site.clear()
    assert alerts.alert_round(first_round.pk) == 0  # a retry: every channel was claimed
    assert not site and len(pushes) == 2 and len(mail.outbox) == 2


def test_the_channels_follow_the_players_choice_for_tournament_matches(pushes, site):
    players = accounts(2, "pick")
    players[0].alert_prefs = {KIND: ["site"]}
    players[1].alert_prefs = {KIND: []}
    for player in players:
        player.save()
    first_round = started_event(players)
    alerts.alert_round(first_round.pk)
    assert [pid for pid, _ in site] == [players[0].pk] and not pushes and not mail.outbox


def test_a_robot_is_told_nothing(site):
    (creator,) = accounts(1, "solo")
    event = services.create_tournament(creator, name="With TITO", max_players=2, swiss_rounds=1)
    services.add_robot(event.pk, creator, "tito")
    fill(event.pk, [creator])
    assert alerts.alert_round(Round.objects.get(tournament=event).pk) == 1
    assert [pid for pid, _ in site] == [creator.pk]


def test_quiet_hours_put_push_and_email_off_while_the_match_is_news(pushes, site, later):
    players = accounts(2, "night")
    now = timezone.now().astimezone(dt.UTC)
    quiet = {
        "start": (now - dt.timedelta(hours=1)).strftime("%H:%M"),
        "end": (now + dt.timedelta(hours=1)).strftime("%H:%M"),
    }
    for player in players:
        player.alert_prefs, player.time_zone = {"quiet_hours": quiet}, "UTC"
        player.save()
    first_round = started_event(players)
    alerts.alert_round(first_round.pk)
    assert len(site) == 2 and not pushes and not mail.outbox
    put_off = [args for task, args, eta in later if task == registry.DELIVER_ALERT]
    assert len(put_off) == 2 and all(args[0] == KIND for args in put_off)
    sleeper, visitor = put_off
    # the second player came to the table meanwhile: no longer news to them
    TablePresence.objects.create(
        player_id=visitor[1], table_id=visitor[2], last_seen=timezone.now(), looked_at=timezone.now()
    )
    for player in Player.objects.filter(pk__in=[p.pk for p in players]):
        player.alert_prefs = {}
        player.save()
    assert notify.deliver_later(*sleeper) == {"push", "email"}
    assert notify.deliver_later(*visitor) == set()
    assert [email.to[0] for email in mail.outbox] == [Player.objects.get(pk=sleeper[1]).user.email]


def test_a_put_off_alert_is_dropped_once_the_match_is_over(pushes, site, later):
    players = accounts(2, "over")
    first_round = started_event(players)
    pairing = Pairing.objects.get(round=first_round)
    services.withdraw(first_round.tournament_id, players[1])  # the match is resigned
    assert notify.deliver_later(KIND, players[0].pk, pairing.table_id, f"pairing:{pairing.pk}") == set()


def test_the_round_is_handed_to_the_task_after_commit_and_the_sweep_is_the_guarantee(
    later, site, django_capture_on_commit_callbacks
):
    players = accounts(2, "sweep")
    with django_capture_on_commit_callbacks(execute=True):
        first_round = started_event(players)
    assert (registry.ADVANCE_TOURNAMENT, (first_round.tournament_id,), None) in later  # round 1's
    assert (registry.ALERT_TOURNAMENT_ROUND, (first_round.pk,), None) in later
    assert alerts.sweep_unalerted() == 0  # a minute for its task first
    a_minute_later = timezone.now() + dt.timedelta(seconds=alerts.SWEEP_AFTER_SECONDS + 1)
    assert alerts.sweep_unalerted(a_minute_later) == 2  # the task was lost
    assert alerts.sweep_unalerted(a_minute_later) == 0
    assert SentAlert.objects.filter(kind=KIND, channel="email").count() == 2
