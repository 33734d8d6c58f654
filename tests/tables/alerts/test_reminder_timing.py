"""When the "your turn" reminder of a slow turn comes (issue 56): a per-account setting
(``alert_prefs.reminder_at``), the server's default 80% of the turn, in the API and on the profile
page beside quiet hours, honoured by the sweep, which reads the deadline and the setting from the
database each time (a change holds from the next sweep; a turn is reminded once)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.conf import settings
from django.utils import timezone

from tables.accounts.models import Player, Vacation
from tables.accounts.vacation_days import ALLOWANCE_DAYS
from tables.alerts import notify, prefs
from tables.alerts.models import InboxItem
from tables.play.models import Deal, Table
from tests.tables.helpers import started

pytestmark = pytest.mark.django_db

DAY = 24 * 3600
DEADLINE = dt.datetime(2026, 12, 8, 12, 0, tzinfo=dt.UTC)


@pytest.mark.parametrize(
    ("reminder_at", "due"),
    [
        ("50%", DEADLINE - dt.timedelta(hours=12)),
        ("80%", DEADLINE - dt.timedelta(hours=4.8)),
        ("90%", DEADLINE - dt.timedelta(hours=2.4)),
        ("6h", DEADLINE - dt.timedelta(hours=6)),
        ("24h", None),  # as long as the turn: "your move" has just said it
        ("off", None),
    ],
)
def test_the_reminder_is_due_at_the_chosen_time_of_the_turn(reminder_at, due):
    chosen = prefs.of(Player(alert_prefs={"reminder_at": reminder_at}, time_zone="UTC"))
    assert chosen.reminder_due(DEADLINE, DAY) == due


def test_the_default_comes_from_the_server():
    assert prefs.clean({})["reminder_at"] == prefs.DEFAULT_REMINDER_AT == "80%"
    assert prefs.of(Player(alert_prefs={}, time_zone="UTC")).reminder_at == "80%"


def test_the_api_saves_and_returns_the_timing_and_refuses_anything_else(alice):
    assert alice.ok("get", "/me")["alert_prefs"]["reminder_at"] == "80%"
    for value, stored in (("90%", "90%"), ("6h", "6h"), ("168h", "168h"), ("off", "off")):
        answer = alice.ok("patch", "/me", {"alert_prefs": {"reminder_at": value}})
        assert answer["alert_prefs"]["reminder_at"] == stored
    for bad in ("95%", "0h", "169h", "6", 6, None, "h", "-1h"):
        refused = alice.request("patch", "/me", {"alert_prefs": {"reminder_at": bad}})
        assert refused.status_code == 400 and refused.json()["field"] == "reminder_at", bad
    assert alice.ok("get", "/me")["alert_prefs"]["reminder_at"] == "off"


def _slow_turn(alice, bob, reminder_at: str | None) -> tuple[Table, Player]:
    """A day-long turn; its player hears of a reminder on the site only (no push, no email)."""
    token, _ = started(alice, bob)
    table = Table.objects.get(invite_token=token)
    Table.objects.filter(pk=table.pk).update(turn_seconds=DAY)
    deal = Deal.objects.get(pk=table.current_deal_id)
    player = Player.objects.get(pk=(table.seat0_id, table.seat1_id)[deal.to_play])
    chosen: dict[str, object] = {"reminder": ["site"]}
    if reminder_at is not None:
        chosen["reminder_at"] = reminder_at
    Player.objects.filter(pk=player.pk).update(alert_prefs=chosen)
    return table, player


def _hours_left(table: Table, hours: float) -> None:
    deadline = timezone.now() + dt.timedelta(hours=hours)
    Deal.objects.filter(pk=table.current_deal_id).update(deadline=deadline)


def _reminded(player: Player) -> int:
    return InboxItem.objects.filter(player=player, kind="reminder").count()


@pytest.mark.parametrize(
    ("reminder_at", "not_yet", "due"),
    [
        (None, 5, 4),  # the default: 80% of 24 hours gone, 4.8 hours left
        ("50%", 12.5, 11.5),
        ("90%", 3, 2),
        ("6h", 6.5, 5.5),
    ],
)
def test_the_sweep_reminds_at_the_players_own_time(alice, bob, reminder_at, not_yet, due):
    table, player = _slow_turn(alice, bob, reminder_at)
    _hours_left(table, not_yet)
    assert notify.send_due_reminders() == 0
    _hours_left(table, due)
    assert notify.send_due_reminders() == 1 and _reminded(player) == 1
    assert notify.send_due_reminders() == 0  # once per turn


def test_off_never_reminds(alice, bob):
    table, player = _slow_turn(alice, bob, "off")
    _hours_left(table, 0.1)
    assert notify.send_due_reminders() == 0 and _reminded(player) == 0


def test_a_changed_setting_holds_from_the_next_sweep_and_a_turn_is_reminded_once(alice, bob):
    table, player = _slow_turn(alice, bob, None)
    _hours_left(table, 10)  # 58% of the turn gone: not yet at the default 80%
    assert notify.send_due_reminders() == 0
    Player.objects.filter(pk=player.pk).update(alert_prefs={"reminder": ["site"], "reminder_at": "50%"})
    assert notify.send_due_reminders() == 1  # the earlier time has passed: at once
    Player.objects.filter(pk=player.pk).update(alert_prefs={"reminder": ["site"], "reminder_at": "6h"})
    assert notify.send_due_reminders() == 0 and _reminded(player) == 1  # the same turn: once


def _post(client, **form) -> object:
    return client.client.post("/me/profile/", {"alerts": "reminder_at", **form})


def test_the_profile_page_sets_the_timing_beside_quiet_hours_and_keeps_the_rest(alice):
    alice.ok(
        "patch",
        "/me",
        {"alert_prefs": {"your_move": ["site"], "quiet_hours": {"start": "23:00", "end": "07:00"}}},
    )
    page = alice.client.get("/me/profile/").content.decode()
    assert page.index('id="quiet-hours"') < page.index('id="reminder-timing"')
    assert '<option value="80%" selected>' in page  # the server's default, not the page's
    assert f'value="{prefs.SUGGESTED_REMINDER_HOURS}"' in page
    response = _post(alice, reminder_at="hours", reminder_hours="9")
    assert response.status_code == 302 and response["Location"] == "/me/profile/"
    stored = Player.objects.get(user=alice.user).alert_prefs
    assert stored["reminder_at"] == "9h" and stored["your_move"] == ["site"]
    assert stored["quiet_hours"] == {"start": "23:00", "end": "07:00"}
    page = alice.client.get("/me/profile/").content.decode()
    assert '<option value="hours" selected>' in page and 'id="reminder-hours" name="reminder_hours"' in page
    assert 'value="9"' in page
    assert _post(alice, reminder_at="off").status_code == 302
    assert alice.ok("get", "/me")["alert_prefs"]["reminder_at"] == "off"


@pytest.mark.parametrize(
    ("language", "form", "message"),
    [
        ("en", {"reminder_at": "hours", "reminder_hours": "0"}, "a whole number from 1 to 168"),
        ("es", {"reminder_at": "hours", "reminder_hours": "x"}, "un número entero de 1 a 168"),
        ("en", {"reminder_at": "95%"}, "Choose when the reminder comes."),
        ("es", {"reminder_at": ""}, "Elige cuándo llega el recordatorio."),
    ],
)
def test_a_bad_choice_answers_400_in_the_page_language_and_changes_nothing(alice, language, form, message):
    alice.ok("get", "/me")
    alice.client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    before = Player.objects.get(user=alice.user).alert_prefs
    response = _post(alice, **form)
    assert response.status_code == 400 and message in response.content.decode()
    assert Player.objects.get(user=alice.user).alert_prefs == before


def test_the_choices_are_in_the_page_language(alice):
    alice.ok("get", "/me")
    alice.client.cookies[settings.LANGUAGE_COOKIE_NAME] = "es"
    page = alice.client.get("/me/profile/").content.decode()
    assert "Cuando haya pasado la mitad del tiempo del turno" in page and "GUARDAR RECORDATORIO" in page


@pytest.mark.parametrize(
    ("auto_vacation", "days_left", "says"),
    [
        (False, True, "If you do not move, the server plays for you."),
        (True, True, "If you do not move, a day of your vacation starts instead (automatic vacation)"),
        (True, False, "If you do not move, the server plays for you."),  # the year's days are used up
    ],
)
def test_the_reminder_says_what_happens_when_the_turn_runs_out(alice, bob, auto_vacation, days_left, says):
    table, player = _slow_turn(alice, bob, None)
    Player.objects.filter(pk=player.pk).update(auto_vacation=auto_vacation, language="en")
    _hours_left(table, 4)
    deadline_day = Deal.objects.get(pk=table.current_deal_id).deadline.date()
    if not days_left:  # every allowed day of the deadline's year, that one aside
        first = dt.date(deadline_day.year, 1, 1)
        first = (
            first
            if deadline_day >= first + dt.timedelta(days=ALLOWANCE_DAYS)
            else deadline_day + dt.timedelta(1)
        )
        last = first + dt.timedelta(days=ALLOWANCE_DAYS - 1)
        start = dt.datetime.combine(first, dt.time(), tzinfo=dt.UTC)
        Vacation.objects.create(
            player=player, first_day=first, last_day=last, starts_at=start, ends_at=start + dt.timedelta(1)
        )
    assert notify.send_due_reminders() == 1
    [line] = InboxItem.objects.filter(player=player, kind="reminder")
    assert line.body.startswith(says)
