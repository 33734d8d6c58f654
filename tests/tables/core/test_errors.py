"""Every refused request: the right status, a clear error, and nothing changed."""

from __future__ import annotations

import pytest

from tests.tables.helpers import ApiClient, open_table, snapshot, started, to_play

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(alice, bob):
    token, players = started(alice, bob)
    mover, waiter, state = to_play(token, players)
    return token, mover, waiter, state


def _refused(client, method, path, body, status, token, code=None):
    before = snapshot(token)
    response = client.request(method, path, body)
    assert response.status_code == status, response.content
    data = response.json()
    assert data["detail"], data
    if code:
        assert data["error"] == code, data
    assert snapshot(token) == before
    return data


def _move(state, action=None, **extra):
    view = state["deal"]["view"]
    return {"action": action or view["legal_actions"][0], "expected_version": state["version"], **extra}


def test_unknown_table_is_404(game):
    token, mover, _, state = game
    for method, path in [
        ("get", "/tables/nope"),
        ("post", "/tables/nope/moves"),
        ("post", "/tables/nope/join"),
    ]:
        body = _move(state) if path.endswith("moves") else {"name": "x"}
        _refused(mover, method, path, body, 404, token, "not_found")


def test_move_out_of_turn_is_403(game):
    token, _, waiter, state = game
    _refused(waiter, "post", f"/tables/{token}/moves", _move(state), 403, token, "forbidden")


def test_spectator_move_is_403(game):
    token, _, _, state = game
    stranger = ApiClient()
    stranger.ok("post", f"/tables/{token}/join", {"name": "Watcher"})
    _refused(stranger, "post", f"/tables/{token}/moves", _move(state), 403, token, "forbidden")
    anonymous = ApiClient()
    _refused(anonymous, "post", f"/tables/{token}/moves", _move(state), 401, token, "not_authenticated")


def test_illegal_action_is_400_with_the_engine_reason(game):
    token, mover, _, state = game
    view = state["deal"]["view"]
    not_held = next(card for card in view["discard_pile"] if card not in view["hand"])
    data = _refused(mover, "post", f"/tables/{token}/moves", _move(state, f"discard {not_held}"), 400, token)
    assert data["error"] == "illegal_move" and data["field"] == "action"
    _refused(mover, "post", f"/tables/{token}/moves", _move(state, "fly"), 400, token, "illegal_move")
    _refused(mover, "post", f"/tables/{token}/moves", _move(state, "discard", card="ZZ"), 400, token)


def test_stale_version_is_409_with_the_current_state(game):
    token, mover, _, state = game
    data = _refused(
        mover, "post", f"/tables/{token}/moves", {**_move(state), "expected_version": 0}, 409, token
    )
    assert data["error"] == "stale_version"
    assert data["state"]["version"] == state["version"]
    assert data["state"]["deal"]["view"]["hand"] == state["deal"]["view"]["hand"]


def test_repeated_client_move_id_applies_once(game):
    token, mover, _, state = game
    body = _move(state, client_move_id="abc")
    first = mover.ok("post", f"/tables/{token}/moves", body)
    after_first = snapshot(token)
    again = mover.ok("post", f"/tables/{token}/moves", body)
    assert first["applied"] and not again["applied"] and again["replayed"]
    assert again["move"] == first["move"]
    assert snapshot(token) == after_first


@pytest.mark.parametrize(
    ("raw", "field"),
    [
        ("{not json", "body"),
        ('{"action": "draw_stock"}', "expected_version"),
        ('{"action": "draw_stock", "expected_version": "three"}', "expected_version"),
        ('{"action": 5, "expected_version": 1}', "action"),
        ('{"action": "draw_stock", "expected_version": 1, "client_move_id": ""}', "client_move_id"),
        ("[1, 2]", "action"),  # not an object: the first missing field is named
    ],
)
def test_malformed_input_is_400_naming_the_field(game, raw, field):
    token, mover, _, _ = game
    before = snapshot(token)
    response = mover.post(f"/tables/{token}/moves", raw=raw)
    assert response.status_code == 400, response.content
    assert response.json()["field"] == field, response.json()
    assert snapshot(token) == before


def test_moves_after_the_deal_or_before_the_start_are_409(alice, bob):
    token = open_table(alice)["table"]
    data = _refused(
        alice, "post", f"/tables/{token}/moves", {"action": "pass", "expected_version": 0}, 409, token
    )
    assert data["error"] == "conflict"
    _refused(alice, "post", f"/tables/{token}/start", {}, 409, token)  # a seat is free


def test_table_actions_refused_for_the_wrong_caller(alice, bob):
    token = open_table(alice)["table"]
    bob.ok("post", f"/tables/{token}/join", {})
    _refused(bob, "post", f"/tables/{token}/start", {}, 403, token)
    _refused(bob, "post", f"/tables/{token}/bot", {"level": "luna"}, 403, token)
    _refused(alice, "post", f"/tables/{token}/bot", {"level": "luna"}, 409, token)  # no free seat
    _refused(alice, "post", f"/tables/{token}/next-deal", {}, 409, token)
    _refused(alice, "post", f"/tables/{token}/rematch/offer", None, 409, token)
    _refused(alice, "post", f"/tables/{token}/resign", {}, 409, token)


def test_next_deal_and_rematch_refused_while_playing(game, alice):
    token, mover, waiter, _ = game
    _refused(mover, "post", f"/tables/{token}/next-deal", {}, 409, token)
    _refused(mover, "post", f"/tables/{token}/rematch/offer", None, 409, token)
    _refused(waiter, "post", f"/tables/{token}/rematch/accept", None, 409, token)
    _refused(alice, "post", f"/tables/{token}/start", {}, 409, token)


@pytest.mark.parametrize(
    ("options", "field"),
    [
        ({"ruleset": "poker"}, "ruleset"),
        ({"custom": {"knock_limit": 99}}, "custom"),
        ({"custom": {"colour": "red"}}, "custom"),
        ({"turn_seconds": 5}, "turn_seconds"),
        ({"visibility": "secret"}, "visibility"),
        ({"forfeit_after": 0}, "forfeit_after"),
    ],
)
def test_invalid_table_options_are_400(alice, options, field):
    from tables.play.models import Table

    response = alice.post("/tables", options)
    assert response.status_code == 400 and response.json()["field"] == field, response.content
    assert not Table.objects.exists()


def test_guest_needs_a_name():
    from tables.accounts.models import Player
    from tables.play.models import Table

    response = ApiClient().post("/tables", {"name": "   "})
    assert response.status_code == 400 and response.json()["field"] == "name"
    assert not Table.objects.exists() and not Player.objects.exists()


def test_csrf_is_required_for_browser_sessions(game):
    from django.test import Client

    token, mover, _, state = game
    strict = ApiClient(Client(enforce_csrf_checks=True))
    strict.client.cookies = mover.client.cookies
    _refused(strict, "post", f"/tables/{token}/moves", _move(state), 403, token, "csrf_failed")


def test_bad_api_token_is_401(game):
    token, _, _, state = game
    program = ApiClient(token="gm_not-a-token")
    _refused(program, "post", f"/tables/{token}/moves", _move(state), 401, token, "not_authenticated")
