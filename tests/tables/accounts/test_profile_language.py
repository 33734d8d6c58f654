"""The profile's language follows the player to a new browser; a browser's own choice wins."""

import pytest
from allauth.account.models import EmailAddress
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import translation

from tables.accounts.identity import player_for_user
from tables.accounts.models import Player

PASSWORD = "a long enough password 1"


def english_account(email: str):
    user = get_user_model().objects.create_user(username=email.split("@")[0], email=email, password=PASSWORD)
    EmailAddress.objects.create(user=user, email=email, verified=True, primary=True)
    player = player_for_user(user)
    player.language = "en"
    player.save(update_fields=["language"])
    return user


def log_in(client: Client, email: str):
    return client.post("/accounts/login/", {"login": email, "password": PASSWORD})


@pytest.mark.django_db
def test_logging_in_on_a_new_browser_answers_in_the_profile_language():
    english_account("lang@example.com")
    client = Client(headers={"accept-language": "es"})
    response = log_in(client, "lang@example.com")
    assert response.status_code == 302
    assert response.cookies[settings.LANGUAGE_COOKIE_NAME].value == "en"
    assert 'lang="en"' in client.get("/").content.decode()


@pytest.mark.django_db
def test_a_language_chosen_on_this_browser_is_kept_at_log_in():
    english_account("keep@example.com")
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "es"
    response = log_in(client, "keep@example.com")
    assert settings.LANGUAGE_COOKIE_NAME not in response.cookies
    assert 'lang="es"' in client.get("/").content.decode()


@pytest.mark.django_db
def test_a_new_profile_starts_in_the_language_the_page_was_shown_in():
    client = Client(headers={"accept-language": "en"})
    client.post("/new/", {"name": "Ann", "ruleset": "playgridia"})
    assert Player.objects.get(display_name="Ann").language == "en"


@pytest.mark.django_db
def test_choosing_english_on_the_profile_answers_in_english_and_leaves_no_language_behind():
    """The profile page answers in the language just chosen, for that response only: the
    thread that served it must not stay in English (a test client, a WSGI worker or a later
    test would then run in the previous visitor's language)."""
    user = english_account("switch@example.com")
    player = player_for_user(user)
    player.language = "es"
    player.save(update_fields=["language"])
    client = Client()
    client.force_login(user)
    response = client.post("/me/profile/", {"language": "en"})
    assert response.status_code == 200
    page = response.content.decode()
    assert 'lang="en"' in page and "Saved." in page and response["Content-Language"] == "en"
    assert response.cookies[settings.LANGUAGE_COOKIE_NAME].value == "en"
    assert translation.get_language() == settings.LANGUAGE_CODE  # the request came in Spanish
    newcomer = get_user_model().objects.create_user(username="newcomer", email="newcomer@example.com")
    assert player_for_user(newcomer).language == "es"  # created outside any request: the default
    assert 'lang="en"' in client.get("/").content.decode()  # the browser keeps its choice
