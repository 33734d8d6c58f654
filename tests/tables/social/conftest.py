"""Fixtures of the social room's tests: three accounts, each an API client with its player."""

from __future__ import annotations

import pytest

from tables.accounts.identity import player_for_user
from tables.accounts.models import Player
from tests.tables.helpers import ApiClient, make_account_client


def named(client: ApiClient, name: str) -> ApiClient:
    """The client, its account's player renamed ``name`` and kept as ``client.player``."""
    player = player_for_user(client.user)
    Player.objects.filter(pk=player.pk).update(display_name=name)
    client.player = Player.objects.get(pk=player.pk)
    return client


@pytest.fixture
def ana(db) -> ApiClient:
    return named(make_account_client("ana@example.com"), "Ana")


@pytest.fixture
def ben(db) -> ApiClient:
    return named(make_account_client("ben@example.com"), "Ben")


@pytest.fixture
def carla(db) -> ApiClient:
    return named(make_account_client("carla@example.com"), "Carla")
