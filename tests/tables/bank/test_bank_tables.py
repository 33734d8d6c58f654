"""The time bank at a table: chosen at creation, inside the one stored deadline, spent past the
turn's own time, refilled by moves; the sweeper, the ETA task, more time, vacation and automatic
vacation all read that one deadline."""

from __future__ import annotations

import datetime as dt

import pytest
from django.test import Client
from django.utils import timezone

from tables.accounts.identity import player_for_user
from tables.accounts.models import Vacation
from tables.alerts import notify
from tables.alerts.models import Activity, TablePresence
from tables.api import api
from tables.background import registry, scheduling
from tables.bank.engine import DAY, SLOW_CAP, SLOW_REFILL, SLOW_START
from tables.play import services, tasks
from tables.play.models import Deal, Match, Move, Table
from tests.tables.helpers import ApiClient, open_table, pages_in, started, to_play

pytestmark = pytest.mark.django_db
SLOW_TERMS = {"start": SLOW_START, "refill": SLOW_REFILL, "cap": SLOW_CAP}


def _deal(token: str) -> Deal:
    return Deal.objects.get(pk=Table.objects.get(invite_token=token).current_deal_id)


def _banks(token: str) -> list[int]:
    return Match.objects.get(pk=_deal(token).match_id).banks


def _turn_spent_by(token: str, seconds: int, bank: int = SLOW_START) -> dt.datetime:
    """The turn's own time ran out ``seconds`` ago: only its bank is left, less that."""
    deadline = timezone.now() + dt.timedelta(seconds=bank - seconds)
    Deal.objects.filter(pk=_deal(token).pk).update(deadline=deadline)
    return deadline


def _timeouts() -> int:
    return Move.objects.filter(source=Move.Source.TIMEOUT).count()


def _pass(client: ApiClient, token: str) -> dict:
    version = client.state(token)["version"]
    return client.ok("post", f"/tables/{token}/moves", {"action": "pass", "expected_version": version})


def test_on_by_default_for_slow_clocks_off_for_live_ones_and_chosen_either_way(alice):
    assert open_table(alice)["options"]["time_bank"] == SLOW_TERMS
    assert open_table(alice, turn_seconds=12 * 3600)["options"]["time_bank"] == SLOW_TERMS
    assert open_table(alice, turn_seconds=60)["options"]["time_bank"] is None
    assert open_table(alice, turn_seconds=60, time_bank=True)["options"]["time_bank"] == {
        "start": 180,
        "refill": 18,
        "cap": 420,
    }
    assert open_table(alice, time_bank=False)["options"]["time_bank"] is None


@pytest.mark.parametrize("bad", ["yes", 1, 0, [], {"start": 5}])
def test_a_time_bank_that_is_not_a_boolean_is_refused_and_opens_nothing(alice, bad):
    before = Table.objects.count()
    response = alice.request("post", "/tables", {"time_bank": bad})
    assert response.status_code == 400 and response.json()["field"] == "time_bank"
    assert Table.objects.count() == before


def test_the_new_table_page_offers_it_and_refuses_a_choice_it_does_not_know(alice):
    page = alice.client.get("/new/")
    assert 'name="time_bank"' in page.content.decode()
    before = Table.objects.count()
    refused = alice.client.post(
        "/new/", {"ruleset": "classic", "time_bank": "maybe", "turn_seconds": "86400"}
    )
    assert Table.objects.count() == before  # the form again, saying why (as every refusal of this page)
    assert "La reserva de tiempo debe ser" in refused.content.decode()
    alice.client.post("/new/", {"ruleset": "classic", "time_bank": "off", "turn_seconds": "86400"})
    alice.client.post("/new/", {"ruleset": "classic", "time_bank": "on", "turn_seconds": "60"})
    off, live = Table.objects.order_by("-pk")[1], Table.objects.order_by("-pk")[0]
    assert off.bank_terms is None and live.bank_terms is not None and live.bank_start == 180


def test_a_challenge_carries_the_choice_to_its_table(alice, bob):
    bob_id = player_for_user(bob.user).pk
    challenge = alice.ok("post", "/challenges", {"opponent_id": bob_id, "time_bank": False}, status=201)
    state = bob.ok("post", f"/challenges/{challenge['id']}/accept", {})
    assert state["options"]["time_bank"] is None and state["match"]["banks"] is None
    refused = alice.request("post", "/challenges", {"opponent_id": bob_id, "time_bank": "yes"})
    assert refused.status_code == 400 and refused.json()["field"] == "time_bank"


def test_a_seek_carries_the_choice_to_its_table(alice, bob):
    seek = alice.ok("post", "/seeks", {"turn_seconds": 60, "time_bank": True}, status=201)
    state = bob.ok("post", f"/challenges/{seek['id']}/accept", {})
    assert state["options"]["time_bank"] == {"start": 180, "refill": 18, "cap": 420}
    assert state["match"]["banks"] == [180, 180]
    refused = alice.request("post", "/seeks", {"time_bank": [True]})
    assert refused.status_code == 400 and refused.json()["field"] == "time_bank"


def test_each_player_starts_with_the_bank_behind_the_first_turn(alice, bob):
    token, players = started(alice, bob)
    state = players[0].state(token)
    assert state["match"]["banks"] == [SLOW_START, SLOW_START]
    assert DAY + SLOW_START - 60 < state["deal"]["seconds_left"] <= DAY + SLOW_START


def test_a_move_spends_only_the_time_past_the_turn_and_refills(alice, bob):
    token, players = started(alice, bob, ruleset="classic")  # an offer round: each may pass
    mover, _, state = to_play(token, players)
    seat = state["you"]["seat"]
    _turn_spent_by(token, 3600)
    _pass(mover, token)
    assert abs(_banks(token)[seat] - (SLOW_START - 3600 + SLOW_REFILL)) <= 2
    assert _banks(token)[1 - seat] == SLOW_START


def test_refills_stop_at_the_cap(alice, bob):
    token, players = started(alice, bob, ruleset="classic")
    mover, _waiting, state = to_play(token, players)
    seat = state["you"]["seat"]
    Match.objects.filter(pk=_deal(token).match_id).update(banks=[SLOW_CAP - 60, SLOW_CAP - 60])
    Deal.objects.filter(pk=_deal(token).pk).update(
        deadline=timezone.now() + dt.timedelta(seconds=DAY + SLOW_CAP - 60)
    )
    _pass(mover, token)
    assert _banks(token)[seat] == SLOW_CAP


def test_the_fallback_waits_until_turn_time_and_bank_are_both_spent(alice, bob):
    token, players = started(alice, bob, ruleset="classic")
    _mover, waiting, state = to_play(token, players)
    seat = state["you"]["seat"]
    table = Table.objects.get(invite_token=token)
    deadline = _turn_spent_by(token, SLOW_START - 60)  # a minute of bank left
    assert services.sweep_overdue() == 0
    assert tasks.expire_turn(_deal(token).pk, table.version, deadline.isoformat()) is False
    assert _timeouts() == 0 and Table.objects.get(pk=table.pk).version == table.version
    Deal.objects.filter(pk=_deal(token).pk).update(deadline=timezone.now() - dt.timedelta(seconds=1))
    assert services.sweep_overdue() == 1 and _timeouts() == 1
    assert _banks(token)[seat] == 0
    _pass(waiting, token)  # the turn comes back: the player who timed out has no bank left
    deal = _deal(token)
    assert deal.to_play == seat and abs((deal.deadline - timezone.now()).total_seconds() - DAY) < 60


def test_the_eta_task_is_planned_for_the_deadline_with_the_bank(alice, bob, monkeypatch):
    planned = []
    monkeypatch.setattr(
        scheduling, "run_task", lambda task, *args, eta=None: planned.append((task, args, eta))
    )
    token, _players = started(alice, bob, turn_seconds=30, time_bank=True)  # a bank of 90 s
    table, deal = Table.objects.get(invite_token=token), _deal(token)
    planned.clear()
    tasks.follow_up(table.pk, table.version, "move")
    [(_task, args, eta)] = [call for call in planned if call[0] == registry.EXPIRE_TURN]
    assert eta == deal.deadline and args == (deal.pk, table.version, deal.deadline.isoformat())
    assert 115 < (eta - timezone.now()).total_seconds() <= 120  # 30 s of turn, then 90 s of bank
    assert tasks.expire_turn(*args) is False  # early: the turn's own time only is past at most


def test_more_time_while_the_bank_ticks_keeps_what_it_spent(alice, bob):
    token, players = started(alice, bob)
    _mover, waiting, state = to_play(token, players)
    seat = state["you"]["seat"]
    _turn_spent_by(token, 3600)
    waiting.ok("post", f"/tables/{token}/more-time", {"expected_version": waiting.state(token)["version"]})
    left = (_deal(token).deadline - timezone.now()).total_seconds()
    assert abs(_banks(token)[seat] - (SLOW_START - 3600)) <= 2
    assert abs(left - (DAY + SLOW_START - 3600)) < 60  # a whole turn now, the bank left behind it


def test_a_vacation_stops_the_turn_and_the_bank_and_gives_both_back(alice, bob):
    token, players = started(alice, bob)
    mover, _, state = to_play(token, players)
    seat = state["you"]["seat"]
    _turn_spent_by(token, 3600)
    until = (timezone.now() + dt.timedelta(days=3)).date()
    mover.ok("put", "/me/vacation", {"until": until.isoformat()})
    deal = _deal(token)
    assert deal.deadline is None and abs(deal.paused_left - (SLOW_START - 3600)) <= 2
    assert abs(_banks(token)[seat] - deal.paused_left) <= 1  # nothing of the turn's own time was left
    stopped_with = deal.paused_left
    mover.ok("delete", "/me/vacation")
    deal = _deal(token)
    assert (
        deal.paused_left is None and abs((deal.deadline - timezone.now()).total_seconds() - stopped_with) < 5
    )


def test_automatic_vacation_starts_only_once_the_bank_is_spent(alice, bob):
    token, players = started(alice, bob)
    mover, _, state = to_play(token, players)
    seat = state["you"]["seat"]
    mover.ok("patch", "/me/vacation", {"automatic": True})
    _turn_spent_by(token, SLOW_START - 60)  # the turn's time is out, a minute of bank is not
    assert services.sweep_overdue() == 0
    assert not Vacation.objects.exists()
    Deal.objects.filter(pk=_deal(token).pk).update(deadline=timezone.now() - dt.timedelta(seconds=1))
    assert services.sweep_overdue() == 1
    assert Vacation.objects.count() == 1 and _timeouts() == 0
    deal = _deal(token)
    assert deal.deadline is None and deal.paused_left == 0 and _banks(token)[seat] == 0


@pytest.mark.parametrize(
    ("language", "on_help", "on_form"),
    [
        (
            "en",
            ["3 days when a match starts", "3 days back for every 10 moves", "at most 7 days"],
            "3 days to start",
        ),
        (
            "es",
            ["3 días al empezar la partida", "3 días más por cada 10 jugadas", "como mucho 7 días"],
            "3 días al empezar,",
        ),
    ],
)
def test_the_help_and_the_new_table_form_give_the_banks_figures_from_the_server(language, on_help, on_form):
    pages = pages_in(Client(), language, ["/help/", "/new/"])
    assert all(words in pages["/help/"] for words in on_help)
    assert on_form in pages["/new/"] and 'name="time_bank"' in pages["/new/"]


def test_no_reminder_for_a_player_who_looked_during_the_turn_before_the_bank_began(alice, bob):
    token, _ = started(alice, bob)
    table = Table.objects.get(invite_token=token)
    player = table.seats[_deal(token).to_play]
    assert player is not None
    Activity.objects.update_or_create(
        player=player, defaults={"last_seen": timezone.now() - dt.timedelta(days=9)}
    )
    # The reminder's moment: 20% of a turn before the deadline that counts, deep in the bank.
    _turn_spent_by(token, SLOW_START - 2 * 3600)
    # Looked two days ago: after the turn began (a day and the bank before its deadline).
    TablePresence.objects.update_or_create(
        player=player,
        table=table,
        defaults={
            "looked_at": timezone.now() - dt.timedelta(days=2),
            "last_seen": timezone.now() - dt.timedelta(days=2),
        },
    )
    assert notify.send_due_reminders() == 0
    TablePresence.objects.filter(player=player).update(looked_at=timezone.now() - dt.timedelta(days=5))
    assert notify.send_due_reminders() == 1  # a look from before the turn began does not count


def test_the_api_schema_documents_the_option_and_the_banks():
    schemas = api.get_openapi_schema()["components"]["schemas"]
    assert "time_bank" in schemas["CreateTableIn"]["properties"]
    assert (
        "time_bank" in schemas["ChallengeIn"]["properties"] and "time_bank" in schemas["SeekIn"]["properties"]
    )
    assert (
        "time_bank" in schemas["OptionsOut"]["properties"]
        and "banks" in schemas["MatchStateOut"]["properties"]
    )
    assert set(schemas["BankTermsOut"]["properties"]) == {"start", "refill", "cap"}
