"""Tables of three and four in a real browser, phone and desktop, Spanish and English: three
guests and a robot by one invite link play a partnership round to its netting; three players
play two deals of winner stays, the waiting player watching the first deal and playing the
second. Each page follows its game without a reload; the deals themselves are played at their
boards by TITO's choices through the writers (the two-seat table page is tested on its own)."""

from __future__ import annotations

import random

import pytest
from playwright.sync_api import expect

from .conftest import DESKTOP, PHONE, new_context

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WAIT_MS = 25_000  # the game page asks for the version every 8 s
LABELS = {
    "en-US": {"create": "CREATE INVITATION", "seat": "TAKE A SEAT", "robot": "ADD A ROBOT", "start": "START",
              "play": "PLAY YOUR DEAL", "watch": "watch", "title": "Table of four"},
    "es-ES": {"create": "CREAR INVITACIÓN", "seat": "SENTARME", "robot": "AÑADIR UN ROBOT", "start": "EMPEZAR",
              "play": "JUEGA TU MANO", "watch": "mirar", "title": "Mesa de cuatro"},
}  # fmt: skip
CASES = [("en-US", DESKTOP), ("es-ES", PHONE)]


def play_board_out(table_id: int, seed: int) -> None:
    from tests.tables.variants.helpers import play_board

    play_board(table_id, random.Random(seed))


@pytest.mark.parametrize(("locale", "device"), CASES, ids=["en-desktop", "es-phone"])
def test_three_guests_and_a_robot_by_one_link_play_a_partnership_round_to_its_netting(
    browser, live_url, console, locale, device
):
    from tables.variants.models import Board, GameTable

    label = LABELS[locale]
    pages = {
        name: console.watch(new_context(browser, live_url, locale=locale, **device).new_page(), name)
        for name in ("ana", "bea", "cruz")
    }
    ana = pages["ana"]
    ana.goto("/new/")
    ana.fill("#name", "Ana")
    ana.select_option("#players", "4")
    ana.get_by_role("button", name=label["create"], exact=True).click()
    expect(ana.locator("h1")).to_contain_text(label["title"])
    ana.get_by_role("button", name=label["robot"], exact=True).click()
    invite = ana.url
    for name in ("bea", "cruz"):
        page = pages[name]
        page.goto(invite)
        page.fill("#name", name.title())
        page.get_by_role("button", name=label["seat"], exact=True).click()
        expect(page.locator("#game-seats li")).to_have_count(4 if name == "cruz" else 3)
    ana.reload()
    ana.get_by_role("button", name=label["start"], exact=True).click()
    game = GameTable.objects.get()
    assert game.status == GameTable.Status.PLAYING
    for page in pages.values():
        play = page.get_by_role("link", name=label["play"], exact=True)
        expect(play).to_be_visible(timeout=WAIT_MS)  # bea and cruz: shown without a reload
    pages["bea"].get_by_role("link", name=label["play"], exact=True).click()
    expect(pages["bea"].locator("#hand .card")).to_have_count(10, timeout=WAIT_MS)
    expect(pages["bea"].locator("#game-pill")).to_be_visible()
    for board in Board.objects.filter(game=game).order_by("number"):
        play_board_out(board.table_id, board.number)
    game.refresh_from_db()
    assert len(game.record["rounds"]) == 1
    for name in ("ana", "cruz"):
        expect(pages[name].locator("#score-sheet tbody tr")).to_have_count(1, timeout=WAIT_MS)
        expect(pages[name].locator("#game-boards li")).to_have_count(4)  # round 2 is open


@pytest.mark.parametrize(("locale", "device"), CASES, ids=["en-desktop", "es-phone"])
def test_three_players_the_waiting_one_watches_the_deal_then_plays_the_next(
    browser, live_url, accounts, console, locale, device
):
    from tables.variants import engine, services
    from tables.variants.models import Board, GameTable

    label = LABELS[locale]
    people = {name: accounts(f"{name}@example.com", name.title()) for name in ("alice", "bob", "carol")}
    players = [player for player, _ in people.values()]
    game = services.create_game(players[0], GameTable.Variant.WINNER_STAYS, target=10000)
    for player in players[1:]:
        services.join_game(game.invite_token, player)
    services.start_game(game.invite_token, players[0])
    game.refresh_from_db()
    waiting = engine.load_record(game).who_waits
    name = list(people)[waiting]
    page = console.watch(
        new_context(browser, live_url, session=people[name][1], locale=locale, **device).new_page(), name
    )
    page.goto(f"/g/{game.invite_token}/")
    expect(page.get_by_role("link", name=label["play"], exact=True)).to_have_count(0)
    page.get_by_role("link", name=label["watch"], exact=True).click()
    expect(page.locator("#hand-strip")).to_be_hidden()  # a spectator of the running deal
    expect(page.locator("#game-pill")).to_be_visible()
    first = Board.objects.get(game=game)
    play_board_out(first.table_id, 1)
    game.refresh_from_db()
    record = engine.load_record(game)
    assert waiting in record.who_plays  # the one who waited plays the next deal
    page.goto(f"/g/{game.invite_token}/")
    expect(page.locator("#score-sheet tbody tr")).to_have_count(1)
    page.get_by_role("link", name=label["play"], exact=True).click()
    expect(page.locator("#hand .card")).to_have_count(10, timeout=WAIT_MS)
    second = Board.objects.get(game=game, round=2)
    play_board_out(second.table_id, 2)
    page.goto(f"/g/{game.invite_token}/")
    expect(page.locator("#score-sheet tbody tr")).to_have_count(2)
