"""Tables of three and four in a real browser, every move of a person a click (a tap on a
phone) on their board's table page: a guest opens a table of four from the new-table form, two
more guests come by its invite link, the owner adds a robot and starts, and the round's two deals
are played (one against the robot, which plays itself in the server) to the round's netting on
the game page; three guests play two deals of winner stays, the waiting one watching the first
deal live and then playing the second against its winner. Partnership on a desktop in English
and on a phone in Spanish; winner stays on a phone in English and on a desktop in Spanish.

Each deal is dealt so that it ends in a few turns (the test's hook at the engine boundary, as
conftest's known_deck): one player holds three melds and knocks on their second turn, the other
holds nothing that melds; every other move is the page's hint (the coach's best discard)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

import pytest
from playwright.sync_api import Locator, Page, expect

from tests.polling import browser_pause, wait_until

from .conftest import DESKTOP, PHONE, SEAT0, SEAT1, UPCARD_AND_STOCK_TOP, new_context

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WAIT_MS = 25_000  # the game page asks for the version every 8 s
TARGET = 500
TURN_SECONDS = 60  # bound on a turn: the robot's, or the other player's
LABELS = {
    "en-US": {"create": "CREATE INVITATION", "seat": "TAKE A SEAT", "robot": "ADD A ROBOT", "start": "START",
              "play": "PLAY YOUR DEAL", "watch": "watch", "four": "Table of four", "three": "Table of three",
              "waits": "waits for the next deal"},
    "es-ES": {"create": "CREAR INVITACIÓN", "seat": "SENTARME", "robot": "AÑADIR UN ROBOT", "start": "EMPEZAR",
              "play": "JUEGA TU MANO", "watch": "mirar", "four": "Mesa de cuatro", "three": "Mesa de tres",
              "waits": "espera a la próxima mano"},
}  # fmt: skip


@dataclass
class Person:
    """One browser at the game: a guest's page and how its screen is pressed."""

    name: str
    page: Page
    touch: bool

    def press(self, target: Locator) -> None:
        if self.touch:
            target.tap()
        else:
            target.click()


def deck_for(strong_plays_first: bool) -> list[str]:
    """conftest's seeded deck with the three-meld hand (SEAT0) dealt to the player who plays
    first (the dealer's opponent, dealt first) or to the dealer."""
    import rules

    first, second = (SEAT0, SEAT1) if strong_plays_first else (SEAT1, SEAT0)
    dealt = [card for pair in zip(first.split(), second.split(), strict=True) for card in pair]
    top = dealt + UPCARD_AND_STOCK_TOP.split()
    return top + [str(card) for card in rules.CARDS if str(card) not in top]


@pytest.fixture
def quick_deals(monkeypatch):
    """Every deal dealt from `deck_for`: the three melds to the person facing a robot, else to
    the player who plays first."""
    import rules
    from tables.play import engine
    from tables.play.models import Table

    dealt = engine.new_deal_row

    def seeded(match, number, dealer):
        robots = Table.objects.filter(pk=match.table_id).values_list("seat0__is_bot", "seat1__is_bot").get()
        strong = robots.index(False) if any(robots) else 1 - dealer
        monkeypatch.setattr(rules, "new_deck", lambda: rules.parse_cards(deck_for(strong != dealer)))
        return dealt(match, number, dealer)

    monkeypatch.setattr(engine, "new_deal_row", seeded)


@pytest.fixture
def three_guests(browser, live_url, console) -> Iterator[Callable[[str, dict], list[Person]]]:
    """Ana, Bea and Cruz, each in a browser of their own (closed at the end of the test, so that
    no page of a game the next test no longer has asks after it)."""
    contexts = []

    def open_browsers(locale: str, device: dict) -> list[Person]:
        people = []
        for name in ("Ana", "Bea", "Cruz"):
            contexts.append(new_context(browser, live_url, locale=locale, **device))
            page = console.watch(contexts[-1].new_page(), name)
            people.append(Person(name, page, touch=device.get("has_touch", False)))
        return people

    yield open_browsers
    for context in contexts:
        context.close()


def open_game(people: list[Person], locale: str, players: int) -> None:
    """Ana opens the table from the new-table form as a guest (with a robot for four); Bea and
    Cruz take a seat by its invite link, typing their names; Ana starts the game."""
    label = LABELS[locale]
    ana = people[0]
    ana.page.goto("/new/")
    ana.page.fill("#name", ana.name)
    ana.page.select_option("#players", str(players))
    ana.page.fill("#target", str(TARGET))  # the game's: far enough for the deals played here
    ana.press(ana.page.get_by_role("button", name=label["create"], exact=True))
    expect(ana.page.locator("h1")).to_contain_text(label["four" if players == 4 else "three"])
    if players == 4:
        ana.press(ana.page.get_by_role("button", name=label["robot"], exact=True))
        expect(ana.page.locator("#game-seats li")).to_have_count(2)
    invite = ana.page.url
    for seated, person in enumerate(people[1:], start=players - 1):
        person.page.goto(invite)
        person.page.fill("#name", person.name)
        person.press(person.page.get_by_role("button", name=label["seat"], exact=True))
        expect(person.page.locator("#game-seats li")).to_have_count(seated)
    ana.page.reload()
    ana.press(ana.page.get_by_role("button", name=label["start"], exact=True))
    expect(ana.page.locator("#game-live[data-status='playing']")).to_be_attached()


def go_to_deal(person: Person, label: dict[str, str]) -> None:
    """From the game page (which shows the link without a reload) to the person's board."""
    play = person.page.get_by_role("link", name=label["play"], exact=True)
    expect(play).to_be_visible(timeout=WAIT_MS)
    person.press(play)
    expect(person.page.locator("#table-app[data-ready='1']")).to_be_attached(timeout=WAIT_MS)
    expect(person.page.locator("#hand .card")).to_have_count(10, timeout=WAIT_MS)
    expect(person.page.locator("#game-pill")).to_be_visible()


def back_to_game(person: Person) -> None:
    """Close the deal's end and follow the table's pill back to its game."""
    close = person.page.locator("#summary-close")
    if close.is_visible():
        person.press(close)
    person.press(person.page.locator("#game-pill"))
    expect(person.page.locator("#game-live")).to_be_attached(timeout=WAIT_MS)


def next_to_play(players: list[Person]) -> Person | None:
    """The player whose turn it is once a turn comes (the robot's play in between), None once
    the deal is over."""

    def found() -> Person | str | None:
        for person in players:
            if person.page.locator("#summary").is_visible():
                return "over"
            if person.page.locator("#stock.can-take").is_visible():
                return person
        return None

    turn = wait_until(
        found,
        timeout=TURN_SECONDS,
        interval=0.1,
        pause=browser_pause(players[0].page),
        message="a turn or the end",
    )
    return turn if isinstance(turn, Person) else None


def play_turn(person: Person, turn: int, watchers: Sequence[Person]) -> None:
    """Draw from the stock; from the second turn on knock if the page offers it, else discard
    the card the page's hint marks. The watchers see the discard."""
    page = person.page
    hand = page.locator("#hand .card")
    person.press(page.locator("#stock"))
    expect(hand).to_have_count(11)
    knock = page.locator("#btn-knock")
    if turn and knock.is_visible():
        person.press(knock)
        expect(page.locator("#summary")).to_be_visible(timeout=WAIT_MS)
        return
    person.press(page.locator("#btn-hint"))
    hinted = page.locator("#hand .card.hint")
    expect(hinted).to_have_count(1)
    code = hinted.get_attribute("data-card")
    card = page.locator(f"#hand .card[data-card='{code}']")
    person.press(card)  # select,
    person.press(card)  # and discard
    expect(hand).to_have_count(10)
    for watcher in watchers:
        expect(watcher.page.locator(f"#discard .card[data-card='{code}']")).to_be_visible(timeout=WAIT_MS)


def play_deal_by_clicks(players: list[Person], watchers: Sequence[Person] = ()) -> int:
    """Play a board's deal by the players' clicks (one player against a robot, or two) to its
    end, which every player and watcher then sees. The number of turns played by clicks."""
    turns = {person.name: 0 for person in players}
    while (person := next_to_play(players)) is not None:
        play_turn(person, turns[person.name], watchers)
        turns[person.name] += 1
        assert sum(turns.values()) < 12, "the deal should have ended by a knock"
    for person in [*players, *watchers]:
        expect(person.page.locator("#summary")).to_be_visible(timeout=WAIT_MS)
    assert all(turns.values()), f"every player played: {turns}"
    return sum(turns.values())


def check_deals_in_play(page: Page, players: list[Person], label: dict[str, str]) -> None:
    """The game page's panel of the deals in play, where the page has one (#board-game): the
    running deal between its two players, with a link to watch it."""
    if not page.locator("#board-game").count():
        return
    view = page.locator("#board-game .board-view")
    expect(view).to_have_count(1)
    for person in players:
        expect(view).to_contain_text(person.name)
    expect(view.get_by_role("link", name=label["watch"], exact=True)).to_be_visible()


def check_moves(table_id: int, turns_clicked: int, robot: bool) -> None:
    """Every move of a person at the board is one of the turns the test played by clicks (a
    turn: the draw and the discard or knock); the robot's are its own."""
    from tables.play.models import Move

    sources = Counter(Move.objects.filter(deal__match__table_id=table_id).values_list("source", flat=True))
    assert sources[Move.Source.PLAYER] == 2 * turns_clicked, sources
    assert bool(sources[Move.Source.BOT]) == robot and not sources[Move.Source.TIMEOUT], sources


def round_nets(game, number: int) -> tuple[int, int]:
    """The round's nets as the boards' own deals give them: each deal's points to its winner's
    team and from the other."""
    from tables.play.models import Deal
    from tables.variants import engine
    from tables.variants.models import Board

    teams = engine.load_record(game).teams
    nets = [0, 0]
    for board in Board.objects.filter(game=game, round=number):
        deal = Deal.objects.get(match__table_id=board.table_id)
        team = 0 if board.players[deal.winner] in teams[0] else 1
        nets[team] += deal.points
        nets[1 - team] -= deal.points
    return nets[0], nets[1]


@pytest.mark.parametrize(
    ("locale", "device"), [("en-US", DESKTOP), ("es-ES", PHONE)], ids=["en-desktop", "es-phone"]
)
def test_three_guests_and_a_robot_by_one_link_play_a_partnership_round_by_clicks_to_its_netting(
    three_guests, quick_deals, locale, device
):
    from tables.variants.models import Board, GameTable

    label = LABELS[locale]
    people = three_guests(locale, device)
    open_game(people, locale, players=4)
    game = GameTable.objects.get()
    assert game.status == GameTable.Status.PLAYING
    for person in people:
        go_to_deal(person, label)  # Bea and Cruz: their game page shows the link without a reload
    for board in Board.objects.filter(game=game, round=1).select_related("table"):
        at_board = [person for person in people if board.table.invite_token in person.page.url]
        robot = any(seat.is_bot for seat in (board.table.seat0, board.table.seat1))
        assert len(at_board) == (1 if robot else 2)
        check_moves(board.table_id, play_deal_by_clicks(at_board), robot)

    game.refresh_from_db()
    nets = round_nets(game, 1)
    assert sum(nets) == 0 and len(game.record["rounds"]) == 1, game.record
    assert game.status == GameTable.Status.PLAYING, game.record
    for person in people:
        back_to_game(person)
        row = person.page.locator("#score-sheet tbody tr")
        expect(row).to_have_count(1, timeout=WAIT_MS)
        expect(row.locator("td").nth(2)).to_have_text(f"{nets[0]} / {nets[1]}")
        expect(row.locator("td").nth(1).locator("div")).to_have_count(2)  # the round's two deals
        expect(person.page.locator("#game-boards li")).to_have_count(4)  # round 2 is open
        expect(person.page.get_by_role("link", name=label["play"], exact=True)).to_be_visible()


@pytest.mark.parametrize(
    ("locale", "device"), [("en-US", PHONE), ("es-ES", DESKTOP)], ids=["en-phone", "es-desktop"]
)
def test_three_guests_play_winner_stays_by_clicks_the_waiting_one_watches_then_plays(
    three_guests, quick_deals, locale, device
):
    from tables.variants import engine
    from tables.variants.models import Board, GameTable

    label = LABELS[locale]
    people = three_guests(locale, device)
    open_game(people, locale, players=3)
    game = GameTable.objects.get()
    record = engine.load_record(game)
    waiting = people[record.who_waits]
    first_players = [people[seat] for seat in record.who_plays]
    for person in first_players:
        go_to_deal(person, label)

    # The one who waits: told so on the game page, no deal to play, a link to watch the deal.
    page = waiting.page  # on the game page since taking the seat: it follows the start
    expect(page.locator("#game-status")).to_contain_text(f"{waiting.name} {label['waits']}", timeout=WAIT_MS)
    expect(page.get_by_role("link", name=label["play"], exact=True)).to_have_count(0)
    watch = page.locator("#game-boards").get_by_role("link", name=label["watch"], exact=True)
    expect(watch).to_have_count(1)
    check_deals_in_play(page, first_players, label)
    waiting.press(watch)
    expect(page.locator("#table-app[data-ready='1']")).to_be_attached(timeout=WAIT_MS)
    expect(page.locator("#hand-strip")).to_be_hidden()  # a spectator of the running deal
    expect(page.locator("#fan-top .card")).to_have_count(10)
    expect(page.locator("#fan-bottom .card")).to_have_count(10)
    expect(page.locator("#game-pill")).to_be_visible()
    turns = play_deal_by_clicks(first_players, watchers=[waiting])
    check_moves(Board.objects.get(game=game, round=1).table_id, turns, robot=False)

    game.refresh_from_db()
    record = engine.load_record(game)
    assert record.who_waits != people.index(waiting)  # the one who waited plays the next deal
    second_players = [people[seat] for seat in record.who_plays]
    loser = people[record.who_waits]
    for person in people:
        back_to_game(person)
        expect(person.page.locator("#score-sheet tbody tr")).to_have_count(1, timeout=WAIT_MS)
    expect(loser.page.locator("#game-status")).to_contain_text(f"{loser.name} {label['waits']}")
    for person in second_players:
        go_to_deal(person, label)
    turns = play_deal_by_clicks(second_players)
    check_moves(Board.objects.get(game=game, round=2).table_id, turns, robot=False)

    for person in second_players:
        back_to_game(person)
    for person in people:  # the loser's page follows the game without a reload
        expect(person.page.locator("#score-sheet tbody tr")).to_have_count(2, timeout=WAIT_MS)
        expect(person.page.locator("#game-boards li")).to_have_count(3)  # deal 3 is on
