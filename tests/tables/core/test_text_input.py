"""Text no field accepts, anywhere in a request, is refused with a 400 naming the field and
changes nothing: a NUL (PostgreSQL cannot store it: before, a push subscription with one
answered 500), a lone surrogate (the database driver cannot encode it: before, a chat message
with one answered 500), other control characters; and JSON nested too deep to parse."""

import pytest
from django.test import Client

from tables.accounts.models import Player
from tables.core.text_input import MAX_JSON_DEPTH, json_too_deep, text_location, text_problem
from tables.play.models import ChatMessage, Table
from tests.tables.helpers import ApiClient, make_account_client, open_table, started, to_play


def test_text_location_names_the_path_inside_a_json_value_and_the_problem():
    assert text_location({"a": [1, {"b": "x\x00"}]}) == (("a", "1", "b"), "must not contain a NUL character")
    assert text_location({"k\x00": 1}) == (("k",), "must not contain a NUL character")
    assert text_location({"a": ["fine\n\ttoo", 3, None]}) is None
    assert text_location(["ok", "\ud800"]) == (("1",), "must be valid Unicode (it holds a lone surrogate)")
    assert text_location({"a": "ok", "b": ["\x1b[31m"]}) == (
        ("b", "0"),
        "must not contain control characters (U+001B)",
    )


def test_text_problem_lets_ordinary_text_and_whitespace_through_where_a_field_allows_it():
    assert text_problem("Añadir 🂡 — «hola»\u2028") is None
    assert text_problem("two\tcolumns\r\nlines") is None
    assert text_problem("a\nb", one_line=True) == "must not contain control characters (U+000A)"
    for refused in ("\x00", "\x07", "\x7f", "\x85", "\x9f", "\ud800", "\udfff"):
        assert text_problem(f"x{refused}y") is not None, repr(refused)


def test_json_depth_is_counted_on_the_text_without_the_brackets_in_strings():
    assert json_too_deep("[" * (MAX_JSON_DEPTH + 1))
    assert not json_too_deep("[" * MAX_JSON_DEPTH + "]" * MAX_JSON_DEPTH)
    assert json_too_deep(b'{"a": ' * (MAX_JSON_DEPTH + 1))
    assert not json_too_deep('["' + "[" * 100 + '"]')
    assert not json_too_deep('["\\"' + "[" * 100 + '"]')  # an escaped quote does not end the string
    assert json_too_deep('["\\\\", ' + "[" * 100)  # an escaped backslash does not escape the quote
    assert json_too_deep("]" * 100 + "[" * (MAX_JSON_DEPTH + 1))  # closing first earns no credit


@pytest.mark.django_db
def test_a_json_body_with_nul_is_refused_naming_the_field_and_nothing_is_stored():
    alice = make_account_client("nul@example.com")
    token = open_table(alice)["table"]
    response = alice.post(f"/tables/{token}/chat", {"text": "hello\x00world"})
    assert response.status_code == 400
    assert response.json()["field"] == "text"
    assert "NUL" in response.json()["detail"]
    assert ChatMessage.objects.count() == 0


@pytest.mark.django_db
def test_a_push_subscription_with_nul_is_refused():
    alice = make_account_client("push-nul@example.com")
    body = {"endpoint": "https://push.example/\x00", "keys": {"p256dh": "x", "auth": "y"}}
    response = alice.post("/me/push/subscriptions", body)
    assert response.status_code == 400
    assert response.json()["error"] == "invalid_input"


@pytest.mark.django_db
def test_a_url_or_query_with_nul_is_refused_before_any_view():
    client = ApiClient(Client())
    assert client.get("/tables/ab%00cd").status_code == 400
    response = client.get("/me/tables?x=%00")
    assert (response.status_code, response.json()["field"]) == (400, "x")


@pytest.mark.django_db
def test_a_form_field_with_nul_is_refused_and_no_table_is_opened():
    client = Client()
    response = client.post("/new/", {"name": "Ann\x00", "ruleset": "playgridia"})
    assert response.status_code == 400
    assert response.json()["field"] == "name"
    assert Table.objects.count() == 0


def refused(response, field: str) -> dict:
    """The body of a 400 ``invalid_input`` naming ``field``."""
    assert response.status_code == 400, response.content[:300]
    body = response.json()
    assert (body["error"], body["field"]) == ("invalid_input", field)
    return body


@pytest.fixture
def chat(db):
    """A client with a table of its own to chat at: (client, token)."""
    owner = make_account_client("chat@example.com")
    return owner, open_table(owner)["table"]


def test_a_lone_surrogate_in_chat_is_400_not_500_and_nothing_is_stored(chat):
    alice, token = chat
    assert (
        "surrogate"
        in refused(alice.post(f"/tables/{token}/chat", {"text": "hello \ud800"}), "text")["detail"]
    )
    assert ChatMessage.objects.count() == 0


def test_chat_keeps_newlines_and_tabs_but_not_other_control_characters(chat):
    alice, token = chat
    assert "U+0007" in refused(alice.post(f"/tables/{token}/chat", {"text": "ding\x07"}), "text")["detail"]
    posted = alice.ok("post", f"/tables/{token}/chat", {"text": "two\tcolumns\nand a line"}, status=201)
    assert posted["text"] == "two\tcolumns\nand a line"
    assert ChatMessage.objects.count() == 1


@pytest.mark.parametrize("name", ["Ann\x1b[31m", "Ann\nBob", "Ann\tBob", "Ann\ud800", "Ann\x85"])
def test_a_display_name_with_a_control_character_or_a_surrogate_is_400(chat, name):
    alice, _ = chat
    before = alice.ok("get", "/me")["display_name"]
    refused(alice.request("patch", "/me", {"display_name": name}), "display_name")
    assert alice.ok("get", "/me")["display_name"] == before


def test_a_guest_name_with_a_control_character_is_400_and_no_guest_is_made(chat):
    _, token = chat
    guest = ApiClient(Client())
    for name in ("Eve\x08", "Eve\nline"):
        refused(guest.post(f"/tables/{token}/join", {"name": name}), "name")
    assert not Player.objects.filter(user__isnull=True).exists()


def test_a_token_name_with_a_control_character_is_400(chat):
    alice, _ = chat
    refused(alice.post("/tokens", {"name": "bot\ttoken"}), "name")
    assert alice.ok("get", "/tokens")["tokens"] == []


def test_a_json_body_nested_too_deep_is_400_before_it_is_parsed(chat):
    alice, token = chat
    for raw in ("[" * 100_000, '{"text": ' * 1000 + '"x"' + "}" * 1000):
        refused(alice.post(f"/tables/{token}/chat", raw=raw), "body")
    assert ChatMessage.objects.count() == 0


@pytest.mark.django_db
def test_a_form_field_or_query_with_a_control_character_is_refused_before_any_view():
    response = Client().post("/new/", {"name": "Ann\x1b", "ruleset": "playgridia"})
    assert "U+001B" in refused(response, "name")["detail"]
    refused(ApiClient(Client()).get("/lobby?page=%07"), "page")
    assert Table.objects.count() == 0


@pytest.mark.django_db
def test_the_page_forms_refuse_a_name_on_two_lines_with_a_message():
    response = Client().post("/new/", {"name": "Ann\nBob", "ruleset": "playgridia"}, follow=True)
    assert response.status_code == 200
    assert Table.objects.count() == 0 and not Player.objects.exists()
    assert "control characters" in response.content.decode()


@pytest.mark.django_db
def test_the_page_move_form_refuses_odd_numbers_and_long_ids_with_a_message(alice, bob):
    token, seats = started(alice, bob)
    player, _, state = to_play(token, seats)
    version = state["version"]
    for form in (
        {"action": "pass", "expected_version": "²"},  # a digit to str.isdigit, not to int()
        {"action": "pass", "expected_version": str(version), "client_move_id": "m" * 65},
    ):
        response = player.client.post(f"/t/{token}/move/", form, follow=True)
        assert response.status_code == 200
    assert "client_move_id: 1 to 64 characters." in response.content.decode()
    assert player.state(token)["version"] == version
