"""What a committed move publishes: the new version and each seated player's own state, built
once from the committed rows; spectators get nothing prebuilt and read their own view."""

from __future__ import annotations

import json

import pytest

from tables.accounts import identity
from tables.accounts.models import Player
from tables.alerts import presence
from tables.live import events
from tables.play.models import Table
from tests.tables.helpers import cards_in, open_table, play_deal, started, to_play
from tests.tables.live.helpers import comparable


@pytest.fixture
def published(monkeypatch):
    messages: list[dict] = []
    monkeypatch.setattr(events, "group_send", lambda group, message: messages.append(message))
    return messages


def _player_id(client) -> str:
    return str(Player.objects.get(user=client.user).pk)


def test_a_move_publishes_each_seated_players_own_state(
    alice, bob, published, django_capture_on_commit_callbacks
):
    token, players = started(alice, bob)
    mover, other, state = to_play(token, players)
    action = state["deal"]["view"]["legal_actions"][0]
    with django_capture_on_commit_callbacks(execute=True):
        answer = mover.ok(
            "post", f"/tables/{token}/moves", {"action": action, "expected_version": state["version"]}
        )

    message = published[-1]
    assert (message["kind"], message["version"]) == ("move", state["version"] + 1)
    assert set(message["states"]) == {_player_id(mover), _player_id(other)}
    states = {player: json.loads(encoded["json"]) for player, encoded in message["states"].items()}
    for client in (mover, other):
        assert comparable(states[_player_id(client)]) == comparable(client.state(token))
        assert message["states"][_player_id(client)]["status"] == states[_player_id(client)]["status"]
    assert comparable(answer["state"]) == comparable(states[_player_id(mover)])
    # each prebuilt state is its own player's: the opponent's hand is in neither's
    mover_hand = set(states[_player_id(mover)]["deal"]["view"]["hand"])
    assert not mover_hand & cards_in(message["states"][_player_id(other)]["json"])


@pytest.mark.slow  # a whole deal, 1 to 2 s
def test_a_new_deal_publishes_each_seated_players_own_state(
    alice, bob, published, django_capture_on_commit_callbacks
):
    token, players = started(alice, bob, ruleset="reino")  # a match of several deals
    state = play_deal(token, players)
    assert state["status"] == "between_deals"
    with django_capture_on_commit_callbacks(execute=True):
        alice.ok("post", f"/tables/{token}/next-deal", {"expected_version": state["version"]})

    # the table's message (without workers, the follow-up's alerts to the players come after it)
    message = [message for message in published if message["type"] == "table.event"][-1]
    assert (message["kind"], message["version"]) == ("state", state["version"] + 1)
    states = {player: json.loads(encoded["json"]) for player, encoded in message["states"].items()}
    assert set(states) == {_player_id(alice), _player_id(bob)}
    for client in (alice, bob):
        mine = client.state(token)
        assert mine["status"] == "playing" and comparable(states[_player_id(client)]) == comparable(mine)
    hands = {player: set(state["deal"]["view"]["hand"]) for player, state in states.items()}
    assert not hands[_player_id(alice)] & cards_in(message["states"][_player_id(bob)]["json"])


def test_other_changes_publish_only_the_version(alice, bob, published, django_capture_on_commit_callbacks):
    token, _players = started(alice, bob)
    with django_capture_on_commit_callbacks(execute=True):
        alice.ok("post", f"/tables/{token}/chat", {"text": "hola"}, status=201)
    assert published and "states" not in published[-1]


def test_taking_a_seat_publishes_who_is_at_the_table(
    alice, bob, published, django_capture_on_commit_callbacks
):
    """Bob watched (his socket's lease counted him a spectator), then took the seat through the
    page, which keeps its socket: the players must hear at once that nobody watches any more."""
    token = open_table(alice)["table"]
    table = Table.objects.get(invite_token=token)
    for player in (alice, bob):  # both pages open, their sockets' leases taken
        presence.touch_table(identity.player_for_user(player.user).pk, table.pk, visible=True)
    with django_capture_on_commit_callbacks(execute=True):
        bob.ok("post", f"/tables/{token}/join", {})
    news = [message for message in published if message["type"] == "table.presence"]
    assert news, "no presence message after the seat was taken"
    assert news[-1]["spectators"] == 0
    assert [row["online"] for row in news[-1]["seats"]] == [True, True]
