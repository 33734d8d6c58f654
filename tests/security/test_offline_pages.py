"""Hidden information in the app offline: a page the service worker may keep (its answer says
"Ginmesa-Offline: keep") names no card its player may not know. That no other view is marked
(a spectator's, a visitor's) is tests/tables/offline/test_offline_shell.py's."""

from __future__ import annotations

import pytest

from tables.offline import keeping
from tables.play import engine
from tables.play.models import Table
from tests.tables.helpers import cards_in, make_account_client, secret_cards, started

pytestmark = pytest.mark.django_db


def test_a_kept_table_page_is_its_seated_players_own_view():
    alice, bob = make_account_client("alice@example.com"), make_account_client("bob@example.com")
    token, players = started(alice, bob)
    deal = engine.load_deal(Table.objects.get(invite_token=token).current_deal)
    for seat, player in players.items():
        for path in (f"/t/{token}/", "/me/tables/"):
            response = player.client.get(path)
            assert response[keeping.KEEP_HEADER] == keeping.KEEP, path
            leaked = cards_in(response.content.decode()) & secret_cards(deal, seat)
            assert not leaked, f"seat {seat}'s kept {path} names hidden cards {leaked}"
            assert secret_cards(deal, seat)  # the scan had something to find
