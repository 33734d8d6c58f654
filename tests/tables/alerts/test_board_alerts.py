"""Alerts about a board's table (one deal of a game of three or four) name the game and the
deal, in the player's language; the first turn of a board's deal says the deal is open, once,
to the player it is up to. A two-player table's alerts read as before and cost no query more;
a board's cost one, the board read with its game's variant."""

from __future__ import annotations

import datetime as dt
import random

import pytest
from django.core import mail
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from bots import BOTS
from bots.base import MatchContext
from config.celery import app
from tables.accounts.models import Player
from tables.alerts import digest, notify
from tables.core.announcements import Alerts, ChangeKind
from tables.play import engine, selectors, services
from tables.play.models import Deal, Table
from tables.play.services.matches import start_match
from tables.play.services.seats import create_table, join_table
from tables.variants.models import GameTable
from tests.tables.variants.helpers import accounts, committed, open_boards, play_board, seated_game

pytestmark = pytest.mark.django_db
PARTNERSHIP, WINNER_STAYS = GameTable.Variant.PARTNERSHIP, GameTable.Variant.WINNER_STAYS


@pytest.fixture(autouse=True)
def _follow_ups_inline(monkeypatch):
    """What follows each committed change (the alerts among it) runs at once, as a worker would."""
    monkeypatch.setitem(app.conf, "task_always_eager", True)


def _speaking(lang: str, players: list[Player]) -> None:
    Player.objects.filter(pk__in=[player.pk for player in players]).update(language=lang)


def _as_followed_up(table_id: int) -> Table:
    return selectors.table_to_follow_up(table_id)


def _turn_alert(table_id: int) -> notify.Alert:
    [alert] = notify.alerts_for(_as_followed_up(table_id), Alerts.TURN)
    return alert


def _opponent_of(alert: notify.Alert) -> str:
    seat = alert.table.seat_of(alert.player)
    assert seat is not None
    opponent = alert.table.seats[1 - seat]
    assert opponent is not None
    return opponent.name


def _end_the_first_turn(table_id: int) -> None:
    """The first player plays their turn (TITO's choices) until it is the other's."""
    alert = _turn_alert(table_id)
    first = alert.table.seat_of(alert.player)
    assert first is not None
    while True:
        table = _as_followed_up(table_id)
        deal = Deal.objects.select_related("match").get(pk=table.current_deal_id)
        if deal.to_play != first:
            return
        state = engine.load_deal(deal)
        action = BOTS["tito"]().choose(state.view(first), random.Random(1), MatchContext(0, 0, 100))
        with committed():
            services.apply_move(table.pk, table.seats[first], action, expected_version=table.version)


@pytest.mark.parametrize(
    ("lang", "opening", "moved"),
    [
        (
            "en",
            ("Your deal against {} is open · table of four, round 1, deal {}", "The cards are dealt and the first move is yours."),
            ("Your move against {} · table of four, round 1, deal {}", "{} has played: it is your turn."),
        ),
        (
            "es",
            ("Empieza tu mano contra {} · mesa de cuatro, ronda 1, mano {}", "Las cartas están repartidas y la primera jugada es tuya."),
            ("Te toca contra {} · mesa de cuatro, ronda 1, mano {}", "{} ha jugado: es tu turno."),
        ),
    ],
)  # fmt: skip
def test_a_partnership_boards_alerts_name_the_round_and_the_deal(lang, opening, moved):
    game, players = seated_game(PARTNERSHIP)
    _speaking(lang, players)
    boards = open_boards(game)
    for board in boards:
        alert = _turn_alert(board.table_id)
        name, deal = _opponent_of(alert), board.number + 1
        assert alert.kind == "your_move"
        assert alert.texts() == (opening[0].format(name, deal), opening[1])
    _end_the_first_turn(boards[1].table_id)
    alert = _turn_alert(boards[1].table_id)
    name = _opponent_of(alert)
    assert alert.kind == "your_move" and alert.texts() == (moved[0].format(name, 2), moved[1].format(name))
    assert alert.message()["title"] == moved[0].format(name, 2)  # on the site and pushed as it says
    assert alert.url.endswith(reverse("table", args=[boards[1].table.invite_token]))  # the board's table


@pytest.mark.parametrize(
    ("lang", "first", "next_deal"),
    [
        ("en", "Your deal against {} is open · table of three, deal 1", "Your deal against {} is open · table of three, deal 2"),
        ("es", "Empieza tu mano contra {} · mesa de tres, mano 1", "Empieza tu mano contra {} · mesa de tres, mano 2"),
    ],
)  # fmt: skip
def test_a_three_player_boards_alerts_name_the_deal(lang, first, next_deal, site):
    game, players = seated_game(WINNER_STAYS, target=500)  # no single deal ends the game
    _speaking(lang, players)
    [board] = open_boards(game)
    alert = _turn_alert(board.table_id)
    assert alert.texts()[0] == first.format(_opponent_of(alert))
    site.clear()
    play_board(board.table_id, random.Random(3))
    [following] = open_boards(game)
    assert following.round == 2
    alert = _turn_alert(following.table_id)
    assert alert.texts()[0] == next_deal.format(_opponent_of(alert))
    # Its follow-up told the player it is up to, once, and nobody else at the new deal.
    token = following.table.invite_token
    sent = [
        (pid, message) for pid, message in site if message["type"] == "alert" and message["table"] == token
    ]
    assert [(pid, message["kind"], message["title"]) for pid, message in sent] == [
        (alert.player.pk, "your_move", next_deal.format(_opponent_of(alert)))
    ]


def test_the_start_tells_each_boards_first_player_once_that_the_deal_is_open(site, pushes):
    game, _ = seated_game(PARTNERSHIP)
    boards = open_boards(game)
    for board in boards:
        table = _as_followed_up(board.table_id)
        deal = table.current_deal
        assert deal is not None and deal.to_play is not None
        first = table.seats[deal.to_play]
        assert first is not None
        told = [
            (pid, m["title"]) for pid, m in site if m["type"] == "alert" and m["table"] == table.invite_token
        ]
        [(pid, title)] = told  # the start's "your move" is the one alert: no second one for the opening
        assert pid == first.pk and title.startswith("Empieza tu mano contra")
        assert title.endswith(f"mesa de cuatro, ronda 1, mano {board.number + 1}")
        assert [p for p, m in pushes if m.get("table") == table.invite_token] == [first.pk]
        notify.on_table_change(table, ChangeKind.STATE)  # the same turn followed up again
    assert len([m for _, m in site if m["type"] == "alert"]) == 2  # nothing more: one per board


def test_a_reminder_at_a_board_names_the_game_and_the_deal(site):
    game, players = seated_game(PARTNERSHIP)
    _speaking("en", players)
    board = open_boards(game)[0]
    table = _as_followed_up(board.table_id)
    deal = table.current_deal
    assert deal is not None and deal.deadline is not None and deal.to_play is not None
    site.clear()
    assert notify.send_due_reminders(now=deal.deadline - dt.timedelta(hours=1)) == 2  # both boards
    player, opponent = table.seats[deal.to_play], table.seats[1 - deal.to_play]
    assert player is not None and opponent is not None
    [title] = [m["title"] for pid, m in site if pid == player.pk and m["type"] == "alert"]
    assert title == f"1 h left to move against {opponent.name} · table of four, round 1, deal 1"


def test_a_delivery_put_off_names_the_deal_when_it_goes_out():
    game, players = seated_game(WINNER_STAYS)
    _speaking("es", players)
    [board] = open_boards(game)
    alert = _turn_alert(board.table_id)
    again = notify.rebuild("your_move", alert.player.pk, board.table_id, alert.occasion)
    assert again is not None and again.texts() == alert.texts()
    assert again.texts()[0].endswith(" · mesa de tres, mano 1")


def test_the_digest_names_a_boards_game_and_deal_beside_a_two_player_table():
    game, _ = seated_game(WINNER_STAYS)
    [board] = open_boards(game)
    alert = _turn_alert(board.table_id)
    first, other = alert.player, accounts(1, prefix="two")[0]
    table = _two_player_table(first, other, first_dealer=1)  # seat 1 deals: the owner plays first
    assert _turn_alert(table.pk).player.pk == first.pk
    Player.objects.filter(pk=first.pk).update(language="en")
    first.refresh_from_db()
    mail.outbox.clear()
    assert digest._send_digest(first) == 1
    [email] = mail.outbox
    lines = {line.split(" (")[0] for line in email.body.splitlines() if line.startswith("- ")}
    assert lines == {f"- against {_opponent_of(alert)} · table of three, deal 1", f"- against {other.name}"}


def _two_player_table(owner: Player, other: Player, first_dealer: int | None = None) -> Table:
    with committed():
        table = create_table(owner)
        join_table(table, other)
        start_match(table, owner, first_dealer=first_dealer)
    return _as_followed_up(table.pk)


def test_a_two_player_tables_alert_reads_as_before_and_costs_no_query(django_assert_num_queries):
    owner, other = accounts(2, prefix="duo")
    table = _two_player_table(owner, other)
    with django_assert_num_queries(0):
        [alert] = notify.alerts_for(table, Alerts.TURN)
        texts = alert.texts()
        message = alert.message()
    name = _opponent_of(alert)
    assert texts == (f"Te toca contra {name}", f"{name} ha jugado: es tu turno.")
    assert message["title"] == f"Te toca contra {name}" and alert.board is None


def test_a_boards_alert_costs_one_query_more_reading_the_board_once(django_assert_num_queries):
    game, _ = seated_game(PARTNERSHIP)
    board = open_boards(game)[0]
    table = _as_followed_up(board.table_id)
    with django_assert_num_queries(1):
        [alert] = notify.alerts_for(table, Alerts.TURN)
        alert.texts()
        alert.message()
        alert.texts()
    assert alert.board is not None and alert.board.pk == board.pk


def test_following_up_a_boards_move_costs_one_query_more_than_a_two_player_tables(site):
    """The whole follow-up of a turn (the alert, its claims, the players' counts), on the site
    channel alone: the same statements at both tables but the board's one read."""
    owner, other = accounts(2, prefix="pair")
    ordinary = _two_player_table(owner, other)
    game, _ = seated_game(PARTNERSHIP)
    board_table = _as_followed_up(open_boards(game)[0].table_id)
    for table in (ordinary, board_table):
        for player in table.seats:
            assert player is not None
            Player.objects.filter(pk=player.pk).update(alert_prefs={"your_move": ["site"]})
    costs = {}
    for name, table in (("two players", ordinary), ("board", board_table)):
        fresh = _as_followed_up(table.pk)
        site.clear()
        cache.clear()  # the on-site claims of the start's follow-up: this turn's alert goes again
        with CaptureQueriesContext(connection) as queries:
            notify.on_table_change(fresh, ChangeKind.MOVE)
        assert any(m["type"] == "alert" for _, m in site), name  # the alert did go out
        costs[name] = len(queries)
    assert costs["board"] == costs["two players"] + 1, costs


@pytest.mark.parametrize(
    ("kind", "context", "title"),
    [
        ("auto_vacation", {}, "Vacaciones automáticas: se agotó tu reloj contra Ana · mesa de tres, mano 1"),
        ("match_over", {"result": "Has ganado 25–0."}, "Partida terminada contra Ana · mesa de tres, mano 1"),
        ("chat", {"text": "hola"}, "Mensaje de Ana"),  # the game's conversation: named by its author
    ],
)
def test_every_alert_about_a_board_names_it_but_the_games_chat(kind, context, title):
    game, _ = seated_game(WINNER_STAYS)
    [board] = open_boards(game)
    table = _as_followed_up(board.table_id)
    player = table.seat0
    assert player is not None
    alert = notify.Alert(kind, player, table, "occasion", {"opponent": "Ana", **context})
    assert alert.texts()[0] == title
