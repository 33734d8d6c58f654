"""The profile's quiet hours form: saved from the page, checked on the server with a clear 400
in the page's language, its times from the server; and a "your move" push, through the real
push path to the fake push service, held until the quiet hours set there end."""

from __future__ import annotations

import datetime as dt

import pytest
from django.conf import settings
from django.test import Client

from tables.accounts.models import Player
from tables.alerts import notify, prefs
from tables.alerts.models import Activity
from tables.background import registry, scheduling
from tables.core.announcements import Alerts
from tables.play.models import Table
from tests.tables.helpers import started
from tests.tables.live.test_alerts_push import _subscribe, service, vapid  # noqa: F401  (fixtures)

pytestmark = pytest.mark.django_db


def _player(client) -> Player:
    return Player.objects.get(user=client.user)


def _post(client, **form) -> object:
    return client.client.post("/me/profile/", {"alerts": "quiet_hours", **form})


def test_quiet_hours_are_saved_from_the_profile_and_the_rest_is_kept(alice):
    alice.ok("patch", "/me", {"alert_prefs": {"your_move": ["site"], "digest": True}})
    response = _post(alice, quiet_on="on", quiet_start="23:15", quiet_end="07:30")
    assert response.status_code == 302 and response["Location"] == "/me/profile/"
    stored = _player(alice).alert_prefs
    assert stored["quiet_hours"] == {"start": "23:15", "end": "07:30"}
    assert stored["your_move"] == ["site"] and stored["digest"] is True  # untouched
    assert alice.ok("get", "/me")["alert_prefs"]["quiet_hours"] == {"start": "23:15", "end": "07:30"}
    page = alice.client.get("/me/profile/").content.decode()
    assert 'id="quiet-on" checked' in page and 'value="23:15"' in page and 'value="07:30"' in page
    assert _post(alice, quiet_start="23:15", quiet_end="07:30").status_code == 302  # the box unticked
    assert _player(alice).alert_prefs["quiet_hours"] is None


def test_the_page_offers_the_servers_times_and_names_the_time_zone(alice):
    alice.ok("patch", "/me", {"time_zone": "America/Bogota"})
    page = alice.client.get("/me/profile/").content.decode()
    suggested = prefs.SUGGESTED_QUIET_HOURS
    assert f'value="{suggested["start"]}"' in page and f'value="{suggested["end"]}"' in page
    assert 'id="quiet-on" checked' not in page and "America/Bogota" in page


@pytest.mark.parametrize(
    ("language", "start", "end", "message"),
    [
        ("en", "25:00", "07:00", "Give the quiet hours as times such as 22:30."),
        ("es", "", "07:00", "Indica las horas de silencio como horas del tipo 22:30."),
        ("en", "08:00", "08:00", "Quiet hours must start and end at different times."),
        ("es", "08:00", "08:00", "Las horas de silencio deben empezar y acabar a horas distintas."),
    ],
)
def test_bad_times_answer_400_with_the_reason_in_the_page_language(alice, language, start, end, message):
    alice.ok("get", "/me")  # the account's player exists from now on
    alice.client.cookies[settings.LANGUAGE_COOKIE_NAME] = language  # the language the page is in
    before = _player(alice).alert_prefs
    response = _post(alice, quiet_on="on", quiet_start=start, quiet_end=end)
    assert response.status_code == 400 and message in response.content.decode()
    assert _player(alice).alert_prefs == before


def test_a_guest_page_without_a_player_is_sent_to_open_a_table():
    assert Client().post("/me/profile/", {"alerts": "quiet_hours", "quiet_on": "on"}).status_code == 302


@pytest.fixture
def held(monkeypatch):
    """Deliveries put off for later, noted where the server hands them to its scheduler."""
    noted = []
    run_task = scheduling.run_task

    def note(task, *args, eta=None):
        if task == registry.DELIVER_ALERT:
            noted.append((args, eta))
        else:
            run_task(task, *args, eta=eta)

    monkeypatch.setattr(scheduling, "run_task", note)
    return noted


def test_your_move_push_waits_for_the_end_of_quiet_hours_set_on_the_profile(
    alice,
    bob,
    vapid,  # noqa: F811  (the fixture imported above)
    service,  # noqa: F811
    held,
):
    token, _ = started(alice, bob)
    table = Table.objects.select_related("seat0", "seat1", "current_deal__match").get(invite_token=token)
    [alert] = notify.alerts_for(table, Alerts.TURN)
    mover = alice if alert.player.user == alice.user else bob
    mover.ok("patch", "/me", {"time_zone": "UTC", "alert_prefs": {"your_move": ["push"]}})
    night = dt.datetime(2030, 3, 4, 23, 40, tzinfo=dt.UTC)
    assert _post(mover, quiet_on="on", quiet_start="23:00", quiet_end="07:00").status_code == 302
    Activity.objects.create(player=alert.player, last_seen=table.created_at)
    _, browser = _subscribe(alert.player, service)
    alert.player = Player.objects.get(pk=alert.player.pk)
    assert notify.deliver(alert, now=night) == set()
    assert not service.received
    [(args, eta)] = held
    assert eta == dt.datetime(2030, 3, 5, 7, 0, tzinfo=dt.UTC) and args[0] == "your_move"
    assert notify.deliver(alert, now=eta) == {"push"}  # the hold's end: what the held task does
    [(_, _, body)] = service.received
    assert browser.decrypt(body)["kind"] == "your_move"
