"""The game's panel in a real browser: a player of a table of four watches the other deal of the
round move on their board's table page (the page asks for the round's boards every few seconds
and swaps in the panel when that board moved), then sees the round netted once both deals are
over; the player waiting in winner stays watches the running deal on the game page, then gets
PLAY YOUR DEAL. No console error or failed request on the way."""

from __future__ import annotations

import random

import pytest
from playwright.sync_api import expect

from bots import BOTS
from bots.base import MatchContext
from tables.play import engine, services
from tables.play.models import Move, Table
from tables.variants import services as games
from tables.variants.models import Board, GameTable
from tests.tables.tournaments.helpers import play_out

from .conftest import DESKTOP, new_context

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WAIT_MS = 20_000  # the panel asks every 5 s


def one_move(table_id: int, rng: random.Random) -> str:
    """The next seat's move at the table (TITO's choice); the name of whose turn it is after."""
    table = Table.objects.select_related("seat0", "seat1", "current_deal__match").get(pk=table_id)
    state = engine.load_deal(table.current_deal)
    seat = state.to_play
    totals = engine.load_match(table.current_deal.match).totals
    context = MatchContext(totals[seat], totals[1 - seat], state.ruleset.target)
    action = BOTS["tito"]().choose(state.view(seat), rng, context)
    services.apply_move(
        table.pk, table.seats[seat], action, expected_version=table.version, source=Move.Source.BOT
    )
    table = Table.objects.select_related("seat0", "seat1", "current_deal").get(pk=table_id)
    return table.seats[table.current_deal.to_play].name


def follows_a_move(view, table_id: int, rng: random.Random) -> None:
    """The panel's view of a deal names who is to play, and follows the next move by itself."""
    expect(view).to_contain_text("to play")
    next_name = one_move(table_id, rng)
    expect(view).to_contain_text(f"{next_name} to play", timeout=WAIT_MS)


def started(accounts, variant: str, names: tuple[str, ...]) -> tuple[GameTable, list]:
    """A started game of ``variant``, a seat per name (accounts with their sessions)."""
    people = [accounts(f"{name}@example.com", name.title()) for name in names]
    players = [player for player, _session in people]
    game = games.create_game(players[0], variant, target=10000)
    for player in players[1:]:
        games.join_game(game.invite_token, player)
    games.start_game(game.invite_token, players[0])
    return game, people


def test_a_player_watches_the_other_deal_of_the_round_and_sees_it_netted(
    browser, live_url, accounts, console
):
    game, people = started(accounts, GameTable.Variant.PARTNERSHIP, ("ana", "ben", "cleo", "dora"))
    mine, other = Board.objects.filter(game=game).select_related("table").order_by("number")
    session = people[mine.players[0]][1]
    page = console.watch(new_context(browser, live_url, session=session, **DESKTOP).new_page(), "player")
    page.goto(f"/t/{mine.table.invite_token}/")
    view = page.locator(f'#board-game article.board-view[data-table="{other.table.invite_token}"]')
    expect(view).to_contain_text("Stock: 31 cards")
    rng = random.Random(7)
    follows_a_move(view, other.table_id, rng)

    play_out(other.table_id, rng)
    expect(view.locator(".board-state")).not_to_contain_text("to play", timeout=WAIT_MS)
    play_out(mine.table_id, rng)
    expect(page.locator("#round-netting")).to_contain_text("Round 1 netted", timeout=WAIT_MS)
    expect(page.locator("#board-game")).to_have_attribute("data-settled", "1")


def test_the_player_waiting_in_winner_stays_watches_the_running_deal_then_plays(
    browser, live_url, accounts, console
):
    game, people = started(accounts, GameTable.Variant.WINNER_STAYS, ("eva", "fede", "gala"))
    board = Board.objects.select_related("table").get(game=game)
    waiting = next(seat for seat in range(3) if seat not in board.players)
    context = new_context(browser, live_url, session=people[waiting][1], **DESKTOP)
    page = console.watch(context.new_page(), "waiting")
    page.goto(f"/g/{game.invite_token}/")
    view = page.locator(f'#board-game article.board-view[data-table="{board.table.invite_token}"]')
    rng = random.Random(11)
    follows_a_move(view, board.table_id, rng)
    play_out(board.table_id, rng)
    expect(page.locator("#your-board")).to_contain_text("PLAY YOUR DEAL", timeout=WAIT_MS)
