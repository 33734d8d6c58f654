"""The leaderboard and a player's page on a phone (Spanish) and a desktop (English): from the
leaderboard to a player's ratings, chart, statistics and paged matches, with no JavaScript error."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from tables.accounts.models import Player
from tables.ratings.models import Rating, RatingChange
from tests.tables.rating_helpers import rated_game, to_last_move
from tests.tables.seed_players import seed, unseed

from .conftest import new_context

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True, "locale": "es-ES"}


@pytest.mark.parametrize(
    ("device", "texts"),
    [
        ({"locale": "en-US"}, ("Leaderboard", "Statistics", "Finished matches", "Next")),
        (PHONE, ("Clasificación", "Estadísticas", "Partidas terminadas", "Siguiente")),
    ],
    ids=["desktop", "phone"],
)
def test_from_the_leaderboard_to_a_players_record(
    browser, live_url, transactional_db, console, screenshots, device, texts
):
    players = seed(players=30, matches=200)
    regular = players[0]  # in a fifth of the matches, established at both paces
    Rating.objects.filter(player=regular).update(
        rating=2500, deviation=50, established_until=timezone.now() + dt.timedelta(days=30)
    )
    leaderboard, statistics, finished, following = texts
    context = new_context(browser, live_url, **device)
    page = console.watch(context.new_page(), "visitor")
    page.goto("/")
    page.get_by_role("link", name=leaderboard, exact=True).click()
    first = page.locator("table.leaders tbody tr").first
    expect(first).to_contain_text(regular.display_name)
    first.get_by_role("link", name=regular.display_name).click()
    expect(page.locator("main h1")).to_have_text(regular.display_name)
    expect(page.locator("svg.rating-chart").first).to_be_visible()
    expect(page.get_by_role("heading", name=statistics)).to_be_visible()
    expect(page.get_by_role("heading", name=finished)).to_be_visible()
    expect(page.locator("table.matches tbody tr")).to_have_count(20)
    name = "phone" if device is PHONE else "desktop"
    page.screenshot(path=str(screenshots / f"{name}-player-page.png"), full_page=True)
    page.get_by_role("link", name=following, exact=True).click()
    expect(page).to_have_url(f"{live_url}/players/{regular.pk}/?page=2")
    opponent = page.locator("table.matches tbody tr td a").first
    opponent_name = opponent.inner_text()
    opponent.click()
    expect(page.locator("main h1")).to_have_text(opponent_name)
    context.close()
    unseed()


def test_both_players_see_their_new_rating_and_the_match_on_their_pages(
    browser, live_url, transactional_db, console
):
    token, players = rated_game()
    mover, body = to_last_move(token, players)
    mover.ok("post", f"/tables/{token}/moves", body)
    devices = {0: {}, 1: {key: value for key, value in PHONE.items() if key != "locale"}}  # desktop, phone
    for seat, client in players.items():
        me = Player.objects.get(user=client.user)
        change = RatingChange.objects.get(player=me)
        session = client.client.cookies["sessionid"].value
        context = new_context(browser, live_url, session=session, **devices[seat])
        page = console.watch(context.new_page(), f"seat {seat}")
        page.goto("/me/profile/")
        page.get_by_role("link", name="player page").click()
        panel = page.locator(".rating-panel").first
        expect(panel).to_contain_text(f"{change.rating_after:.0f}")
        expect(panel).to_contain_text("provisional")
        row = page.locator("table.matches tbody tr")
        expect(row).to_have_count(1)
        expect(row).to_contain_text("won" if change.score == 1 else "lost")
        expect(row).to_contain_text(f"{change.rating_after - 1500:+.0f}")
        page.goto("/leaderboard/?pace=slow")  # both listed, provisional (one match) and unranked
        board = page.locator("table.leaders tbody")
        for player in Player.objects.filter(user__in=[other.user for other in players.values()]):
            expect(board.get_by_role("link", name=player.display_name, exact=True)).to_be_visible()
        expect(board.locator("tr.provisional")).to_have_count(2)
        context.close()


def test_a_rated_table_offers_no_robot_to_its_owner(browser, live_url, accounts, console):
    """Robots are unrated and the server refuses them a seat at a rated table: its page does not
    offer ADD ROBOT (that button only answered 403), while an unrated table's page does."""
    from tables.play import services

    alice, session = accounts("alice@example.com", "Alice")
    rated = services.create_table(alice, rated=True)
    unrated = services.create_table(alice)
    page = console.watch(new_context(browser, live_url, session=session).new_page(), "alice")
    page.goto(f"/t/{unrated.invite_token}/")
    expect(page.locator("#table-app[data-ready='1']")).to_be_attached()
    expect(page.locator("#bot-form")).to_be_visible()
    page.goto(f"/t/{rated.invite_token}/")
    expect(page.locator("#table-app[data-ready='1']")).to_be_attached()
    expect(page.locator("#invite-box")).to_be_visible()
    expect(page.locator("#bot-form")).to_be_hidden()
    page.context.close()
