"""More time: one turn clock added to the opponent's running turn, once per request,
version-checked, capped; every refusal changes nothing."""

from __future__ import annotations

import datetime as dt

from django.utils import timezone

from tables.alerts import notify
from tables.bank.engine import SLOW_START
from tables.play import tasks, verbs
from tables.play.models import Deal, Table
from tests.tables.helpers import ApiClient, snapshot, started, to_play

DAY = 24 * 3600


def _deal(token: str) -> Deal:
    return Deal.objects.get(pk=Table.objects.get(invite_token=token).current_deal_id)


def _give(client: ApiClient, token: str, version: int):
    return client.request("post", f"/tables/{token}/more-time", {"expected_version": version})


def test_the_waiting_player_gives_one_turn_clock_and_both_see_it(alice, bob):
    token, players = started(alice, bob)
    mover, waiting, state = to_play(token, players)
    before = _deal(token).deadline
    given = waiting.ok("post", f"/tables/{token}/more-time", {"expected_version": state["version"]})
    assert given["version"] == state["version"] + 1
    deal = _deal(token)
    assert deal.deadline == before + dt.timedelta(seconds=DAY) and deal.more_time_given == 1
    seen = mover.state(token)
    assert seen["deal"]["more_time_given"] == 1 and seen["deal"]["seconds_left"] > 2 * DAY - 60
    assert seen["deal"]["view"]["version"] == state["deal"]["view"]["version"]  # the same turn


def test_a_replayed_request_is_stale_and_gives_nothing_twice(alice, bob):
    token, players = started(alice, bob)
    _, waiting, state = to_play(token, players)
    assert _give(waiting, token, state["version"]).status_code == 200
    before = snapshot(token), _deal(token).deadline
    again = _give(waiting, token, state["version"])
    assert again.status_code == 409 and again.json()["error"] == "stale_version"
    assert (snapshot(token), _deal(token).deadline) == before


def test_refusals_say_why_and_change_nothing(alice, bob):
    token, players = started(alice, bob)
    mover, waiting, state = to_play(token, players)
    version = state["version"]
    before = snapshot(token), _deal(token).deadline
    own = _give(mover, token, version)
    assert own.status_code == 409 and own.json()["detail"] == (
        "Es tu turno: solo puedes dar más tiempo en el turno de tu rival."
    )
    watcher = ApiClient(name="Watcher")
    watcher.ok("get", f"/tables/{token}")
    assert _give(watcher, token, version).status_code in (401, 403)
    assert (snapshot(token), _deal(token).deadline) == before
    assert _give(waiting, token, version).status_code == 200
    assert _give(waiting, token, version + 1).status_code == 200  # three turns' worth, nearly
    capped = _give(waiting, token, version + 2)
    assert capped.status_code == 409 and "como mucho 3 turnos" in capped.json()["detail"]
    waiting.headers["Accept-Language"] = "en"
    capped = _give(waiting, token, version + 2)
    assert (
        capped.json()["detail"] == "Your opponent already has as much time as can be given: at most 3 turns."
    )
    assert _deal(token).more_time_given == 2
    mover.ok("post", f"/tables/{token}/resign", {"expected_version": version + 2})
    over = _give(waiting, token, version + 3)
    assert over.status_code == 409 and over.json()["detail"] == "The match is over."


def test_the_count_starts_again_with_each_turn(alice, bob):
    token, players = started(alice, bob, ruleset="classic")
    mover, waiting, state = to_play(token, players)
    waiting.ok("post", f"/tables/{token}/more-time", {"expected_version": state["version"]})
    mover.ok("post", f"/tables/{token}/moves", {"action": "pass", "expected_version": state["version"] + 1})
    deal = _deal(token)
    assert deal.more_time_given == 0
    # A full turn for the player to play now, their untouched bank behind it.
    assert abs((deal.deadline - timezone.now()).total_seconds() - DAY - SLOW_START) < 60


def test_more_time_on_a_clock_stopped_by_vacation_adds_to_what_it_resumes_with(alice, bob):
    token, players = started(alice, bob)
    mover, waiting, state = to_play(token, players)
    mover.ok("put", "/me/vacation", {"until": timezone.now().date().isoformat()})
    left = _deal(token).paused_left
    waiting.ok("post", f"/tables/{token}/more-time", {"expected_version": state["version"] + 1})
    assert _deal(token).paused_left == left + DAY and _deal(token).deadline is None


def test_the_verb_reaches_the_socket_and_the_page_from_the_one_list():
    assert verbs.SOCKET_VERBS["more_time"].path == "more-time"
    assert {"name": "more_time", "path": "more-time", "socket": True} in verbs.for_page()


def test_more_time_and_a_stopped_clock_send_no_alert(alice, bob, monkeypatch):
    token, players = started(alice, bob)
    mover, waiting, state = to_play(token, players)
    delivered = []
    monkeypatch.setattr(notify, "deliver", lambda alert: delivered.append((alert.kind, alert.player.pk)))
    waiting.ok("post", f"/tables/{token}/more-time", {"expected_version": state["version"]})
    table = Table.objects.get(invite_token=token)
    tasks.table_changed(table.pk, table.version, "more_time")
    mover.ok("put", "/me/vacation", {"until": timezone.now().date().isoformat()})
    table = Table.objects.get(invite_token=token)
    tasks.table_changed(table.pk, table.version, "vacation")  # the clock stopped: no "your move"
    assert delivered == []
    mover.ok("delete", "/me/vacation")
    table = Table.objects.get(invite_token=token)
    tasks.table_changed(table.pk, table.version, "vacation")  # back: the turn is theirs again
    assert [kind for kind, _ in delivered] == ["your_move"]
