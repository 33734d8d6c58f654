"""An invite-only table's matches are named to its two players and staff only: every page and
API answer that lists matches leaves out the opponent, the score, the date and any link of such
a match for anyone else, as the archive's 404 promises (docs/archive.md). Counts and ratings
may include it."""

from __future__ import annotations

import datetime as dt

import pytest
from django.test import Client

from tables.accounts.identity import player_for_user
from tables.accounts.models import Player
from tables.archive import selectors as archive
from tables.play.models import Match, Table
from tables.ratings import selectors as player_stats
from tables.ratings import views as player_views
from tables.records import selectors as record_reads
from tables.records import services as records
from tests.tables.helpers import ApiClient, make_account_client, started

pytestmark = pytest.mark.django_db

PRIVATE_SCORE, PRIVATE_DAY = "137–59", dt.datetime(2024, 2, 29, 12, tzinfo=dt.UTC)


def _resigned(owner: ApiClient, other: ApiClient, **options) -> tuple[Match, str]:
    """A match started and at once resigned by the owner: over, in the archive."""
    token, _ = started(owner, other, **options)
    owner.ok("post", f"/tables/{token}/resign", {"expected_version": owner.state(token)["version"]})
    return Match.objects.get(table__invite_token=token), token


def _score(total: int) -> dict[str, int]:
    return {"deal_points": total, "game_bonus": 0, "deal_bonus": 0, "deals_won": 0, "total": total}


def _named(client: ApiClient, name: str) -> Player:
    player = player_for_user(client.user)
    Player.objects.filter(pk=player.pk).update(display_name=name)
    return Player.objects.get(pk=player.pk)


@pytest.fixture
def world(db, monkeypatch):
    """Amaranta's private match with Zebulon (the score and day are markers) and her public one
    with Publius; one match a page, so that paging is walked too."""
    monkeypatch.setattr(player_views, "MATCHES_PER_PAGE", 1)
    alice, bob = make_account_client("amaranta@example.com"), make_account_client("zebulon@example.com")
    dave = make_account_client("publius@example.com")
    people = {
        "alice": _named(alice, "Amaranta"),
        "bob": _named(bob, "Zebulon"),
        "dave": _named(dave, "Publius"),
    }
    private, private_token = _resigned(alice, bob)
    public, public_token = _resigned(alice, dave, visibility="public")
    Match.objects.filter(pk=private.pk).update(final_scores=[_score(137), _score(59)], ended_at=PRIVATE_DAY)
    records.rebuild()  # the day changed behind the writers' back: the players' lists recounted
    return {
        "clients": {"alice": alice, "bob": bob},
        "people": people,
        "private": private,
        "private_token": private_token,
        "public": public,
        "public_token": public_token,
    }


def _pages(world) -> list[str]:
    """Every page and API answer that lists matches or names opponents."""
    alice, bob = world["people"]["alice"].pk, world["people"]["bob"].pk
    return [
        *(f"/players/{pk}/{query}" for pk in (alice, bob) for query in ("", "?page=2", "?page=3")),
        "/leaderboard/?pace=slow",
        "/leaderboard/?pace=live",
        "/",
        "/lobby/",
        "/challenges/",
        "/me/tables/",
        "/me/archive/",
        f"/t/{world['public_token']}/",
        f"/matches/{world['public'].pk}/",
        "/api/me/archive",
        "/api/me/tables",
        "/api/lobby",
        "/api/challenges",
        "/api/seeks",
        f"/api/tables/{world['public_token']}",
        f"/api/matches/{world['public'].pk}",
    ]


def _traces(world, path: str) -> list[str]:
    """What would give the private match away on ``path``: its link, table, score and day, and
    the opponent's name (on Zebulon's own page, Amaranta's; elsewhere Zebulon's, who played no
    other match)."""
    private = world["private"]
    bobs_page = f"/players/{world['people']['bob'].pk}/"
    opponent = "Amaranta" if path.startswith(bobs_page) else "Zebulon"
    return [
        f"/matches/{private.pk}/",
        f'"id": {private.pk},',
        f'"id":{private.pk},',
        world["private_token"],
        PRIVATE_SCORE,
        "2024-02-29",
        opponent,
    ]


def _walk(client: Client, world) -> dict[str, str]:
    bodies = {}
    for path in _pages(world):
        response = client.get(path)
        assert response.status_code in (200, 401), (path, response.status_code)
        bodies[path] = response.content.decode()
    return bodies


@pytest.mark.parametrize("who", ["stranger", "visitor", "api_token"])
def test_nobody_else_finds_a_trace_of_a_private_match(world, who):
    if who == "stranger":
        client = make_account_client("carol@example.com").client
    elif who == "visitor":
        client = Client()
    else:
        stranger = make_account_client("carol@example.com")
        token = stranger.ok("post", "/tokens", {"name": "script"}, status=201)["token"]
        client = Client(headers={"Authorization": f"Bearer {token}"})
    bodies = _walk(client, world)
    for path, body in bodies.items():
        for trace in _traces(world, path):
            assert trace not in body, (who, path, trace)
    alice_page = bodies[f"/players/{world['people']['alice'].pk}/"]
    assert "Publius" in alice_page and 'href="?page=2"' not in alice_page  # the public match alone
    for path in (f"/matches/{world['private'].pk}/", f"/api/matches/{world['private'].pk}"):
        assert client.get(path).status_code == 404


@pytest.mark.parametrize("who", ["alice", "bob", "staff"])
def test_its_players_and_staff_see_it_listed(world, who):
    if who == "staff":
        client = make_account_client("staff@example.com", staff=True).client
    else:
        client = world["clients"][who].client
    alice_page = client.get(f"/players/{world['people']['alice'].pk}/").content.decode()
    assert "Publius" in alice_page and 'href="?page=2"' in alice_page  # the latest first, one a page
    second = client.get(f"/players/{world['people']['alice'].pk}/?page=2").content.decode()
    assert "Zebulon" in second and PRIVATE_SCORE in second and "2024-02-29" in second
    bob_page = client.get(f"/players/{world['people']['bob'].pk}/").content.decode()
    assert "Amaranta" in bob_page and "59–137" in bob_page
    assert client.get(f"/matches/{world['private'].pk}/").status_code == 200
    if who != "staff":
        listed = world["clients"][who].ok("get", "/me/archive")["matches"]
        assert world["private"].pk in [row["id"] for row in listed]


def test_counts_and_ratings_still_include_it(world, client):
    alice = world["people"]["alice"]
    assert player_stats.statistics(alice).matches == 2
    page = client.get(f"/players/{alice.pk}/").content.decode()
    assert "<dd>2</dd>" in page  # the statistics' matches count both


@pytest.mark.parametrize("visibility", list(Table.Visibility))
def test_the_lists_filter_is_the_archives_rule(world, visibility):
    """tables_shown_to (the lists' filter) agrees with may_view_matches_at (the archive's 404)."""
    table = Table.objects.get(invite_token=world["private_token"])
    Table.objects.filter(pk=table.pk).update(visibility=visibility)
    records.rebuild()
    table.refresh_from_db()
    carol = player_for_user(make_account_client("carol@example.com").user)
    viewers = [world["people"]["alice"], world["people"]["bob"], world["people"]["dave"], carol, None]
    for viewer in viewers:
        for staff in (False, True):
            listed = Table.objects.filter(pk=table.pk).filter(archive.tables_shown_to(viewer, staff)).exists()
            assert listed == archive.may_view_matches_at(table, viewer, staff), (viewer, staff)
            # The player page's list (the records' lines, counted as the match ended) agrees too.
            keys = record_reads.finished_match_keys(world["people"]["alice"], viewer, staff)
            assert (world["private"].pk in keys) == listed, (viewer, staff)
