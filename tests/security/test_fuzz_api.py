"""Fuzzing the JSON API from its own OpenAPI schema (schemathesis), in process.

Every operation of the schema gets generated valid and invalid requests, anonymous, with an API
token (the six roles' programs) and with a browser's session, aimed at a table in the middle of
a match. Whatever comes in: never a 5xx (schemathesis' ``not_a_server_error``); every status is
one the schema documents for that operation (``status_code_conformance``); every error is one of
docs/api.md's 4xx with a JSON body naming the error and saying why; and a refused request
changes no row of the database. A stateful run then follows the schema's links (the table a POST
/api/tables answers with) through sequences of calls."""

from __future__ import annotations

import json
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from requests import Request
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.config._phases import InferenceConfig
from schemathesis.core.transport import Response
from schemathesis.specs.openapi.checks import status_code_conformance

from tables.accounts.models import ApiToken
from tables.api import api
from tables.core.text_input import text_problem
from tables.play import engine
from tables.play.models import Table
from tests.tables.helpers import started

from .callers import Caller, account, browser, program
from .fingerprint import changed_models, database_fingerprint

pytestmark = pytest.mark.django_db

# docs/api.md, "Errors": each status and the codes it may carry.
DOCUMENTED_ERRORS = {
    400: {"invalid_json", "invalid_input", "bad_request", "illegal_move"},
    401: {"not_authenticated"},
    403: {"forbidden", "csrf_failed", "reauthentication_required"},
    404: {"not_found"},
    409: {"conflict", "stale_version"},
    413: {"too_large"},
    429: {"rate_limited"},
}
EXAMPLES_PER_OPERATION = 10
EXAMPLES = {"POST /api/tables/{token}/moves": 50}
SCHEMA_CHECKS = [not_a_server_error, status_code_conformance]
# Who calls: nobody identified, programs with an API token, browsers with a session (CSRF on).
AUTHS = ("anonymous", "token", "session")


def api_schema() -> schemathesis.BaseSchema:
    return schemathesis.openapi.from_dict(api.get_openapi_schema())


OPERATIONS = [result.ok() for result in api_schema().get_all_operations()]


def test_the_fuzzer_covers_every_operation_of_the_schema() -> None:
    paths = api.get_openapi_schema()["paths"]
    in_schema = {f"{method.upper()} {path}" for path, methods in paths.items() for method in methods}
    assert {operation.label for operation in OPERATIONS} == in_schema
    assert len(in_schema) >= 28


@pytest.fixture
def arena(alice, bob, carol) -> dict[str, Any]:
    """A started match (alice owns seat 0, bob sits), a spectator, a stranger, staff and a visitor,
    grouped by how they call: anonymous, with an API token, with a session."""
    token, _ = started(alice, bob)
    carol.ok("post", f"/tables/{token}/join", {})  # seats are full: carol watches
    dave, staff = account("dave@example.com"), account("staff@example.com", staff=True)
    by_auth = {
        "anonymous": [browser("visitor")],
        "token": [
            program("owner", alice),
            program("opponent", bob),
            program("spectator", carol),
            program("other_account", dave),
            program("staff", staff),
        ],
        "session": [browser("owner", alice), browser("opponent", bob), browser("staff", staff)],
    }
    for caller in by_auth["token"]:
        caller.api("get", "/me")  # an account's player row is made on its first request
    token_ids = list(ApiToken.objects.order_by("pk").values_list("pk", flat=True))
    # The stateful run's two players take turns: the owner in her browser, the opponent's program.
    players = [by_auth["session"][0], by_auth["token"][1]]
    return {"token": token, "by_auth": by_auth, "callers": players, "token_ids": token_ids}


def send_case(caller: Caller, case: Any):
    body = (
        case.body if isinstance(case.body, (dict, list, str, int, float, bool)) or case.body is None else None
    )
    raw = None
    if isinstance(case.body, (bytes, bytearray)):
        raw = bytes(case.body)
    elif body is not None:
        raw = json.dumps(body).encode()
    return caller.send(case.method.lower(), case.formatted_path, query=case.query or None, raw=raw)


def schemathesis_response(case: Any, reply) -> Response:
    """A Django test client's answer as schemathesis' transport gives it, for its checks."""
    request = Request(case.method, f"http://testserver{case.formatted_path}").prepare()
    headers = {name.lower(): [value] for name, value in reply.headers.items()}
    return Response(reply.status_code, headers, reply.content, request, 0.0, True)


def check_response(response, before: dict, label: str, case: Any = None) -> None:
    status = response.status_code
    assert status < 500, f"{label}: {status} {response.content[:300]!r}"
    if case is not None:  # schemathesis' own: no server error, a status this operation documents
        answer = response if isinstance(response, Response) else schemathesis_response(case, response)
        case.validate_response(answer, checks=SCHEMA_CHECKS)
    if status < 400:
        return
    assert status in DOCUMENTED_ERRORS, f"{label}: undocumented status {status}"
    data = response.json()
    assert data["error"] in DOCUMENTED_ERRORS[status], f"{label}: {status} with code {data['error']!r}"
    assert isinstance(data["detail"], str) and data["detail"].strip(), f"{label}: an error without a message"
    changed = changed_models(before, database_fingerprint())
    assert not changed, f"{label}: answered {status} {data['error']} but changed {changed}"


def seat_to_play(arena: dict[str, Any], auth: str) -> Caller:
    """The owner or the opponent calling as ``auth``, whichever is to play now (else the owner);
    anonymous: the visitor."""
    callers = arena["by_auth"][auth]
    if auth == "anonymous":
        return callers[0]
    table = Table.objects.select_related("current_deal").get(invite_token=arena["token"])
    to_play = table.current_deal.to_play if table.current_deal else None
    owner, opponent = callers[:2]
    return opponent if to_play == 1 else owner


def live_facts(token: str) -> tuple[int, list[str]]:
    """The table's version and the legal actions of the seat to play."""
    table = Table.objects.select_related("current_deal").get(invite_token=token)
    deal = table.current_deal
    legal = [] if deal is None else [str(action) for action in engine.load_deal(deal).legal_actions()]
    return table.version, legal


def aim(case: Any, arena: dict[str, Any], version_now: bool, pick: int | None) -> None:
    """Point a request at the live table, its first match and deal and a real token id; with
    ``version_now`` at the current version, and with ``pick`` a legal action: so the fuzzer
    reaches the engine and the services instead of stopping at 404 and 409."""
    path = case.path_parameters or {}
    for name, value in {"token": arena["token"], "match_number": 1, "deal_number": 1}.items():
        if name in path:
            path[name] = value
    if "token_id" in path:
        generated = path["token_id"] if isinstance(path["token_id"], int) else 0
        path["token_id"] = arena["token_ids"][generated % len(arena["token_ids"])]
    if not isinstance(case.body, dict):
        return
    case.body = plain_text(case.body)  # past the text check (its own tests), on to the table
    version, legal = live_facts(arena["token"])
    if version_now and "expected_version" in case.body:
        case.body["expected_version"] = version
    if pick is not None and legal and "action" in case.body:
        case.body["action"], case.body["card"] = legal[pick % len(legal)], None


def refuse_legal(case: Any, arena: dict[str, Any]) -> None:
    """A move body's action made one the engine refuses now: a draw while discarding, a pass
    or the upcard after the offer round, the stock during it."""
    _, legal = live_facts(arena["token"])
    if isinstance(case.body, dict) and "action" in case.body and legal:
        candidates = ("pass", "take_upcard", "draw_stock", "take_discard")
        case.body["action"] = next(action for action in candidates if action not in legal)
        case.body["card"] = None


def test_the_schema_checks_refuse_a_server_error_and_an_undocumented_status() -> None:
    """A control: the checks the fuzzer runs fail on a 500 and on a status the operation's
    responses do not list (GET /api/me documents no 409), and pass a documented one."""

    class Reply:
        def __init__(self, status: int) -> None:
            self.status_code, self.content = status, b'{"error": "x", "detail": "x"}'
            self.headers = {"Content-Type": "application/json"}

    operation = next(op for op in OPERATIONS if op.label == "GET /api/me")
    case = operation.Case()
    case.validate_response(schemathesis_response(case, Reply(401)), checks=SCHEMA_CHECKS)
    for status, failure in ((409, "Undocumented status code"), (500, "Server error")):
        with pytest.raises(BaseExceptionGroup) as raised:
            case.validate_response(schemathesis_response(case, Reply(status)), checks=SCHEMA_CHECKS)
        assert failure in str(raised.value.exceptions), status


@pytest.mark.slow  # 270 fuzzing runs, some 2 minutes in all
@pytest.mark.parametrize("auth", AUTHS)
@pytest.mark.parametrize("mode", [GenerationMode.POSITIVE, GenerationMode.NEGATIVE], ids=str)
@pytest.mark.parametrize("operation", OPERATIONS, ids=lambda op: op.label)
def test_the_api_answers_hostile_requests_with_documented_errors(arena, operation, mode, auth) -> None:
    @settings(
        max_examples=EXAMPLES_PER_OPERATION
        if auth == "anonymous"
        else EXAMPLES.get(operation.label, EXAMPLES_PER_OPERATION),
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(
        case=operation.as_strategy(generation_mode=mode),
        caller=st.sampled_from(arena["by_auth"][auth]),
        intent=st.sampled_from(["legal", "illegal", "aimed", "aimed", "as generated"]),
        pick=st.integers(0, 60),
    )
    def fuzz(case, caller: Caller, intent: str, pick: int) -> None:
        if intent == "legal":  # the seat to play, at the current version, a legal action
            caller = seat_to_play(arena, auth)
            aim(case, arena, version_now=True, pick=pick)
        elif intent == "illegal":  # the seat to play, at the current version, an action it may not play
            caller = seat_to_play(arena, auth)
            aim(case, arena, version_now=True, pick=None)
            refuse_legal(case, arena)
        elif intent == "aimed":  # the live table, with the generated body
            aim(case, arena, version_now=pick % 2 == 0, pick=None)
        before = database_fingerprint()
        response = send_case(caller, case)
        seen.append(response.json().get("error", "ok") if response.status_code >= 400 else "ok")
        check_response(response, before, f"{auth} {caller.role} {case.method} {case.formatted_path}", case)

    seen: list[str] = []
    fuzz()
    moves = operation.label == "POST /api/tables/{token}/moves"
    if moves and mode == GenerationMode.POSITIVE and auth != "anonymous":
        assert {"ok", "illegal_move", "stale_version"} <= set(seen), (
            f"the fuzzer never reached the engine: {sorted(set(seen))}"
        )


# -- stateful: sequences of linked calls -----------------------------------------------------


def linked_schema() -> schemathesis.BaseSchema:
    """The API's schema plus the links django-ninja does not write: the table a POST /api/tables
    answers with is the {token} of every table operation, and its version their expected_version."""
    raw = api.get_openapi_schema()
    paths = raw["paths"]
    links = {}
    for path, operations in paths.items():
        for method, operation in operations.items():
            if "{token}" not in path:
                continue
            link: dict[str, Any] = {
                "operationId": operation["operationId"],
                "parameters": {"path.token": "$response.body#/table"},
            }
            body = operation.get("requestBody", {}).get("content", {}).get("application/json", {})
            if body.get("schema", {}).get("$ref", "").endswith(("/VersionIn", "/MoveIn")):
                link["requestBody"] = {"expected_version": "$response.body#/version"}
            links[f"{method}{path}".replace("/", "_").replace("{", "").replace("}", "")] = link
    for source in (paths["/api/tables"]["post"], paths["/api/tables/{token}"]["get"]):
        for status, response in source["responses"].items():
            if int(status) < 300:  # an error's body names no table
                response["links"] = links
    schema = schemathesis.openapi.from_dict(raw)
    # Only these links: those schemathesis would infer from ids in the answers (a challenge's, a
    # match's) follow rows whose existence depends on what earlier steps left in the database
    # (a limit reached, an offer answered), so a replayed failure draws differently and
    # hypothesis reports FlakyStrategyDefinition instead of the failure.
    schema.config.phases.stateful.inference = InferenceConfig(algorithms=[])
    return schema


# Options that open a table only in some company (rated: two accounts; hollywood: a match to a
# target): the stateless fuzzer sends them every way; the sequences open tables they can follow.
SELECTIVE_TABLE_OPTIONS = ("rated", "hollywood")


def openable(body: Any) -> Any:
    """A POST /api/tables body with its text cleaned and without the selective options."""
    body = plain_text(body)
    if isinstance(body, dict):
        for name in SELECTIVE_TABLE_OPTIONS:
            body.pop(name, None)
    return body


def plain_text(value: Any) -> Any:
    """``value`` with the characters tables.core.text_input refuses taken out of its strings and keys."""
    if isinstance(value, str):
        return "".join(character for character in value if text_problem(character, one_line=True) is None)
    if isinstance(value, dict):
        return {plain_text(key): plain_text(item) for key, item in value.items()}
    if isinstance(value, list):
        return [plain_text(item) for item in value]
    return value


@pytest.mark.slow  # 50 sequences of 12 calls, some 15 s
def test_stateful_sequences_never_fail_the_server(arena) -> None:
    base = linked_schema().as_state_machine()
    followed: list[str] = []  # table operations answered 2xx at a table the sequence opened

    class Machine(base):  # type: ignore[misc, valid-type]
        def before_call(self, case) -> None:
            if case.method == "POST" and case.operation.path == "/api/tables":
                case.body = openable(case.body)  # the tables to follow are opened
            self.before = database_fingerprint()
            self.caller = arena["callers"][len(self.before["tables.Move"]) % 2]  # the players take turns

        def call(self, case, **kwargs):
            return schemathesis_response(case, send_case(self.caller, case))

        def validate_response(self, response, case, **kwargs) -> None:
            label = f"{self.caller.role} {case.method} {case.formatted_path}"
            check_response(response, self.before, label, case)
            token = (case.path_parameters or {}).get("token")
            if token and token != arena["token"] and response.status_code < 400:
                followed.append(f"{case.method} {case.operation.path}")

    Machine.TestCase.settings = settings(
        max_examples=50,
        stateful_step_count=12,
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    Machine.run(settings=Machine.TestCase.settings)
    assert len(set(followed)) >= 3, f"the links were hardly followed: {sorted(set(followed))}"
