"""The authorization matrix of the JSON API: every endpoint × {owner, seated opponent, spectator,
logged-out visitor, other account, staff} gets its one allowed outcome, and a refused request
changes nothing. Browsers send the CSRF token as the pages do; programs use bearer tokens."""

from __future__ import annotations

from typing import Any

import pytest

from tables.play.models import Table
from tests.tables.helpers import started

from .callers import ROLES, Caller, account, browser, program
from .fingerprint import changed_models, database_fingerprint

pytestmark = pytest.mark.django_db

SEATED = ("owner", "opponent")
STRANGERS = ("spectator", "other_account", "staff")


def outcome(seated: int, strangers: int, visitor: int, **exceptions: int) -> dict[str, int]:
    """The status each role gets: the seated players, the accounts not seated, the visitor."""
    statuses = {role: seated for role in SEATED} | {role: strangers for role in STRANGERS}
    return statuses | {"visitor": visitor} | exceptions


# (method, path under /api/tables/{token}, body) -> status by role, on a match being played.
# "{version}" in a body is the table's current version when the request is sent.
PLAYING_MATRIX: list[tuple[str, str, Any, dict[str, int]]] = [
    ("get", "", None, outcome(200, 200, 200)),
    ("get", "/moves", None, outcome(200, 200, 200)),
    ("get", "/chat", None, outcome(200, 200, 200)),
    ("post", "/join", {}, outcome(200, 200, 400)),  # a visitor must type a name first
    ("post", "/bot", {"level": "tito"}, outcome(403, 403, 401, owner=409)),
    ("post", "/leave", {}, outcome(409, 409, 401)),
    ("post", "/start", {"expected_version": "{version}"}, outcome(403, 403, 401, owner=409)),
    ("post", "/next-deal", {"expected_version": "{version}"}, outcome(409, 403, 401)),
    ("post", "/rematch/offer", {}, outcome(409, 403, 401)),
    ("post", "/rematch/accept", {}, outcome(409, 403, 401)),
    ("post", "/rematch/decline", {}, outcome(409, 403, 401)),
    ("post", "/chat/mute", {"seat": 1}, outcome(200, 200, 401, opponent=400)),  # nobody mutes themself
    ("get", "/matches/1/deals/1/export", None, outcome(403, 403, 403, staff=200)),  # unfinished: staff only
    ("get", "/matches/1/export", None, outcome(200, 403, 403, staff=200)),
    ("post", "/resign", {"expected_version": "{version}"}, outcome(200, 403, 401)),
]
# Endpoints that are not about one table.
ACCOUNT_MATRIX: list[tuple[str, str, Any, dict[str, int]]] = [
    ("get", "/me", None, outcome(200, 200, 401)),
    ("patch", "/me", {"deck_design": "dark"}, outcome(200, 200, 401)),
    ("get", "/me/tables", None, outcome(200, 200, 401)),
    ("get", "/lobby", None, outcome(200, 200, 200)),
    ("get", "/tokens", None, outcome(200, 200, 401)),
    ("post", "/tokens", {"name": "bot"}, outcome(403, 403, 401, owner=201)),  # from a browser only
]


@pytest.fixture
def roles(alice, bob, carol) -> dict[str, Caller]:
    token, _ = started(alice, bob)
    carol.ok("post", f"/tables/{token}/join", {})  # both seats are taken: carol watches
    callers = {
        "owner": browser("owner", alice),
        "opponent": program("opponent", bob),
        "spectator": program("spectator", carol),
        "visitor": browser("visitor"),
        "other_account": program("other_account", account("dave@example.com")),
        "staff": program("staff", account("staff@example.com", staff=True)),
    }
    for caller in callers.values():
        caller.api("get", "/me")  # an account's player row is made on its first request
    callers["token"] = token  # type: ignore[assignment]
    return callers


def with_version(body: Any, token: str) -> Any:
    if not isinstance(body, dict):
        return body
    version = Table.objects.get(invite_token=token).version
    return {key: version if value == "{version}" else value for key, value in body.items()}


def request_as(caller: Caller, method: str, path: str, body: Any, token: str):
    before = database_fingerprint()
    response = caller.api(method, path, with_version(body, token))
    if response.status_code >= 400:
        data = response.json()
        assert data["error"] and data["detail"], data
        assert not changed_models(before, database_fingerprint()), (
            f"{caller.role} {method} {path} changed rows"
        )
    return response


@pytest.mark.parametrize("role", ROLES)
def test_table_endpoints_answer_each_role_as_the_matrix_says(roles, role) -> None:
    token = roles["token"]
    for method, suffix, body, statuses in PLAYING_MATRIX:
        if suffix == "/resign" and role in SEATED:
            continue  # it ends the match: checked on its own below
        response = request_as(roles[role], method, f"/tables/{token}{suffix}", body, token)
        assert response.status_code == statuses[role], (role, method, suffix, response.content[:200])


@pytest.mark.parametrize("role", ROLES)
def test_account_endpoints_answer_each_role_as_the_matrix_says(roles, role) -> None:
    for method, path, body, statuses in ACCOUNT_MATRIX:
        response = request_as(roles[role], method, path, body, roles["token"])
        assert response.status_code == statuses[role], (role, method, path, response.content[:200])


@pytest.mark.parametrize("role", SEATED)
def test_either_player_may_resign(roles, role) -> None:
    token = roles["token"]
    response = request_as(
        roles[role], "post", f"/tables/{token}/resign", {"expected_version": "{version}"}, token
    )
    assert response.status_code == 200
    assert response.json()["match"]["outcome"] == "resigned"


def test_only_the_player_to_move_moves(roles) -> None:
    token = roles["token"]
    state = roles["owner"].api("get", f"/tables/{token}").json()
    to_play = state["deal"]["view"]["to_play"]
    mover_role = SEATED[to_play]  # alice, the owner, sits in seat 0
    mover_state = roles[mover_role].api("get", f"/tables/{token}").json()
    move = {"action": mover_state["deal"]["view"]["legal_actions"][0], "expected_version": state["version"]}
    expected = outcome(403, 403, 401, **{mover_role: 200})
    for role in sorted(ROLES, key=lambda name: name == mover_role):  # the mover last: it changes the table
        response = request_as(roles[role], "post", f"/tables/{token}/moves", move, token)
        assert response.status_code == expected[role], (role, response.content[:200])


def test_a_revoked_or_unknown_token_is_refused(roles) -> None:
    opponent = roles["opponent"]
    assert opponent.api("get", "/me").status_code == 200
    forged = Caller("forged", opponent.client, bearer="gm_" + "x" * 43)
    assert forged.api("get", "/me").status_code == 401
