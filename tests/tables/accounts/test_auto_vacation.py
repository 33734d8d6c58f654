"""Automatic vacation: an account that opted in, whose slow turn would time out, starts a day of
vacation instead while days are left, counted as one it declares; never at a live clock; the
opponent sees it and the player is told on the site, by push, by email and in the inbox."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core import mail
from django.db import transaction
from django.test import Client
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tables.accounts import services as account_services
from tables.accounts.models import Player, Vacation
from tables.accounts.vacation_days import ALLOWANCE_DAYS, days_of
from tables.alerts import notify, push
from tables.alerts.models import Activity, InboxItem
from tables.background import scheduling
from tables.core.announcements import Alerts, ChangeKind
from tables.play import services, tasks
from tables.play.models import Deal, Move, Table
from tests.tables.helpers import ApiClient, account_pair, started, to_play
from tests.tables.play.test_concurrency import _race, needs_row_locks

pytestmark = pytest.mark.django_db


def _deal(token: str) -> Deal:
    return Deal.objects.get(pk=Table.objects.get(invite_token=token).current_deal_id)


def _player(client: ApiClient) -> Player:
    return Player.objects.get(user=client.user)


def _today() -> dt.date:
    return timezone.now().astimezone(dt.UTC).date()  # the accounts' time zone is UTC


def _overdue_turn(alice, bob, *, opted_in: bool = True, **options) -> tuple[str, ApiClient, ApiClient, dict]:
    """A started table whose player to play has run out of time (opted in or not)."""
    token, players = started(alice, bob, **options)
    mover, waiting, state = to_play(token, players)
    mover.ok("patch", "/me/vacation", {"automatic": opted_in})
    Deal.objects.filter(pk=_deal(token).pk).update(deadline=timezone.now() - dt.timedelta(seconds=5))
    return token, mover, waiting, state


def _timeouts() -> int:
    return Move.objects.filter(source=Move.Source.TIMEOUT).count()


def test_opting_in_and_out_through_the_api(alice):
    assert alice.ok("get", "/me")["vacation"]["automatic"] is False
    assert alice.ok("patch", "/me/vacation", {"automatic": True})["vacation"]["automatic"] is True
    assert _player(alice).auto_vacation is True
    assert alice.ok("patch", "/me/vacation", {"automatic": False})["vacation"]["automatic"] is False
    assert alice.request("patch", "/me/vacation", {"automatic": "maybe"}).status_code in (400, 422)
    assert alice.request("patch", "/me/vacation", {}).status_code in (400, 422)


def test_a_guest_cannot_opt_in(alice):
    guest = ApiClient(Client(), name="Guesty")
    token = alice.ok("post", "/tables", {}, status=201)["table"]
    guest.ok("post", f"/tables/{token}/join", {"name": "Guesty"})
    response = guest.request("patch", "/me/vacation", {"automatic": True})
    assert response.status_code == 403 and "Solo las cuentas" in response.json()["detail"]


def test_a_slow_turn_that_runs_out_starts_a_vacation_day_the_opponent_sees(alice, bob):
    token, mover, waiting, state = _overdue_turn(alice, bob)
    seat = state["you"]["seat"]
    version = Table.objects.get(invite_token=token).version
    assert services.sweep_overdue() == 1
    assert _timeouts() == 0
    [vacation] = Vacation.objects.filter(player=_player(mover))
    assert vacation.first_day == vacation.last_day == _today()
    assert vacation.started_at_table == Table.objects.get(invite_token=token)
    deal = _deal(token)
    assert deal.deadline is None and deal.paused_left == 0
    seen = waiting.state(token)
    assert seen["version"] == version + 1  # one new version: the clock stopped
    profile = mover.ok("get", "/me")["vacation"]
    assert seen["seats"][seat]["vacation_until"] == profile["until"] is not None
    assert seen["seats"][1 - seat]["vacation_until"] is None
    assert profile["days_left"] == ALLOWANCE_DAYS - 1 and profile["last_day"] == _today().isoformat()
    assert services.sweep_overdue() == 0  # the clock stands still: nothing more to do


def test_without_opting_in_the_turn_times_out_as_always(alice, bob):
    _, mover, _, _ = _overdue_turn(alice, bob, opted_in=False)
    assert services.sweep_overdue() == 1 and _timeouts() > 0
    assert not Vacation.objects.filter(player=_player(mover)).exists()


def test_never_at_a_live_clock(alice, bob):
    _, mover, _, _ = _overdue_turn(alice, bob, turn_seconds=60)
    assert services.sweep_overdue() == 1 and _timeouts() > 0
    assert not Vacation.objects.filter(player=_player(mover)).exists()


def test_the_eta_task_starts_it_too_and_a_second_one_does_nothing(alice, bob):
    token, mover, _, _ = _overdue_turn(alice, bob)
    table, deal = Table.objects.get(invite_token=token), _deal(token)
    assert deal.deadline is not None
    tasks.expire_turn(deal.pk, table.version, deal.deadline.isoformat())
    tasks.expire_turn(deal.pk, table.version, deal.deadline.isoformat())  # a duplicate
    assert Vacation.objects.filter(player=_player(mover)).count() == 1 and _timeouts() == 0


@needs_row_locks
@pytest.mark.django_db(transaction=True)
def test_the_sweeper_and_the_eta_task_racing_start_it_exactly_once():
    for round_ in range(4):
        token, mover, _, _ = _overdue_turn(*account_pair(round_))
        table, deal = Table.objects.get(invite_token=token), _deal(token)
        assert deal.deadline is not None
        version, deadline = table.version, deal.deadline.isoformat()

        def act(index, deal_id=deal.pk, version=version, deadline=deadline):
            if index == 0:
                return services.sweep_overdue()
            return int(tasks.expire_turn(deal_id, version, deadline))

        assert sorted(_race(2, act)) == [0, 1]
        assert Vacation.objects.filter(player=_player(mover)).count() == 1 and _timeouts() == 0
        assert Table.objects.get(pk=table.pk).version == version + 1
        assert mover.ok("get", "/me")["vacation"]["days_left"] == ALLOWANCE_DAYS - 1


def _used_days(player: Player, offsets: set[int]) -> None:
    """Vacations already counted, one per day ``offsets`` days before today (after it if negative)."""
    today = _today()
    for offset in offsets:
        day = today - dt.timedelta(days=offset)
        end = dt.datetime.combine(day + dt.timedelta(days=1), dt.time(), tzinfo=dt.UTC)
        Vacation.objects.create(
            player=player, first_day=day, last_day=day, starts_at=end - dt.timedelta(hours=1), ends_at=end
        )


def test_with_no_days_left_the_turn_times_out(alice, bob):
    _, mover, _, _ = _overdue_turn(alice, bob)
    today = _today()
    first_days = (dt.date(today.year, 1, 1) + dt.timedelta(days=n) for n in range(ALLOWANCE_DAYS + 1))
    used = [day for day in first_days if day != today][:ALLOWANCE_DAYS]  # the year's days, all but today's
    _used_days(_player(mover), {(today - day).days for day in used})
    assert services.sweep_overdue() == 1 and _timeouts() > 0
    assert Vacation.objects.filter(player=_player(mover)).count() == ALLOWANCE_DAYS
    assert mover.ok("get", "/me")["vacation"]["days_left"] == 0


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sets(st.integers(min_value=0, max_value=40), max_size=ALLOWANCE_DAYS))  # no more than a year allows
def test_it_starts_exactly_when_the_day_fits_and_counts_as_a_declared_day(alice, bob, offsets):
    with transaction.atomic():
        today = _today()
        offsets = {n for n in offsets if (today - dt.timedelta(days=n)).year == today.year}
        token, mover, _, _ = _overdue_turn(alice, bob)
        player = _player(mover)
        _used_days(player, offsets)
        fits = 0 in offsets or len(offsets) < ALLOWANCE_DAYS
        assert services.sweep_overdue() == 1
        started_one = Vacation.objects.filter(player=player, started_at_table__invite_token=token).exists()
        assert started_one == fits and (_timeouts() == 0) == fits
        ranges = list(Vacation.objects.filter(player=player).values_list("first_day", "last_day"))
        counted = len(days_of(ranges, today.year))
        assert counted == len(offsets | ({0} if fits else set())) <= ALLOWANCE_DAYS
        transaction.set_rollback(True)


def test_the_player_is_told_on_the_site_by_push_by_email_and_in_the_inbox(alice, bob, monkeypatch, settings):
    settings.VAPID_PUBLIC_KEY, settings.VAPID_PRIVATE_KEY = "public", "private"
    pushed, site = [], []
    monkeypatch.setattr(push, "send_to_player", lambda player, payload, topic: pushed.append(payload))
    monkeypatch.setattr(scheduling, "send_push", lambda pid, payload, topic: pushed.append(payload))
    monkeypatch.setattr(notify.events, "publish_to_player", lambda pid, message: site.append(message))
    token, mover, _, _ = _overdue_turn(alice, bob)
    player = _player(mover)
    Activity.objects.create(player=player, last_seen=timezone.now() - dt.timedelta(hours=2))
    assert services.sweep_overdue() == 1
    table = Table.objects.select_related("seat0", "seat1", "current_deal__match").get(invite_token=token)
    [alert] = notify.alerts_for(table, Alerts.TURN)
    assert alert.kind == "auto_vacation" and alert.player == player
    mail.outbox.clear()
    notify.on_table_change(table, ChangeKind.VACATION)  # the follow-up of the vacation's change
    notify.on_table_change(table, ChangeKind.VACATION)  # again: once per vacation
    assert [message["kind"] for message in pushed] == ["auto_vacation"]
    assert [message["kind"] for message in site if message["type"] == "alert"] == ["auto_vacation"]
    [email] = mail.outbox
    assert email.to == [mover.user.email] and email.subject.startswith(
        "Vacaciones automáticas"
    )  # Spanish by default
    assert InboxItem.objects.filter(player=player, kind="auto_vacation").count() == 1


def test_the_profile_form_turns_it_on_and_off(alice):
    alice.ok("get", "/me")
    response = alice.client.post("/me/profile/", {"vacation": "automatic", "automatic": "on"})
    assert response.status_code == 302 and _player(alice).auto_vacation is True
    page = alice.client.get("/me/profile/").content.decode()
    assert 'id="auto-vacation-on" checked' in page and 'data-kind="auto_vacation"' in page
    assert "Las vacaciones automáticas están activadas." in page
    assert alice.client.post("/me/profile/", {"vacation": "automatic"}).status_code == 302  # unticked
    assert _player(alice).auto_vacation is False


def test_one_day_at_a_time_the_next_day_starts_when_the_first_is_over(alice, bob):
    token, mover, _, _ = _overdue_turn(alice, bob)
    player = _player(mover)
    assert services.sweep_overdue() == 1
    # The day it began is over: move it back to yesterday, as if the sweep came at midnight.
    today = _today()
    midnight = dt.datetime.combine(today, dt.time(), tzinfo=dt.UTC)
    yesterday = today - dt.timedelta(days=1)
    Vacation.objects.filter(player=player).update(
        first_day=yesterday, last_day=yesterday, starts_at=midnight - dt.timedelta(hours=3), ends_at=midnight
    )
    Player.objects.filter(pk=player.pk).update(
        vacation_started_at=midnight - dt.timedelta(hours=3), vacation_until=midnight
    )
    assert account_services.sweep_vacations() == 1
    deal = _deal(token)
    assert deal.deadline == midnight and deal.paused_left is None  # nothing was left: due at once
    assert services.sweep_overdue() == 1 and _timeouts() == 0  # the turn, still not played
    days = sorted(Vacation.objects.filter(player=player).values_list("first_day", "last_day"))
    assert days == [(yesterday, yesterday), (today, today)]
    counted_this_year = 2 if yesterday.year == today.year else 1  # on New Year's Day, one in each
    assert mover.ok("get", "/me")["vacation"]["days_left"] == ALLOWANCE_DAYS - counted_this_year
