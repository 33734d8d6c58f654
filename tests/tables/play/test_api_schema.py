"""The API's schema tells the truth: every operation declares its success body and the errors
it can answer with, and the declared bodies are what tables.play.payloads builds, field for field
(django-ninja validates each answer through its schema and sends only the fields it names)."""

from __future__ import annotations

import random
from typing import Any

import pytest

import rules
from tables.accounts import payloads as account_payloads
from tables.accounts.models import Player
from tables.api import api
from tables.play import payloads, selectors
from tables.play.models import ChatMessage, Deal, Match, Move, Table
from tables.play.schemas import MatchRecordOut
from tables.play.state_schema import CoachOut, DealViewOut, GroupingOut, ScoreRowOut, TableStateOut
from tests.tables.helpers import ApiClient, make_account_client, open_table, play_deal, started

UNSAFE = {"post", "put", "patch", "delete"}
ERROR_SCHEMAS = {"ErrorOut", "ConflictOut", "RateLimitedOut"}
SCHEMA = api.get_openapi_schema()
OPERATIONS = [(method, path, op) for path, ops in SCHEMA["paths"].items() for method, op in ops.items()]


def body_schema(response: dict[str, Any]) -> str:
    return response["content"]["application/json"]["schema"]["$ref"].rsplit("/", 1)[-1]


@pytest.mark.parametrize(
    ("method", "path", "operation"), OPERATIONS, ids=[f"{m} {p}" for m, p, _ in OPERATIONS]
)
def test_every_operation_declares_its_success_and_error_bodies(method, path, operation):
    responses = {int(status): response for status, response in operation["responses"].items()}
    success = [status for status in responses if status < 300]
    assert len(success) == 1, (method, path, sorted(responses))
    assert body_schema(responses[success[0]]) not in ERROR_SCHEMAS
    # Any request may carry a NUL or a bad parameter (400) or an unknown API token (401); an
    # unsafe one may fail the CSRF check (403); a table's path may name no table (404).
    expected = {400, 401} | ({403} if method in UNSAFE else set()) | ({404} if "{token}" in path else set())
    errors = {status for status in responses if status >= 400}
    assert expected <= errors, (method, path, sorted(errors))
    assert errors <= {400, 401, 403, 404, 409, 413, 429}
    for status in errors:
        assert body_schema(responses[status]) in ERROR_SCHEMAS, (method, path, status)


def test_the_error_bodies_and_the_verbs_answers():
    schemas = SCHEMA["components"]["schemas"]
    assert set(schemas["ErrorOut"]["required"]) == {"error", "detail"}
    assert "field" in schemas["ErrorOut"]["properties"]
    assert "state" in schemas["ConflictOut"]["properties"]
    assert "retry_after" in schemas["RateLimitedOut"]["required"]
    chat = SCHEMA["paths"]["/api/tables/{token}/chat"]["post"]["responses"]
    assert body_schema(chat[413]) == "ErrorOut" and body_schema(chat[429]) == "RateLimitedOut"
    for verb in (
        "bot",
        "leave",
        "start",
        "next-deal",
        "resign",
        "more-time",
        "rematch/offer",
        "rematch/decline",
    ):
        responses = SCHEMA["paths"][f"/api/tables/{{token}}/{verb}"]["post"]["responses"]
        assert body_schema(responses[200]) == "TableStateOut", verb
        assert body_schema(responses[409]) == "ConflictOut", verb


def test_the_state_schema_names_the_main_properties():
    schemas = SCHEMA["components"]["schemas"]
    state = schemas["TableStateOut"]
    main = {"table", "version", "status", "you", "owner", "options", "seats", "match", "deal", "rematch"}
    assert main == set(state["properties"]) == set(state["required"])
    deal = {
        "number",
        "status",
        "deadline",
        "seconds_left",
        "paused_left",
        "more_time_given",
        "view",
        "coach",
        "dead_hands",
        "log",
        "history_from",
    }
    assert deal == set(schemas["DealStateOut"]["properties"])
    view = {
        "seat",
        "hand",
        "hand_counts",
        "discard_pile",
        "stock_count",
        "history",
        "legal_actions",
        "result",
    }
    assert view <= set(schemas["DealViewOut"]["properties"])
    match = {"totals", "score_sheet", "final_scores", "dealer_next", "timeouts_in_row"}
    assert match <= set(schemas["MatchStateOut"]["properties"])
    assert set(schemas["RematchOut"]["properties"]) == {"offered_by", "declined_by", "expires_at"}
    assert set(schemas["SeatOut"]["properties"]) == {
        "name",
        "is_bot",
        "bot_level",
        "is_guest",
        "is_bot_account",
        "vacation_until",
        "player_url",
    }


def same_through(schema: type, data: dict[str, Any]) -> None:
    """``data`` comes out of ``schema``'s validation exactly as it went in."""
    assert schema.model_validate(data).model_dump() == data


@pytest.mark.slow  # some 5 s of random deals
def test_the_engine_dicts_pass_their_schemas_unchanged():
    """Views of random deals for both seats and a spectator at every step (showdowns and dead
    deals included), with the coach and the dead hands, and the match records they make."""
    rng = random.Random(7)
    outcomes = set()
    for name in sorted(rules.RULESETS):
        outcomes |= _check_deals(rules.RULESETS[name], rng)
    assert "dead" in outcomes and outcomes - {"dead"}, outcomes


def _check_deals(ruleset: rules.Ruleset, rng: random.Random) -> set[str]:
    match = rules.Match.new(ruleset, first_dealer=0)
    outcomes = set()
    for _ in range(8):
        if match.is_over:
            match = rules.Match.new(match.ruleset, first_dealer=0)
        deal = rules.Deal.new(match.ruleset, match.dealer, rng.sample(rules.CARDS, 52))
        while True:
            for seat in (0, 1, None):
                view = deal.view(seat)
                same_through(DealViewOut, view.to_dict())
                coach = payloads.coach(view)
                if coach is not None:
                    same_through(CoachOut, coach)
                for hand in payloads.dead_hands(view) or ():
                    same_through(GroupingOut, hand)
            if deal.is_over:
                break
            deal, _ = deal.apply(_some_action(deal, rng))
        outcomes.add(deal.outcome)
        match = match.record(deal)
        for row in match.score_sheet:
            same_through(ScoreRowOut, row.to_dict())
        same_through(MatchRecordOut, match.to_dict())
    return outcomes


def _some_action(deal: rules.Deal, rng: random.Random) -> rules.Action | str:
    """Knock or go gin when allowed, mostly the best discard, otherwise anything legal."""
    legal = deal.legal_actions()
    ending = [action for action in legal if str(action).split()[0] in ("big_gin", "knock")]
    if ending and rng.random() < 0.3:
        return ending[0]
    view = deal.view(deal.to_play)
    if deal.phase == "discard" and rng.random() < 0.8:
        assert view.hand is not None
        return f"discard {rules.best_discard(view.hand, exclude=view.just_taken).card}"
    return rng.choice(legal)


# -- through the API -------------------------------------------------------------------------


def _timeless(data: Any) -> Any:
    """``data`` without ``seconds_left``: the clock may tick between the answer and the check."""
    if isinstance(data, dict):
        return {key: _timeless(value) for key, value in data.items() if key != "seconds_left"}
    if isinstance(data, list):
        return [_timeless(value) for value in data]
    return data


def player_of(client: ApiClient) -> Player:
    return Player.objects.get(user=client.user)


def as_built(token: str, client: ApiClient | None) -> dict[str, Any]:
    table = Table.objects.get(invite_token=token)
    return payloads.table_state(table, None if client is None else player_of(client))


def assert_state_is_the_payload(token: str, client: ApiClient, watcher: ApiClient) -> None:
    for viewer in (client, watcher):
        state = viewer.state(token)
        same_through(TableStateOut, state)
        built = as_built(token, viewer if viewer is client else None)
        assert _timeless(state) == _timeless(built)


@pytest.mark.django_db
def test_the_api_sends_every_field_the_payloads_build(alice, bob):
    stranger = ApiClient(name="stranger")  # a visitor without a name: watches as nobody
    created = open_table(alice, ruleset="classic", target=100, visibility="public")
    token = created["table"]
    assert created == as_built(token, alice)
    assert_state_is_the_payload(token, alice, stranger)  # waiting
    lobby = stranger.ok("get", "/lobby")
    assert lobby == {"tables": [payloads.lobby_row(table) for table in selectors.lobby_tables()]}

    token, players = started(alice, bob, ruleset="playgridia", target=100)
    seat = as_built(token, alice)["deal"]["view"]["to_play"]
    mover = players[seat]
    legal = mover.state(token)["deal"]["view"]["legal_actions"]
    version = mover.state(token)["version"]
    moved = mover.ok("post", f"/tables/{token}/moves", {"action": legal[0], "expected_version": version})
    move = Move.objects.filter(deal__match__table__invite_token=token).latest("seq")
    assert moved["move"] == payloads.move_summary(move, seat)
    assert _timeless(moved["state"]) == _timeless(as_built(token, mover))
    assert moved["events"] and all(
        set(event) == {"kind", "seat", "card", "result"} for event in moved["events"]
    )
    assert_state_is_the_payload(token, alice, stranger)  # playing
    log = alice.ok("get", f"/tables/{token}/moves")
    deal = Deal.objects.get(match__table__invite_token=token)
    own = Table.objects.get(invite_token=token).seat_of(player_of(alice))
    assert log == {
        "deal": deal.number,
        "moves": [payloads.move_summary(m, own) for m in deal.moves.order_by("seq")],
    }

    play_deal(token, players)
    assert as_built(token, alice)["status"] == "between_deals"
    assert_state_is_the_payload(token, alice, stranger)
    said = alice.ok("post", f"/tables/{token}/chat", {"text": "bien jugado"}, status=201)
    assert said == payloads.chat_message(ChatMessage.objects.get())
    assert alice.ok("get", f"/tables/{token}/chat") == {"messages": [said]}
    alice.ok("post", f"/tables/{token}/resign", {})
    alice.ok("post", f"/tables/{token}/rematch/offer", {})
    assert_state_is_the_payload(token, bob, stranger)  # the match over, a rematch offered
    assert as_built(token, bob)["rematch"]["expires_at"] is not None

    match = Match.objects.get(table__invite_token=token)
    exported = alice.ok("get", f"/tables/{token}/matches/1/export")
    built = payloads.match_export(match)
    assert exported == {**built, "deals": [deal for deal in built["deals"] if deal["outcome"]]}
    assert alice.ok("get", f"/tables/{token}/matches/1/deals/1/export") == exported["deals"][0]
    rows = alice.ok("get", "/me/tables")["tables"]
    assert _timeless(rows) == _timeless(
        [
            payloads.my_table_row(Table.objects.get(invite_token=row["table"]), player_of(alice))
            for row in rows
        ]
    )
    assert alice.ok("get", "/me") == account_payloads.profile(player_of(alice))


@pytest.mark.django_db
def test_the_api_sends_the_token_rows_whole(settings):
    owner = make_account_client("carol@example.com")
    owner.ok("get", "/me")
    created = owner.ok("post", "/tokens", {"name": "my bot"}, status=201)
    assert set(created) == {
        "id",
        "name",
        "prefix",
        "scope",
        "created_at",
        "expires_at",
        "last_used_at",
        "token",
    }
    listed = owner.ok("get", "/tokens")["tokens"]
    assert listed == [{key: value for key, value in created.items() if key != "token"}]
    assert owner.ok("delete", f"/tokens/{created['id']}") == {"revoked": created["id"]}
    assert owner.ok("get", "/me/push/key") == {"public_key": settings.VAPID_PUBLIC_KEY or None}


@pytest.mark.django_db
def test_every_operation_really_gives_the_errors_it_always_declares(alice, bob):
    """An unknown API token is 401 and a NUL in the query 400 at every operation, as declared."""
    token, _ = started(alice, bob)
    concrete = {"{token}": token, "{match_number}": "1", "{deal_number}": "1", "{token_id}": "1"}
    unknown = ApiClient(token="gm_unknown")
    for method, path, operation in OPERATIONS:
        for name, value in concrete.items():
            path = path.replace(name, value)
        path = path.removeprefix("/api")
        body = None if method == "get" else {}
        assert {400, 401} <= set(operation["responses"]), path
        assert unknown.request(method, path, body).status_code == 401, path
        refused = alice.request(method, f"{path}?note=%00", body)
        assert (refused.status_code, refused.json()["error"]) == (400, "invalid_input"), path
