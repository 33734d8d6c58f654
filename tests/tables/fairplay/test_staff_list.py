"""The staff list of fair play: staff only, ranked by the signal, links to each account's last
matches and replays, and a fixed number of queries however many accounts it lists."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from bots.fairplay import ENOUGH
from tables.accounts.models import Player
from tables.fairplay.admin import BAND_MIN
from tables.fairplay.models import FairPlaySignal
from tables.ratings.models import Rating

pytestmark = pytest.mark.django_db

LIST = reverse("admin:tables_fairplaysignal_changelist")


def login(username: str, **flags: bool) -> Client:
    user = get_user_model().objects.create_user(
        username=username, password="a long enough password 1", **flags
    )
    client = Client()
    client.force_login(user)
    return client


def signals(count: int, start: int = 0) -> list[FairPlaySignal]:
    """``count`` accounts' signals, each linking to two recent matches of two deals (made up ids:
    the list links to them, it does not read them)."""
    rows = []
    for number in range(start, start + count):
        player = Player.objects.create(display_name=f"player{number}")
        rows.append(
            FairPlaySignal.objects.create(
                player=player,
                decisions=ENOUGH + number,
                enough=True,
                best_share=0.5,
                good_share=0.7,
                mean_loss=0.02 + number / 1000,
                recent=[
                    {"match": 900 + number, "deals": [10 * number, 10 * number + 1]},
                    {"match": 1, "deals": [5]},
                ],
            )
        )
    return rows


def test_only_staff_with_the_permission_see_the_list():
    signals(2)
    anonymous = Client().get(LIST)
    assert anonymous.status_code == 302 and "/admin/login/" in anonymous["Location"]
    player = login("nadia").get(LIST)
    assert player.status_code == 302 and "/admin/login/" in player["Location"]
    assert login("clerk", is_staff=True).get(LIST).status_code == 403
    assert login("boss", is_staff=True, is_superuser=True).get(LIST).status_code == 200


def test_the_list_ranks_by_the_signal_and_links_matches_and_replays():
    _, high = signals(2)
    FairPlaySignal.objects.filter(pk=high.pk).update(mean_loss=0.001)  # the most LUNA-like
    few = Player.objects.create(display_name="newcomer")
    FairPlaySignal.objects.create(
        player=few, decisions=3, enough=False, best_share=1.0, good_share=1.0, mean_loss=0.0, recent=[]
    )
    page = login("boss", is_staff=True, is_superuser=True).get(LIST).content.decode()
    assert page.index("player1") < page.index("player0") < page.index("newcomer")  # too few: last
    assert reverse("match_archive", args=[901]) in page
    assert reverse("admin:tables_match_change", args=[901]) in page
    assert reverse("replay", args=[10]) in page and reverse("replay", args=[11]) in page
    assert reverse("player", args=[high.player_id]) in page
    assert "the lowest" in page and "too few decisions" in page
    # read only: no way to add, change or delete a signal
    assert reverse("admin:tables_fairplaysignal_add") not in page and "action-select" not in page


def queries_to_list(client: Client) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert client.get(LIST).status_code == 200
    return len(queries)


def test_the_lists_query_count_is_fixed():
    staff = login("boss", is_staff=True, is_superuser=True)
    signals(2)
    queries_to_list(staff)  # the login's first request records its session
    few = queries_to_list(staff)
    signals(20, start=2)
    assert queries_to_list(staff) == few


def rated(rows: list[FairPlaySignal], rating: float, pace: str = "slow") -> None:
    for row in rows:
        Rating.objects.create(player_id=row.player_id, pace=pace, rating=rating, games=30)


def test_an_account_far_below_its_rating_bands_mean_loss_is_marked_and_filtered():
    """Compared with the accounts of its own rating band, not the whole site: the best account of
    a strong band is ordinary there, the best of a weak band with the same figures stands out."""
    strong, weak = signals(12), signals(12, start=12)
    rated(strong, 2110.0)
    rated(weak, 1420.0)
    for row in weak[:1]:
        FairPlaySignal.objects.filter(pk=row.pk).update(mean_loss=0.001)  # far below its band
    Rating.objects.create(player_id=weak[0].player_id, pace="live", rating=2500.0, games=2)  # less played
    staff = login("boss", is_staff=True, is_superuser=True)
    page = staff.get(LIST).content.decode()
    assert page.count("FAR BEYOND") == 1 and "FAR BEYOND (1400–1599)" in page
    assert "2000–2199: lower than" in page  # the strong band's best (player0): ordinary there
    flagged = staff.get(LIST, {"far_beyond": "yes"}).content.decode()
    assert "player12" in flagged
    assert not any(f"player{number}<" in flagged for number in range(1, 24) if number != 12)


def test_a_band_of_too_few_accounts_marks_nobody():
    rows = signals(BAND_MIN - 1)
    rated(rows, 1500.0)
    FairPlaySignal.objects.filter(pk=rows[0].pk).update(mean_loss=0.0)
    page = login("boss", is_staff=True, is_superuser=True).get(LIST).content.decode()
    assert "FAR BEYOND" not in page and "too few accounts to compare" in page
