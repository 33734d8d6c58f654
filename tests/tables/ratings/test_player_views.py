"""The player page and the leaderboard: what they show, who has one, and their queries bounded
with 10,000 finished matches (PostgreSQL in CI)."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.test import Client
from django.utils import timezone

from tables.accounts.identity import player_for_user
from tables.accounts.models import Player
from tables.challenges import services as challenge_services
from tables.play.models import Table
from tables.ratings import glicko2
from tables.ratings import selectors as player_stats
from tables.ratings.models import Rating, RatingChange
from tables.ratings.views import rating_chart
from tables.records import selectors as records
from tests.tables.helpers import ApiClient, open_table
from tests.tables.rating_helpers import RATED, rated_game, to_last_move
from tests.tables.seed_players import seed, unseed

pytestmark = pytest.mark.django_db


@pytest.fixture
def client(client, settings):
    """A visitor reading English (the site's default is Spanish)."""
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    return client


@pytest.mark.slow  # whole matches, 1 to 2 s
def test_a_rated_match_shows_on_both_players_pages_and_the_leaderboard(client):
    token, players = rated_game()
    # A visitor sees the match listed at a public table only (test_private_matches.py).
    Table.objects.filter(invite_token=token).update(visibility=Table.Visibility.PUBLIC)
    mover, body = to_last_move(token, players)
    mover.ok("post", f"/tables/{token}/moves", body)
    alice, bob = (Player.objects.get(user__username=name) for name in ("alice", "bob"))
    page = client.get(f"/players/{alice.pk}/").content.decode()
    change = RatingChange.objects.get(player=alice)
    assert f"<strong>{change.rating_after:.0f}</strong>" in page
    assert "provisional" in page  # one match: the deviation is far above 110
    assert f'href="/players/{bob.pk}/">bob</a>' in page and "playgridia" in page
    board = client.get("/leaderboard/?pace=slow").content.decode()  # listed, provisional, unranked
    assert f'href="/players/{alice.pk}/">alice</a>' in board and f'href="/players/{bob.pk}/">bob</a>' in board
    assert board.count('class="provisional"') == 2
    Rating.objects.filter(player=alice).update(
        deviation=100, established_until=timezone.now() + dt.timedelta(days=9)
    )  # alice ranked: first, with rank 1, above bob's provisional rating whatever the figures
    board = client.get("/leaderboard/?pace=slow").content.decode()
    assert board.count('class="provisional"') == 1
    assert board.index(f"/players/{alice.pk}/") < board.index(f"/players/{bob.pk}/")
    assert "bob" not in client.get("/leaderboard/?pace=live").content.decode()
    client.cookies["django_language"] = "es"
    assert "Partidas terminadas" in client.get(f"/players/{alice.pk}/").content.decode()


def test_guests_robots_and_strangers_have_no_page(client, alice):
    token = open_table(alice)["table"]
    ApiClient(name="Nadia").ok("post", f"/tables/{token}/join", {"name": "Nadia"})
    guest = Player.objects.get(display_name="Nadia")
    robot = Player.objects.create(display_name="LUNA", is_bot=True, bot_level="luna")
    for player_id in (guest.pk, robot.pk, 999999):
        assert client.get(f"/players/{player_id}/").status_code == 404
    owner = Player.objects.get(user__username="alice")
    assert client.get(f"/players/{owner.pk}/").status_code == 200


def test_an_unknown_pace_or_page_falls_back(client):
    assert client.get("/leaderboard/?pace=blitz&page=x").status_code == 200


def test_the_chart_spans_the_lowest_to_the_highest_rating():
    history = [1500.0, 1600.0, 1550.0]
    chart = rating_chart(history)
    assert (chart.lowest, chart.highest) == (1500, 1600)
    assert chart.points.split()[1].endswith(",8.0")  # the highest at the top margin
    assert rating_chart(history[:1]) is None


@pytest.fixture
def ten_thousand_matches():
    players = seed(players=1000, matches=10_000)
    yield players
    unseed()  # the seeded deals have no move log to replay


@pytest.mark.slow  # seeds many players and matches, 5 to 10 s
def test_the_pages_cost_a_bounded_number_of_queries(client, ten_thousand_matches, django_assert_num_queries):
    regular = ten_thousand_matches[0]  # in 2,000 of the matches
    # A player page: the player with its record (the statistics, and how many matches the visitor
    # may see listed: no COUNT, no aggregate), ratings, two rating histories, a page of keys from
    # the player's list, their matches with the player's rating changes, presence, the player's
    # accuracy over their last reviewed matches (the robots' come from the cache, filled by the
    # first page shown), the tournaments played. The same on a deep page (a range of the list's
    # index). Fixed: a new query is a choice.
    assert client.get(f"/players/{regular.pk}/").status_code == 200
    for path, queries in (
        (f"/players/{regular.pk}/", 9),
        (f"/players/{regular.pk}/?page=50", 9),
        ("/leaderboard/?pace=live&page=3", 2),
    ):
        with django_assert_num_queries(queries):
            response = client.get(path)
        assert response.status_code == 200, path
    owner = Client()
    owner.force_login(regular.user)  # sees every match of theirs: the page count is the statistics'
    owner.get("/")  # where the session was last seen is written once a minute, not by this page
    with django_assert_num_queries(12):  # and the session, its user and its player
        assert owner.get(f"/players/{regular.pk}/?page=50").status_code == 200
    # Another account's visit: their pair's record twice (how many invite-only matches between
    # them it may see listed, and the head-to-head line), follow and block with the presence.
    rival = Client()
    rival.force_login(ten_thousand_matches[1].user)
    rival.get("/")
    for path in (f"/players/{regular.pk}/", f"/players/{regular.pk}/?page=50"):
        with django_assert_num_queries(14):
            page = rival.get(path).content.decode()
        assert 'id="head-to-head"' in page, path
    page = client.get(f"/players/{regular.pk}/").content.decode()
    pages = int(re.search(r"Page 1 of (\d+)", page).group(1))
    listed = records.finished_match_keys(regular, None, False).count()  # invite-only ones left out
    assert listed < player_stats.statistics(regular).matches
    # The statistics' pass counts what each visitor may see listed, as the list itself does.
    everything = player_stats.statistics(regular).matches
    assert player_stats.statistics(regular, None, False).listed == listed
    assert player_stats.statistics(regular, regular, False).listed == everything
    assert player_stats.statistics(regular, None, True).listed == everything
    other = ten_thousand_matches[1]
    seen_by_other = records.finished_match_keys(regular, other, False).count()
    assert listed <= seen_by_other == player_stats.statistics(regular, other, False).listed
    assert pages == -(-listed // 20) and pages >= 50
    assert page.count("<tr>") == 21  # the header and 20 matches
    last = client.get(f"/players/{regular.pk}/?page={pages}").content.decode()
    assert last.count("<tr>") == 1 + listed - 20 * (pages - 1)


def test_names_link_to_player_pages_in_the_lobby_and_my_tables(client, alice, bob):
    token = open_table(alice, visibility="public", **RATED)["table"]
    owner = Player.objects.get(user__username="alice")
    lobby = client.get("/lobby/").content.decode()
    assert f'<a href="/players/{owner.pk}/">alice</a>' in lobby and "rated" in lobby
    bob.ok("post", f"/tables/{token}/join", {})
    mine = bob.client.get("/me/tables/").content.decode()  # in bob's profile language, Spanish
    assert f'href="/players/{owner.pk}/">(página de alice)</a>' in mine
    assert 'id="rated-pill"' in bob.client.get(f"/t/{token}/").content.decode()


def test_a_long_absent_player_is_provisional_again_and_loses_the_rank(client, alice):
    owner = player_for_user(alice.user)
    now = timezone.now()
    established = Rating.established_until_for(glicko2.Rating(1900, 60, 0.06), now)
    Rating.objects.create(player=owner, pace="slow", rating=1900, deviation=60, established_until=established)
    page = client.get(f"/players/{owner.pk}/").content.decode()
    assert "<strong>1900</strong>" in page and "provisional" not in page and "± 60" in page
    board = client.get("/leaderboard/?pace=slow").content.decode()
    assert "alice" in board and 'class="provisional"' not in board
    last_match = now - dt.timedelta(days=120)  # as if that match were 120 days ago
    Rating.objects.update(
        updated_at=last_match,
        established_until=Rating.established_until_for(glicko2.Rating(1900, 60, 0.06), last_match),
    )
    page = client.get(f"/players/{owner.pk}/").content.decode()
    grown = glicko2.idle(glicko2.Rating(1900, 60, 0.06), 120).deviation
    assert "provisional" in page and f"± {grown:.0f}" in page and grown > 110
    board = client.get("/leaderboard/?pace=slow").content.decode()
    assert "alice" in board and board.count('class="provisional"') == 1  # listed, without a rank


def test_a_logged_in_account_may_challenge_someone_else_from_their_page(client, alice, bob):
    owner, other = player_for_user(alice.user), player_for_user(bob.user)
    button = f'href="/new/?opponent={other.pk}"'
    assert button in alice.client.get(f"/players/{other.pk}/").content.decode()
    assert "?opponent=" not in alice.client.get(f"/players/{owner.pk}/").content.decode()  # one's own
    assert "?opponent=" not in client.get(f"/players/{other.pk}/").content.decode()  # a visitor
    form = alice.client.get(f"/new/?opponent={other.pk}").content.decode()
    assert f'name="opponent" value="{other.pk}"' in form


def test_the_challenges_page_links_every_name(alice, bob, settings):
    from_alice = player_for_user(alice.user)
    other = player_for_user(bob.user)
    challenge_services.challenge_player(other, from_alice, {"ruleset": "classic"})
    challenge_services.challenge_player(from_alice, other, {"ruleset": "classic"})
    seek = challenge_services.post_seek(other, {"ruleset": "classic"})
    page = alice.client.get("/challenges/?name=bob").content.decode()
    link = f'<a href="/players/{other.pk}/">bob</a>'
    assert page.count(link) == 3  # received, sent, found
    lobby = alice.client.get("/lobby/").content.decode()
    assert link in lobby and f'data-seek="{seek.pk}"' in lobby
