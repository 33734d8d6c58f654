"""A NUL character anywhere in a request is refused with a 400 naming the field, and changes
nothing (PostgreSQL cannot store it: before this, a push subscription with one answered 500)."""

import pytest
from django.test import Client

from tables.models import ChatMessage, Table
from tables.text_input import nul_location

from .helpers import ApiClient, make_account_client, open_table


def test_nul_location_names_the_path_inside_a_json_value():
    assert nul_location({"a": [1, {"b": "x\x00"}]}) == ("a", "1", "b")
    assert nul_location({"k\x00": 1}) == ("k\x00",)
    assert nul_location({"a": ["fine", 3, None]}) is None


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
