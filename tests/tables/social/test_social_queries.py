"""The following list (500 followed), the player page with head-to-head, the list of matches
against one player and the inbox (500 lines, its most) cost a bounded number of queries with
10,000 finished matches between 1,000 accounts (PostgreSQL in CI)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from tables.alerts import inbox
from tables.alerts.models import Activity, InboxItem
from tables.social import selectors
from tables.social.models import Follow
from tests.tables.seed_players import seed, unseed

pytestmark = pytest.mark.django_db


@pytest.fixture
def ten_thousand_matches():
    players = seed(players=1000, matches=10_000)
    yield players
    unseed()  # the seeded deals have no move log to replay


def test_the_social_pages_cost_a_bounded_number_of_queries(ten_thousand_matches):
    regular, *others = ten_thousand_matches  # the regular sits in 2,000 of the matches
    Follow.objects.bulk_create(Follow(follower=regular, followed=other) for other in others[:500])
    now = timezone.now()
    Activity.objects.bulk_create(
        Activity(player=other, last_seen=now - dt.timedelta(minutes=n))
        for n, other in enumerate(others[:500])
    )
    browser = Client()
    browser.force_login(regular.user)
    InboxItem.objects.bulk_create(
        InboxItem(
            player=regular,
            kind="match_over",
            occasion=f"match:{n}",
            title=f"Result {n}",
            path="/me/archive/",
            read_at=now if n % 2 else None,
        )
        for n in range(inbox.INBOX_MAX)
    )
    opponent = max(others[:50], key=lambda other: selectors.head_to_head(regular, other).matches)
    assert selectors.head_to_head(regular, opponent).matches >= 2
    # The following list: the session, user and player, the follows, their presence. The player
    # page: its own (tests/tables/ratings), presence with follow and block, the record, the accuracy,
    # the tournaments played.
    # The matches against them: the record and one page of matches. The inbox (500 lines): the
    # session, user and player, one page of lines; its API (what the bell asks) the unread count as well.
    budgets = {
        "/me/inbox/": 4,
        "/api/me/inbox": 5,
        "/me/following/": 5,
        f"/players/{opponent.pk}/": 14,
        f"/players/{opponent.pk}/versus/": 6,
    }
    browser.get("/")  # the session's first request writes its activity row (once a minute)
    browser.get(f"/players/{opponent.pk}/")  # and a player page fills the cache with the robots' accuracy
    for path, budget in budgets.items():
        with CaptureQueriesContext(connection) as queries:
            response = browser.get(path)
        assert response.status_code == 200, path
        assert len(queries) == budget, (path, len(queries))  # fixed: a new query is a choice
    page = browser.get("/me/following/").content.decode()
    assert page.count("/new/?opponent=") == 100  # a page; the most recently seen first
    assert page.index(f"?opponent={others[0].pk}") < page.index(f"?opponent={others[1].pk}")
    lines = browser.get("/me/inbox/").content.decode()
    assert lines.count('class="inbox-line') == inbox.PAGE
    assert "Result 499" in lines and "Result 449" not in lines  # the newest page only
    last = browser.get("/me/following/?page=5").content.decode()
    assert last.count("/new/?opponent=") == 100 and f"?opponent={others[499].pk}" in last
