"""The inbox line "your vacation ends soon": written by the periodic sweep once the vacation's
end (its ``vacation_until``, in the database) is a day away, exactly once per end, in the player's
language; again for a vacation moved to a later day, never for one ended or too short."""

from __future__ import annotations

import datetime as dt
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.db import connection
from django.utils import timezone

from tables.accounts import alerts as vacation_alerts
from tables.accounts import services as account_services
from tables.accounts import tasks as account_tasks
from tables.accounts import vacation_days
from tables.accounts.identity import player_for_user
from tables.accounts.models import Player
from tables.alerts.models import InboxItem
from tables.background import registry
from tests.tables.helpers import make_account_client

pytestmark = pytest.mark.django_db


def _account(email: str, language: str = "es") -> Player:
    player = player_for_user(make_account_client(email).user)
    Player.objects.filter(pk=player.pk).update(language=language)
    return Player.objects.get(pk=player.pk)


def _away(player: Player, days: int) -> dt.datetime:
    """On vacation until ``days`` after today (the player's day); when it ends."""
    today = vacation_days.local_day(timezone.now(), player.time_zone)
    until = account_services.declare_vacation(player, today + dt.timedelta(days=days)).vacation_until
    assert until is not None
    return until


def _lines(player: Player) -> list[InboxItem]:
    return list(InboxItem.objects.filter(player=player, kind="vacation_ending").order_by("pk"))


def test_one_line_a_day_before_the_end_however_often_the_sweep_runs():
    ana = _account("ana-away@example.com")
    until = _away(ana, 3)
    assert vacation_alerts.remind_vacations() == 0 and not _lines(ana)  # days to go
    assert vacation_alerts.remind_vacations(until - dt.timedelta(hours=25)) == 0
    soon = until - dt.timedelta(hours=23)
    assert vacation_alerts.remind_vacations(soon) == 1
    assert vacation_alerts.remind_vacations(soon) == 0
    assert vacation_alerts.remind_vacations(soon + dt.timedelta(hours=22)) == 0
    [line] = _lines(ana)
    assert line.title == "Tus vacaciones terminan pronto" and line.path == "/me/profile/"
    assert line.body.startswith("Su último día es el ") and "relojes lentos" in line.body
    assert vacation_alerts.remind_vacations(until + dt.timedelta(minutes=1)) == 0  # over: none


def test_in_english_for_an_english_speaker_and_again_for_a_later_end():
    ben = _account("ben-away@example.com", "en")
    until = _away(ben, 2)
    assert vacation_alerts.remind_vacations(until - dt.timedelta(hours=2)) == 1
    later = _away(ben, 5)  # moved to a later day: its new end is reminded too
    assert later > until
    assert vacation_alerts.remind_vacations(until - dt.timedelta(hours=2)) == 0
    assert vacation_alerts.remind_vacations(later - dt.timedelta(hours=2)) == 1
    first, second = _lines(ben)
    assert first.title == second.title == "Your vacation ends soon"
    assert second.body.startswith("Its last day is ") and "slow clocks run again" in second.body


def test_none_for_a_vacation_ended_early_or_declared_with_less_than_a_day_to_go():
    ana = _account("ana-back@example.com")
    until = _away(ana, 3)
    account_services.end_vacation(ana)
    assert vacation_alerts.remind_vacations(until - dt.timedelta(hours=2)) == 0
    Player.objects.filter(pk=ana.pk).update(
        vacation_started_at=timezone.now(), vacation_until=timezone.now() + dt.timedelta(hours=5)
    )
    assert vacation_alerts.remind_vacations() == 0 and not _lines(ana)


def test_the_periodic_sweep_is_registered_and_runs_the_reminders(monkeypatch):
    assert registry.REMIND_VACATIONS in registry.PERIODIC
    ana = _account("ana-sweep@example.com")
    until = _away(ana, 3)
    monkeypatch.setattr(timezone, "now", lambda: until - dt.timedelta(hours=1))
    assert account_tasks.remind_vacations() == 1 and len(_lines(ana)) == 1


@pytest.mark.skipif(
    connection.vendor == "sqlite",
    reason="SQLite takes one writer at a time; .ci/run runs this on PostgreSQL",
)
@pytest.mark.django_db(transaction=True)
def test_two_sweeps_at_once_write_one_line():
    ana = _account("ana-twice@example.com")
    soon = _away(ana, 3) - dt.timedelta(hours=1)
    barrier = threading.Barrier(4)

    def sweep(_: int) -> int:
        barrier.wait()
        try:
            return vacation_alerts.remind_vacations(soon)
        finally:
            connection.close()

    with ThreadPoolExecutor(max_workers=4) as pool:
        assert sum(pool.map(sweep, range(4))) == 1
    assert len(_lines(ana)) == 1
