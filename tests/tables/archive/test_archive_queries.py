"""The archive's pages ask the database a bounded number of questions however many matches
there are: 10,000 finished matches (run it with a PostgreSQL DATABASE_URL to measure there)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tables.play.models import Deal, Match
from tests.tables.helpers import assert_deals_replay, play_match, started

pytestmark = pytest.mark.django_db

MATCHES = 10_000
# Each page: the session, the account and its player, then its own reads (the match with its
# table and players, then its deals, or the deal and its move log; or a page of matches and
# their count). Measured: 5 to 6 for the pages, 5 to 7 for the API.
MAX_QUERIES = 7


@pytest.fixture(autouse=True)
def _every_deal_replays():
    """The suite's check, made affordable for 10,000 deals: the deals with a move log replay
    to their stored state, and every other deal is a copy of one of them."""
    yield
    played = list(Deal.objects.filter(moves__isnull=False).distinct())
    assert_deals_replay(played)
    snapshots = [deal.snapshot for deal in played]
    copies = Deal.objects.filter(moves__isnull=True).values_list("snapshot", flat=True).distinct()
    assert all(snapshot in snapshots for snapshot in copies)


@pytest.fixture
def archive(alice, bob):
    """One match played through the API, then 9,999 more finished ones at the same table,
    each with its deals (copies of the real rows; only the real deals have a move log)."""
    token, players = started(alice, bob)
    play_match(token, players)
    first = Match.objects.get(table__invite_token=token)
    deals = list(first.deals.order_by("number"))
    copies = Match.objects.bulk_create(
        [
            Match(
                table=first.table,
                number=number,
                ruleset=first.ruleset,
                first_dealer=first.first_dealer,
                record=first.record,
                status=Match.Status.OVER,
                outcome=first.outcome,
                winner=first.winner,
                final_scores=first.final_scores,
                timeouts_in_row=[0, 0],
                ended_at=first.ended_at,
            )
            for number in range(2, MATCHES + 1)
        ],
        batch_size=1000,
    )
    fields = (
        "ruleset",
        "dealer",
        "deck",
        "snapshot",
        "version",
        "phase",
        "status",
        "outcome",
        "winner",
        "points",
    )
    Deal.objects.bulk_create(
        [
            Deal(match_id=match.pk, number=deal.number, **{name: getattr(deal, name) for name in fields})
            for match in copies
            for deal in deals
        ],
        batch_size=1000,
    )
    assert Match.objects.filter(status=Match.Status.OVER).count() == MATCHES
    return first, copies[-1]


@pytest.mark.slow  # seeds many matches, 5 to 7 s
def test_the_archive_pages_ask_a_bounded_number_of_queries(archive, alice, django_assert_max_num_queries):
    alice.client.get("/me/tables/")  # the session's first request settles the guest cookie
    for match in archive:  # the real match and the last copy
        for url in _pages(match):
            with django_assert_max_num_queries(MAX_QUERIES):
                response = alice.client.get(url)
            assert response.status_code == 200, url


def _pages(match: Match) -> list[str]:
    return [
        reverse("match_archive", args=[match.pk]),
        reverse("deal_replay", args=[match.pk, 1]),
        "/me/archive/",
        f"/me/archive/?page={MATCHES // 20}",
        f"/api/matches/{match.pk}",
        f"/api/matches/{match.pk}/deals/1/replay",
        "/api/me/archive",
    ]
