"""Vacation: slow clocks stop for a player away, the sweeper and the ETA task included, and run
again with the time that was left; the allowance through the API; live clocks run on."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import formats, timezone, translation

from tables.accounts import payloads as account_payloads
from tables.accounts import services as account_services
from tables.accounts.models import Player, Vacation
from tables.accounts.vacation_days import ALLOWANCE_DAYS
from tables.bank.engine import SLOW_START
from tables.challenges import services as challenge_services
from tables.core.errors import BadRequest
from tables.play import services, tasks
from tables.play.models import Deal, Match, Move, Table
from tests.tables.helpers import ApiClient, make_account_client, snapshot, started, to_play

DAY = 24 * 3600


def _deal(token: str) -> Deal:
    return Deal.objects.get(pk=Table.objects.get(invite_token=token).current_deal_id)


def _player(client: ApiClient) -> Player:
    client.ok("get", "/me")  # an account's player is made on its first visit
    return Player.objects.get(user=client.user)


def _today(client: ApiClient) -> dt.date:
    return timezone.now().astimezone(dt.UTC).date()  # the accounts' time zone is UTC


def _left_after(client: ApiClient, days: int) -> int:
    """This year's days left after a vacation from today to today + ``days`` (near New Year
    some of them fall in the next year)."""
    today = _today(client)
    return ALLOWANCE_DAYS - sum((today + dt.timedelta(days=n)).year == today.year for n in range(days + 1))


def _go_away(client: ApiClient, days: int = 3) -> dict:
    until = _today(client) + dt.timedelta(days=days)
    return client.ok("put", "/me/vacation", {"until": until.isoformat()})


def test_a_slow_clock_stops_at_once_and_the_opponent_sees_until_when(alice, bob):
    token, players = started(alice, bob)
    mover, waiting, state = to_play(token, players)
    seat = state["you"]["seat"]
    profile = _go_away(mover)
    assert profile["vacation"]["until"] is not None and profile["vacation"]["days_left"] == _left_after(
        mover, 3
    )
    deal = _deal(token)
    assert deal.deadline is None and DAY - 60 < deal.paused_left - SLOW_START <= DAY  # the bank kept too
    seen = waiting.state(token)
    assert seen["version"] == state["version"] + 1
    assert seen["seats"][seat]["vacation_until"] == profile["vacation"]["until"]
    assert seen["seats"][1 - seat]["vacation_until"] is None
    assert seen["deal"]["deadline"] is None and seen["deal"]["paused_left"] == deal.paused_left
    rows = waiting.ok("get", "/me/tables")["tables"]
    assert rows[0]["opponent"]["vacation_until"] == profile["vacation"]["until"]
    assert services.sweep_overdue() == 0


def test_a_deadline_in_the_past_does_not_time_out_a_player_on_vacation(alice, bob):
    token, players = started(alice, bob)
    mover, _, _ = to_play(token, players)
    _go_away(mover)
    now = timezone.now()
    Player.objects.filter(pk=_player(mover).pk).update(vacation_started_at=now - dt.timedelta(hours=2))
    # A turn whose clock was set while the vacation was being declared, now past its deadline.
    Deal.objects.filter(pk=_deal(token).pk).update(deadline=now - dt.timedelta(minutes=1), paused_left=None)
    before = Match.objects.get(table__invite_token=token).timeouts_in_row
    assert services.sweep_overdue() == 1  # the sweeper stops the clock instead
    deal = _deal(token)
    assert deal.deadline is None and abs(deal.paused_left - 119 * 60) <= 2  # left when the vacation began
    assert not Move.objects.filter(deal=deal, source=Move.Source.TIMEOUT).exists()
    assert Match.objects.get(pk=deal.match_id).timeouts_in_row == before
    assert services.sweep_overdue() == 0


def test_the_eta_task_respects_vacation_too(alice, bob):
    token, players = started(alice, bob)
    mover, _, _ = to_play(token, players)
    _go_away(mover)
    now = timezone.now()
    Player.objects.filter(pk=_player(mover).pk).update(vacation_started_at=now - dt.timedelta(hours=1))
    deadline = now - dt.timedelta(seconds=5)
    Deal.objects.filter(pk=_deal(token).pk).update(deadline=deadline, paused_left=None)
    table = Table.objects.get(invite_token=token)
    tasks.expire_turn(table.current_deal_id, table.version, deadline.isoformat())
    assert _deal(token).deadline is None and not Move.objects.filter(source=Move.Source.TIMEOUT).exists()


def test_a_clock_that_ran_out_before_the_vacation_still_times_out(alice, bob):
    token, players = started(alice, bob)
    mover, _, _ = to_play(token, players)
    Deal.objects.filter(pk=_deal(token).pk).update(deadline=timezone.now() - dt.timedelta(minutes=5))
    _go_away(mover)  # the sweeper was late: the vacation does not rescue a turn already lost
    assert _deal(token).paused_left is None
    assert services.sweep_overdue() == 1
    assert Move.objects.filter(source=Move.Source.TIMEOUT).exists()


def test_ending_the_vacation_restarts_the_clock_with_the_time_left(alice, bob):
    token, players = started(alice, bob)
    mover, waiting, _ = to_play(token, players)
    _go_away(mover)
    Deal.objects.filter(pk=_deal(token).pk).update(paused_left=5000)
    version = Table.objects.get(invite_token=token).version
    profile = mover.ok("delete", "/me/vacation")
    assert profile["vacation"]["until"] is None
    assert profile["vacation"]["days_left"] == ALLOWANCE_DAYS - 1  # today was begun: it counts
    deal = _deal(token)
    assert deal.paused_left is None
    assert abs((deal.deadline - timezone.now()).total_seconds() - 5000) < 5
    seen = waiting.state(token)
    assert seen["version"] == version + 1 and all(seat["vacation_until"] is None for seat in seen["seats"])
    assert mover.request("delete", "/me/vacation").status_code == 409  # not on vacation any more


def test_the_sweep_ends_a_vacation_whose_last_day_is_over_from_its_end(alice, bob):
    token, players = started(alice, bob)
    mover, _, _ = to_play(token, players)
    _go_away(mover)
    Deal.objects.filter(pk=_deal(token).pk).update(paused_left=600)
    ended = timezone.now() - dt.timedelta(seconds=100)
    Player.objects.filter(pk=_player(mover).pk).update(vacation_until=ended)
    assert account_services.expire_vacation(_player(mover).pk, "2000-01-01T00:00:00+00:00") is False  # stale
    assert account_services.sweep_vacations() == 1
    deal = _deal(token)
    assert deal.paused_left is None and deal.deadline == ended + dt.timedelta(seconds=600)
    assert _player(mover).vacation_until is None
    assert account_services.sweep_vacations() == 0


def test_a_turn_that_comes_to_a_player_on_vacation_waits_with_a_full_clock(alice, bob):
    token, players = started(alice, bob, ruleset="classic")  # an offer round: each may pass
    mover, waiting, state = to_play(token, players)
    _go_away(waiting)
    assert _deal(token).deadline is not None  # the mover is not away: their clock runs
    mover.ok("post", f"/tables/{token}/moves", {"action": "pass", "expected_version": state["version"] + 1})
    deal = _deal(token)
    assert deal.to_play == 1 - state["you"]["seat"]
    assert deal.deadline is None and deal.paused_left == DAY + SLOW_START  # a full turn, and the bank
    # The player away may still play: the turn passes back and that clock runs.
    after = waiting.state(token)
    waiting.ok("post", f"/tables/{token}/moves", {"action": "pass", "expected_version": after["version"]})
    deal = _deal(token)
    assert deal.paused_left is None and deal.deadline is not None


def test_live_clocks_run_on(alice, bob):
    token, players = started(alice, bob, turn_seconds=60)
    mover, _, _ = to_play(token, players)
    _go_away(mover)
    assert _deal(token).deadline is not None and _deal(token).paused_left is None
    Deal.objects.filter(pk=_deal(token).pk).update(deadline=timezone.now() - dt.timedelta(seconds=1))
    assert services.sweep_overdue() == 1
    assert Move.objects.filter(source=Move.Source.TIMEOUT).exists()


def test_the_allowance_is_checked_and_a_refusal_changes_nothing(alice, bob):
    token, _ = started(alice, bob)
    before = snapshot(token)
    today = _today(alice)
    too_long = alice.request("put", "/me/vacation", {"until": (today + dt.timedelta(days=14)).isoformat()})
    assert too_long.status_code == 400
    assert (
        too_long.json()["detail"]
        == f"Esas vacaciones necesitan 15 días de {today.year} y te quedan 14 (14 al año)."
    )
    alice.headers["Accept-Language"] = "en"
    in_english = alice.request("put", "/me/vacation", {"until": (today + dt.timedelta(days=14)).isoformat()})
    assert in_english.json()["detail"] == (
        f"That vacation needs 15 days of {today.year} and you have 14 left (14 a year)."
    )
    past = alice.request("put", "/me/vacation", {"until": (today - dt.timedelta(days=1)).isoformat()})
    assert past.status_code == 400 and past.json()["field"] == "until"
    assert alice.request("put", "/me/vacation", {"until": "soon"}).status_code in (400, 422)
    assert not Vacation.objects.exists() and _player(alice).vacation_until is None
    assert snapshot(token) == before
    fits = alice.ok("put", "/me/vacation", {"until": today.isoformat()})
    assert fits["vacation"]["days_left"] == ALLOWANCE_DAYS - 1
    moved = alice.ok("put", "/me/vacation", {"until": (today + dt.timedelta(days=2)).isoformat()})
    assert moved["vacation"]["days_left"] == _left_after(alice, 2) and Vacation.objects.count() == 1


def seated_guest_table(owner: ApiClient, guest: ApiClient) -> str:
    token = owner.ok("post", "/tables", {}, status=201)["table"]
    guest.ok("post", f"/tables/{token}/join", {"name": "Guesty"})
    return token


def test_guests_take_no_vacation(alice):
    guest = ApiClient(Client(), name="Guesty")
    seated_guest_table(alice, guest)
    response = guest.request("put", "/me/vacation", {"until": timezone.now().date().isoformat()})
    assert response.status_code == 403 and "Solo las cuentas" in response.json()["detail"]


@pytest.fixture
def fixed_now(monkeypatch):
    def set_now(at: dt.datetime) -> None:
        monkeypatch.setattr(timezone, "now", lambda: at)

    return set_now


def test_days_are_counted_in_the_players_time_zone(alice, fixed_now):
    player = _player(alice)
    fixed_now(dt.datetime(2026, 12, 31, 12, 0, tzinfo=dt.UTC))  # already 1 January 2027 in Kiritimati
    player.time_zone = "Pacific/Kiritimati"
    player.save()
    with (
        translation.override("en"),
        pytest.raises(BadRequest, match="needs 15 days of 2027 and you have 14 left"),
    ):
        account_services.declare_vacation(player, dt.date(2027, 1, 15))
    with translation.override("en"), pytest.raises(BadRequest, match="today or later"):
        account_services.declare_vacation(player, dt.date(2026, 12, 31))  # yesterday, there
    account_services.declare_vacation(player, dt.date(2027, 1, 14))  # 14 days of 2027
    player.refresh_from_db()
    assert player.vacation_until == dt.datetime(2027, 1, 14, 10, 0, tzinfo=dt.UTC)  # local midnight
    row = Vacation.objects.get()
    assert (row.first_day, row.last_day) == (dt.date(2027, 1, 1), dt.date(2027, 1, 14))


def test_a_utc_player_spends_the_same_dates_across_new_year(alice, fixed_now):
    player = _player(alice)
    fixed_now(dt.datetime(2026, 12, 31, 12, 0, tzinfo=dt.UTC))
    account_services.declare_vacation(player, dt.date(2027, 1, 14))  # 1 day of 2026, 14 of 2027
    player.refresh_from_db()
    assert player.vacation_until == dt.datetime(2027, 1, 15, tzinfo=dt.UTC)


def test_ending_early_gives_back_the_days_not_begun(alice, fixed_now):
    player = _player(alice)
    start = dt.datetime(2026, 6, 1, 22, 0, tzinfo=dt.UTC)
    fixed_now(start)
    account_services.declare_vacation(player, dt.date(2026, 6, 10))  # 1..10 June: 10 days
    fixed_now(start + dt.timedelta(hours=3))  # 2 June, 01:00: a second day begun
    account_services.end_vacation(player)
    row = Vacation.objects.get()
    assert (row.first_day, row.last_day, row.ends_at) == (
        dt.date(2026, 6, 1),
        dt.date(2026, 6, 2),
        start + dt.timedelta(hours=3),
    )
    assert account_payloads.vacation(player)["days_left"] == ALLOWANCE_DAYS - 2
    # Back on the same day: 2 June is not counted twice.
    account_services.declare_vacation(player, dt.date(2026, 6, 13))
    assert account_payloads.vacation(player)["days_left"] == ALLOWANCE_DAYS - 2 - 11


def test_the_profile_page_declares_shows_and_ends_a_vacation(alice, bob):
    token, players = started(alice, bob)
    mover, _, _ = to_play(token, players)
    page = mover.client
    today = _today(mover)
    answer = page.post("/me/profile/", {"vacation": "declare", "until": today.isoformat()})
    assert answer.status_code == 302
    shown = page.get("/me/profile/").content.decode()
    assert "Estás de vacaciones: tus relojes lentos se han parado." in shown
    assert "Te quedan 13 de 14 días" in shown and 'id="vacation-end"' in shown
    assert _deal(token).paused_left is not None
    refused = page.post("/me/profile/", {"vacation": "declare", "until": "not a day"}, follow=True)
    assert "Elige el último día de tus vacaciones." in refused.content.decode()
    too_long = page.post(
        "/me/profile/",
        {"vacation": "declare", "until": (today + dt.timedelta(days=20)).isoformat()},
        follow=True,
        headers={"Accept-Language": "en"},
    )
    assert (
        "That vacation needs 7 days of" in too_long.content.decode() or "needs" in too_long.content.decode()
    )
    ended = page.post("/me/profile/", {"vacation": "end"}, follow=True, headers={"Accept-Language": "en"})
    text = ended.content.decode()
    assert "Welcome back: your clocks run again." in text and "13 of 14 days left" in text
    assert _deal(token).paused_left is None and _deal(token).deadline is not None


def test_guests_see_no_vacation_form(alice):
    guest = ApiClient(Client(), name="Guesty")
    seated_guest_table(alice, guest)
    assert 'id="vacation-panel"' not in guest.client.get("/me/profile/").content.decode()
    alice.ok("get", "/me")
    assert 'id="vacation-panel"' in alice.client.get("/me/profile/").content.decode()


def test_staff_see_vacations_in_the_admin(alice):
    _go_away(alice)
    staff = make_account_client("staff@example.com", staff=True)
    staff.user.is_superuser = True
    staff.user.save()
    listing = staff.client.get("/admin/tables/vacation/", {"q": "alice"})
    assert listing.status_code == 200 and "alice" in listing.content.decode()


def test_my_tables_tags_an_opponent_on_vacation_only_while_the_match_is_played(alice, bob):
    token, players = started(alice, bob)
    mover, waiting, _ = to_play(token, players)
    _go_away(mover)
    assert "de vacaciones" in waiting.client.get("/me/tables/").content.decode()
    state = waiting.state(token)
    waiting.ok("post", f"/tables/{token}/resign", {"expected_version": state["version"]})
    assert "de vacaciones" not in waiting.client.get("/me/tables/").content.decode()


AWAY = "de vacaciones hasta el"


def test_the_lobby_and_the_challenges_page_show_who_is_on_vacation_until_when(alice, bob):
    started(alice, bob)  # bob's recent opponent
    away = _player(alice)
    last_day = _today(alice) + dt.timedelta(days=3)
    _go_away(alice)
    challenge_services.post_seek(away, {"ruleset": "classic", "turn_seconds": DAY})
    services.create_table(away, visibility="public")
    with translation.override("es"):
        until = f"{AWAY} {formats.date_format(last_day, 'DATE_FORMAT')}"
    lobby = bob.client.get("/lobby/").content.decode()
    assert lobby.count(until) == 2  # the seek and the public table
    recent = bob.client.get("/challenges/").content.decode()
    assert recent.count(until) == 1
    found = bob.client.get("/challenges/", {"name": "alice"}).content.decode()
    assert found.count(until) == 2  # found, and a recent opponent
    assert AWAY not in alice.client.get("/challenges/", {"name": "bob"}).content.decode()


def test_the_lobby_asks_no_more_queries_for_more_players_on_vacation(alice, bob):
    carol = make_account_client("carol@example.com")

    def queries() -> int:
        with CaptureQueriesContext(connection) as captured:
            assert bob.client.get("/lobby/").status_code == 200
        return len(captured)

    first = _player(alice)
    _go_away(alice)
    challenge_services.post_seek(first, {"ruleset": "classic", "turn_seconds": DAY})
    services.create_table(first, visibility="public")
    queries()  # the first visit makes bob's player
    few = queries()
    second = _player(carol)
    _go_away(carol)
    challenge_services.post_seek(second, {"ruleset": "classic", "turn_seconds": DAY})
    services.create_table(second, visibility="public")
    assert queries() == few
