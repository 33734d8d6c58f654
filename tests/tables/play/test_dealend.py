"""The end of a deal and what the table shows around it: a robot waits for its opponent to read
the deal's end, any match target, the move log (on or off) and the count of spectators."""

from __future__ import annotations

import datetime as dt
import json

import pytest
from django.utils import timezone

import rules
from tables.accounts.models import Player
from tables.alerts import presence
from tables.play import engine, payloads, services
from tables.play.models import Deal, Table
from tests.tables.helpers import ApiClient, cards_in, open_table, started

# Seat 0 (the non-dealer: seat 1 deals) holds 2-3-4♠, 7♥ 7♦ 7♣, 9-10-J♣ and K♦: taking the
# upcard 4♦ it knocks with K♦ at once (deadwood 4). The stock starts 5♥, A♥.
SEAT0 = "2S 3S 4S 7H 7D KD 7C 9C TC JC"
SEAT1 = "8S QS 3H 9H KH AD 6D JD 8C 5S"


def seeded_deck() -> list[str]:
    dealt = [card for pair in zip(SEAT0.split(), SEAT1.split(), strict=True) for card in pair]
    top = [*dealt, "4D", "5H", "AH"]
    return top + [str(card) for card in rules.CARDS if str(card) not in top]


@pytest.fixture
def known_deck(monkeypatch):
    deck = seeded_deck()
    monkeypatch.setattr(rules, "new_deck", lambda: rules.parse_cards(deck))
    monkeypatch.setattr(
        engine,
        "new_match",
        lambda ruleset, first_dealer=None, board=None: rules.Match.new(ruleset, first_dealer=1, board=board),
    )
    return deck


def _move(client: ApiClient, token: str, action: str) -> dict:
    state = client.state(token)
    body = {"action": action, "expected_version": state["version"]}
    return client.ok("post", f"/tables/{token}/moves", body)["state"]


def test_a_robot_leaves_the_deals_end_on_screen_until_next_deal_or_the_clock(
    alice, known_deck, django_capture_on_commit_callbacks
):
    token = open_table(alice, ruleset="classic", turn_seconds=45)["table"]
    alice.ok("post", f"/tables/{token}/bot", {"level": "tito"})
    with django_capture_on_commit_callbacks(execute=True):
        alice.ok("post", f"/tables/{token}/start", {})
    with django_capture_on_commit_callbacks(execute=True):
        _move(alice, token, "take_upcard")
    with django_capture_on_commit_callbacks(execute=True):
        _move(alice, token, "knock KD")
    state = alice.state(token)
    # Before: the robot dealt deal 2 in the same breath, and the end of deal 1 was never seen.
    assert state["status"] == "between_deals" and state["deal"]["number"] == 1
    deal = Deal.objects.get(pk=Table.objects.get(invite_token=token).current_deal_id)
    assert deal.deadline is not None  # the wait between deals lives on the deal row
    assert deal.deadline - timezone.now() > dt.timedelta(seconds=40)
    # When the wait runs out, the sweeper deals (with the version it read), as between people.
    Deal.objects.filter(pk=deal.pk).update(deadline=timezone.now() - dt.timedelta(seconds=1))
    with django_capture_on_commit_callbacks(execute=True):
        assert services.sweep_overdue() == 1
    assert alice.state(token)["deal"]["number"] == 2


def test_the_player_deals_on_against_a_robot(alice, known_deck, django_capture_on_commit_callbacks):
    token = open_table(alice, ruleset="classic")["table"]
    alice.ok("post", f"/tables/{token}/bot", {"level": "carmen"})
    with django_capture_on_commit_callbacks(execute=True):
        alice.ok("post", f"/tables/{token}/start", {})
        _move(alice, token, "take_upcard")
        _move(alice, token, "knock KD")
    state = alice.state(token)
    assert state["status"] == "between_deals"
    with django_capture_on_commit_callbacks(execute=True):
        dealt = alice.ok("post", f"/tables/{token}/next-deal", {"expected_version": state["version"]})
    assert dealt["deal"]["number"] == 2


@pytest.mark.parametrize("target", [50, 150, 250, 1, 10000])
def test_any_target_score(alice, target):
    state = open_table(alice, ruleset="playgridia", target=target)
    assert state["options"]["ruleset"]["target"] == target
    assert rules.Ruleset.from_dict(state["options"]["ruleset"]).target == target


@pytest.mark.parametrize("target", [0, -5, 10001, "fifty", 12.5, True])
def test_a_bad_target_is_a_clear_400(alice, target):
    before = Table.objects.count()
    response = alice.post("/tables", {"target": target})
    assert response.status_code == 400, response.content
    body = response.json()
    assert body.get("field") == "target" or "target" in json.dumps(body)
    assert Table.objects.count() == before


def test_the_new_table_form_takes_a_target_and_the_move_log(alice):
    response = alice.client.post("/new/", {"ruleset": "classic", "target": "150", "turn_seconds": "45"})
    assert response.status_code == 302
    table = Table.objects.get()
    assert table.ruleset["target"] == 150 and table.move_log is False  # a live clock: off by default
    response = alice.client.post("/new/", {"ruleset": "reino", "target": "0"}, follow=True)
    assert Table.objects.count() == 1 and b"target must be" in response.content


def test_the_move_log_is_on_for_slow_clocks_and_off_for_live_ones_unless_chosen(alice):
    assert open_table(alice, turn_seconds=86400)["options"]["move_log"] is True
    assert open_table(alice, turn_seconds=43200)["options"]["move_log"] is True
    assert open_table(alice, turn_seconds=600)["options"]["move_log"] is False
    assert open_table(alice, turn_seconds=45, move_log=True)["options"]["move_log"] is True
    assert open_table(alice, turn_seconds=86400, move_log=False)["options"]["move_log"] is False


def _play_some_turns(token: str, players: dict[int, ApiClient]) -> None:
    """Four plain turns from the seeded deal: stock draws and discards on both sides."""
    for _ in range(4):
        state = players[0].state(token)
        seat = state["deal"]["view"]["to_play"]
        mine = players[seat].state(token)
        view = mine["deal"]["view"]
        if "pass" in view["legal_actions"]:
            _move(players[seat], token, "pass")
            continue
        _move(players[seat], token, "draw_stock")
        mine = players[seat].state(token)
        choice = rules.best_discard(mine["deal"]["view"]["hand"])
        _move(players[seat], token, f"discard {choice.card}")


def test_the_move_log_names_taken_and_discarded_cards_and_never_a_hidden_one(alice, bob, known_deck):
    token, players = started(alice, bob, turn_seconds=86400)
    spectator = ApiClient(name="Sam")
    _play_some_turns(token, players)
    table = Table.objects.select_related("current_deal").get(invite_token=token)
    deal = engine.load_deal(table.current_deal)
    for seat, viewer in [(0, table.seat0), (1, table.seat1), (None, None)]:
        state = payloads.table_state(table, viewer)
        log = state["deal"]["log"]
        draws = [row for row in log if row["kind"] == "draw_stock"]
        discards = [row for row in log if row["kind"] == "discard"]
        assert draws and discards and all(row["card"] for row in discards)
        assert all(row["card"] is None for row in draws if row["seat"] != seat)
        # Every byte of the state: no card of the stock, nor of a hand this reader may not see
        # (the opponent's stock draws are in that hand, or discarded and public).
        public = deal.view(None)
        secret = {str(card) for card in deal.deck[52 - deal.stock_count :]}
        for other in (0, 1):
            if other != seat:
                secret |= {str(card) for card in deal.hand(other)} - set(map(str, public.known_cards[other]))
        assert secret and len(secret) >= deal.stock_count
        assert not cards_in(json.dumps(state)) & secret, seat
    assert spectator.state(token)["deal"]["log"]


def test_without_the_move_log_no_log_and_only_the_latest_moves_are_sent(alice, bob, known_deck):
    token, players = started(alice, bob, turn_seconds=45)
    _play_some_turns(token, players)
    table = Table.objects.select_related("current_deal").get(invite_token=token)
    full = engine.load_deal(table.current_deal).view(0)
    for viewer in (table.seat0, table.seat1, None):
        state = payloads.table_state(table, viewer)
        deal = state["deal"]
        assert deal["log"] is None and state["options"]["move_log"] is False
        history = deal["view"]["history"]
        assert deal["history_from"] > 0 and len(history) == len(full.history) - deal["history_from"]
        reader = table.seat_of(viewer) if viewer else 1 - history[-1]["seat"]
        assert all(event["seat"] != reader for event in history)  # only the moves since the reader's own
    # The API's move log tells no more than the state.
    logs = {seat: client.ok("get", f"/tables/{token}/moves")["moves"] for seat, client in players.items()}
    assert any(logs.values()) and all(row["seat"] != seat for seat, rows in logs.items() for row in rows)


def test_spectators_are_counted_players_excluded(alice, bob):
    token, _ = started(alice, bob)
    table = Table.objects.get(invite_token=token)
    watcher = Player.objects.create(display_name="Sam")
    gone = Player.objects.create(display_name="Ida")
    presence.touch_table(table.seat0_id, table.pk, visible=True)
    presence.touch_table(watcher.pk, table.pk, visible=True)
    presence.touch_table(gone.pk, table.pk, visible=False, online=False)
    assert presence.spectators(table) == 1
