"""API tokens with a scope and an optional expiry: a read-only token reads and watches but gets
403 ``missing_scope`` for anything else, over HTTP and on the table socket; an expired token is
refused (401, and the socket closes 4401); tokens made before scopes play, with no expiry."""

from __future__ import annotations

import datetime as dt
import importlib

import pytest
from django.apps import apps
from django.utils import timezone

from tables.accounts import identity
from tables.accounts.models import ApiToken
from tests.tables.helpers import ApiClient, open_table
from tests.tables.live.helpers import WAIT, communicator, connect, receive_type, run

pytestmark = pytest.mark.django_db(transaction=True)


def program(user, scope: str, expires_at: dt.datetime | None = None) -> ApiClient:
    _, raw = identity.issue_api_token(user, f"{scope} bot", scope, expires_at)
    program = ApiClient(token=raw)
    program.raw = raw
    return program


def test_a_read_only_token_reads_but_may_not_play(alice) -> None:
    reader, player = program(alice.user, "read"), program(alice.user, "play")
    assert reader.get("/me").status_code == 200
    assert reader.get("/me/tables").status_code == 200
    refused = reader.post("/tables", {})
    assert refused.status_code == 403
    assert refused.json()["error"] == "missing_scope" and '"play" scope' in refused.json()["detail"]
    assert reader.request("patch", "/me", {"display_name": "Robot"}).status_code == 403
    assert player.post("/tables", {}).status_code == 201


def test_an_expired_token_is_refused_over_http_and_on_the_socket(alice) -> None:
    later = program(alice.user, "play", timezone.now() + dt.timedelta(hours=1))
    assert later.get("/me").status_code == 200
    ApiToken.objects.filter(name="play bot").update(expires_at=timezone.now() - dt.timedelta(seconds=1))
    refused = later.get("/me")
    assert refused.status_code == 401 and "expired" in refused.json()["detail"]

    async def socket_refused() -> tuple[bool, int | None]:
        socket = communicator("/ws/me/", token=later.raw)
        connected, code = await socket.connect(timeout=WAIT)
        await socket.disconnect()
        return connected, code

    assert run(socket_refused) == (False, 4401)


def test_a_read_only_token_watches_its_table_but_moves_and_chat_are_refused(alice) -> None:
    table = open_table(alice)["table"]
    reader = program(alice.user, "read")

    async def body() -> None:
        socket = await connect(f"/ws/tables/{table}/", token=reader.raw)
        await receive_type(socket, "snapshot")
        await socket.send_json_to(
            {"type": "move", "action": "draw_stock", "expected_version": 1, "client_move_id": "m1"}
        )
        refused = await receive_type(socket, "error")
        assert (refused["status"], refused["code"], refused["client_move_id"]) == (403, "missing_scope", "m1")
        await socket.send_json_to({"type": "chat", "text": "hola"})
        assert (await receive_type(socket, "error"))["code"] == "missing_scope"
        await socket.send_json_to({"type": "action", "action": "resign", "request_id": "r1"})
        assert (await receive_type(socket, "error"))["code"] == "missing_scope"
        await socket.disconnect()

    run(body)


def test_tokens_are_made_with_a_scope_and_an_expiry_and_listed_with_their_last_use(alice) -> None:
    until = (timezone.now() + dt.timedelta(days=30)).replace(microsecond=0)
    made = alice.ok(
        "post", "/me/tokens", {"name": "reader", "scope": "read", "expires_at": until.isoformat()}, 201
    )
    assert (made["scope"], made["expires_at"], made["last_used_at"]) == ("read", until.isoformat(), None)
    ApiClient(token=made["token"]).get("/me")
    (row,) = alice.ok("get", "/me/tokens")["tokens"]
    assert row["scope"] == "read" and row["last_used_at"] is not None and "token" not in row
    past = alice.post("/me/tokens", {"name": "old", "expires_at": "2020-01-01T00:00:00Z"})
    assert past.status_code == 400 and past.json()["field"] == "expires_at"
    assert alice.post("/me/tokens", {"scope": "admin"}).status_code == 400
    far = alice.post("/me/tokens", {"name": "far", "expires_at": "9999-12-31T23:59:59-23:00"})
    assert far.status_code == 400 and far.json()["field"] == "expires_at"  # past what can be stored
    assert alice.ok("post", "/tokens", {"name": "as before"}, 201)["scope"] == "play"  # the old path
    schema = alice.client.get("/api/openapi.json").json()
    assert "scope" in schema["components"]["schemas"]["TokenIn"]["properties"]
    assert "/api/me/tokens" in schema["paths"] and "/api/me/sessions" in schema["paths"]


def test_the_profile_makes_a_token_shown_once(alice) -> None:
    page = alice.client.post(
        "/me/tokens/new/", {"name": "my script", "scope": "read", "last_day": "2099-12-31"}
    )
    assert page.status_code == 200
    raw = page.context["raw"]
    token = ApiToken.objects.get(name="my script")
    assert (token.scope, token.expires_at.year) == ("read", 2100)  # the end of that day, in UTC
    profile = alice.client.get("/me/profile/").content.decode()
    assert "my script" in profile and raw not in profile
    for day in ("nope", "9999-12-31"):
        refused = alice.client.post("/me/tokens/new/", {"name": "x", "scope": "read", "last_day": day})
        assert refused.status_code == 302
    assert not ApiToken.objects.filter(name="x").exists()


def test_tokens_made_before_scopes_play_with_no_expiry(alice) -> None:
    token, _ = identity.issue_api_token(alice.user, "old", "read", timezone.now() + dt.timedelta(days=1))
    migration = importlib.import_module("tables.migrations.0010_api_token_scopes")
    migration.existing_tokens_play(apps, None)
    token.refresh_from_db()
    assert (token.scope, token.expires_at) == ("play", None)
    assert ApiToken._meta.get_field("scope").default == "read"  # a row written without one only reads
