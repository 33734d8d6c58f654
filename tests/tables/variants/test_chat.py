"""One chat for the whole table of three or four: what is written on the game page and at any
board's table is one conversation, read on the game page and at every board; the spectators'
channel as the game's option says; the table chat's refusals, each changing nothing; the chat
alert to the other players of the game, once; a report from the other board."""

from __future__ import annotations

import datetime as dt
import random

import pytest
from django.test import Client
from django.utils import timezone

from tables.alerts import notify
from tables.core.announcements import Alerts
from tables.play.models import ChatMessage, Table
from tables.play.selectors import shared_chat
from tables.social import services as social
from tables.social.models import SocialSettings
from tables.variants.models import Board
from tests.tables.helpers import ApiClient, make_account_client

from .helpers import committed, play_board

pytestmark = pytest.mark.django_db

NAMES = ("ana", "ben", "cleo", "dan")


def opened(count: int, **options) -> tuple[str, list[ApiClient]]:
    """A game of ``count`` players through the API, every seat an account, not started."""
    clients = [make_account_client(f"{name}@example.com") for name in NAMES[:count]]
    token = clients[0].ok("post", "/games", {"players": count, "ruleset": "classic", **options}, 201)["token"]
    for client in clients[1:]:
        client.ok("post", f"/games/{token}/join", {})
    return token, clients


def started_game(count: int, **options) -> tuple[str, list[ApiClient], list[dict]]:
    token, clients = opened(count, **options)
    with committed():
        boards = clients[0].ok("post", f"/games/{token}/start")["boards"]
    return token, clients, boards


def texts(messages: list[dict]) -> list[str]:
    return [message["text"] for message in messages]


def test_the_game_page_and_both_boards_of_four_write_in_one_conversation():
    token, (ana, ben, cleo, dan), boards = started_game(4)
    first, second = boards
    ana.ok("post", f"/games/{token}/chat", {"text": "hola a todos"}, 201)
    at_first = first["players"]  # the seats at the first board's table: they write there
    writer = (ana, ben, cleo, dan)[at_first[1]]
    other = (ana, ben, cleo, dan)[second["players"][0]]
    writer.ok("post", f"/tables/{first['table']}/chat", {"text": "suerte"}, 201)
    other.ok("post", f"/tables/{second['table']}/chat", {"text": "igualmente"}, 201)
    conversation = ["hola a todos", "suerte", "igualmente"]
    for client in (ana, ben, cleo, dan):
        assert texts(client.ok("get", f"/games/{token}/chat")["messages"]) == conversation
        for board in boards:  # every board's table, seated there or not
            listed = client.ok("get", f"/tables/{board['table']}/chat")["messages"]
            assert texts(listed) == conversation
            assert {message["channel"] for message in listed} == {"players"}
    after = ana.ok("get", f"/games/{token}/chat")["messages"][0]["id"]
    assert texts(ben.ok("get", f"/games/{token}/chat?after={after}")["messages"]) == conversation[1:]


def test_the_waiting_player_of_three_talks_with_the_board_and_reads_it():
    token, clients, [board] = started_game(3)
    seats = board["players"]
    waiting = clients[({0, 1, 2} - set(seats)).pop()]
    waiting.ok("post", f"/games/{token}/chat", {"text": "os miro"}, 201)
    posted = waiting.ok("post", f"/tables/{board['table']}/chat", {"text": "desde la mesa"}, 201)
    assert posted["channel"] == "players"  # a player of the game, though not at this board
    clients[seats[0]].ok("post", f"/tables/{board['table']}/chat", {"text": "gracias"}, 201)
    for client in clients:
        listed = client.ok("get", f"/tables/{board['table']}/chat")["messages"]
        assert texts(listed) == ["os miro", "desde la mesa", "gracias"]
    assert texts(waiting.ok("get", f"/games/{token}/chat")["messages"])[-1] == "gracias"


def test_the_next_round_keeps_the_conversation():
    token, (ana, *_rest), boards = started_game(4, target=10000)
    ana.ok("post", f"/games/{token}/chat", {"text": "ronda uno"}, 201)
    for number, board in enumerate(boards):
        play_board(Table.objects.get(invite_token=board["table"]).pk, random.Random(number))
    newest = Board.objects.filter(round=2).order_by("number").last()
    assert newest is not None
    ana.ok("post", f"/games/{token}/chat", {"text": "ronda dos"}, 201)
    assert ChatMessage.objects.get(text="ronda dos").table_id == newest.table_id  # kept at the newest
    listed = ana.ok("get", f"/tables/{boards[1]['table']}/chat")["messages"]
    assert texts(listed) == ["ronda uno", "ronda dos"]


def test_spectators_write_in_their_own_channel_that_players_do_not_read():
    token, (ana, *_rest), boards = started_game(4)
    eve = make_account_client("eve@example.com")
    posted = eve.ok("post", f"/games/{token}/chat", {"text": "qué partida"}, 201)
    assert posted["channel"] == "spectators"
    eve.ok("post", f"/tables/{boards[1]['table']}/chat", {"text": "desde fuera"}, 201)
    ana.ok("post", f"/games/{token}/chat", {"text": "hola"}, 201)
    assert texts(ana.ok("get", f"/games/{token}/chat")["messages"]) == ["hola"]
    assert texts(ana.ok("get", f"/tables/{boards[1]['table']}/chat")["messages"]) == ["hola"]
    seen = eve.ok("get", f"/tables/{boards[0]['table']}/chat")["messages"]
    assert texts(seen) == ["qué partida", "desde fuera", "hola"]


def test_with_the_spectators_chat_off_an_outsider_is_refused_everywhere():
    token, (ana, *_rest), boards = started_game(4, spectator_chat=False)
    eve = make_account_client("eve@example.com")
    before = ChatMessage.objects.count()
    assert eve.post(f"/games/{token}/chat", {"text": "hola"}).status_code == 403
    assert eve.post(f"/tables/{boards[0]['table']}/chat", {"text": "hola"}).status_code == 403
    assert ChatMessage.objects.count() == before
    ana.ok("post", f"/games/{token}/chat", {"text": "solo nosotros"}, 201)


def test_bad_input_is_refused_with_a_clear_error_and_changes_nothing():
    token, clients = opened(3)
    ana = clients[0]
    refused = ana.post(f"/games/{token}/chat", {"text": "antes de empezar"})
    assert refused.status_code == 409 and refused.json()["detail"]
    with committed():
        ana.ok("post", f"/games/{token}/start")
    path = f"/games/{token}/chat"
    assert ana.post(path, {"text": "   "}).json()["field"] == "text"
    assert ana.post(path, {"text": "   "}).status_code == 400
    assert ana.post(path, {"text": "x" * (ChatMessage.MAX_LENGTH + 1)}).status_code == 413
    assert ana.post(path, {"text": 7}).status_code in (400, 422)
    assert ana.post(path, {}).status_code in (400, 422)
    assert ApiClient(Client()).post(path, {"text": "anónimo"}).status_code == 401
    assert ana.post("/games/nonsense/chat", {"text": "hola"}).status_code == 404
    assert ChatMessage.objects.count() == 0
    ben = clients[1]
    until = timezone.now() + dt.timedelta(days=1)
    SocialSettings.objects.update_or_create(player=ben.user.player, defaults={"chat_muted_until": until})
    muted = ben.post(path, {"text": "hola"})
    assert muted.status_code == 403 and muted.json()["detail"]
    assert ChatMessage.objects.count() == 0
    for number in range(5):
        ana.ok("post", path, {"text": f"mensaje {number}"}, 201)
    limited = ana.post(path, {"text": "uno más"})
    assert limited.status_code == 429 and limited.json()["detail"]
    assert ChatMessage.objects.count() == 5


def test_the_game_page_shows_the_chat_and_its_form_writes_in_it():
    token, clients = opened(3)
    ana = clients[0]
    assert 'id="game-chat-closed"' in ana.client.get(f"/g/{token}/").content.decode()
    with committed():
        board = ana.ok("post", f"/games/{token}/start")["boards"][0]
    response = ana.client.post(f"/g/{token}/chat/", {"text": "desde la página"})
    assert response.status_code == 302
    clients[1].ok("post", f"/tables/{board['table']}/chat", {"text": "<b>hola</b>"}, 201)
    page = ana.client.get(f"/g/{token}/").content.decode()
    assert "desde la página" in page and "&lt;b&gt;hola&lt;/b&gt;" in page and 'id="game-chat-form"' in page
    table_page = ana.client.get(f"/t/{board['table']}/").content.decode()
    assert 'id="game-chat-note"' in table_page and "desde la p\\u00e1gina" in table_page  # json_script
    for client in clients:  # the waiting player too: a player of the game at every board
        assert 'data-game-player="1"' in client.client.get(f"/t/{board['table']}/").content.decode()
    outsider = make_account_client("eve@example.com").client.get(f"/t/{board['table']}/").content.decode()
    assert 'id="game-chat-note" data-game-player=""' in outsider
    ana.client.post(f"/g/{token}/chat/", {"text": ""})  # refused on the page: nothing stored
    assert ChatMessage.objects.count() == 2


def test_a_message_alerts_every_other_player_of_the_game_once():
    token, (ana, ben, cleo, dan), boards = started_game(4)
    first = boards[0]
    table = Table.objects.select_related("seat0", "seat1").get(invite_token=first["table"])
    ana.ok("post", f"/games/{token}/chat", {"text": "¿seguimos?"}, 201)
    stored = ChatMessage.objects.get().table
    alerts = notify.alerts_for(Table.objects.select_related("seat0", "seat1").get(pk=stored.pk), Alerts.CHAT)
    told = sorted(alert.player.pk for alert in alerts)
    assert told == sorted(client.user.player.pk for client in (ben, cleo, dan))
    assert {alert.occasion for alert in alerts} == {f"chat:{ChatMessage.objects.get().pk}"}
    for alert in alerts:  # each at the board where they play, whose page shows the chat
        assert alert.table.seat_of(alert.player) is not None
    assert notify.alerts_for(table, Alerts.CHAT)[0].occasion == alerts[0].occasion  # one occasion


def test_the_partner_at_the_other_board_may_report_a_message():
    _token, clients, boards = started_game(4)
    first, second = boards
    author = clients[first["players"][0]]
    reporter = clients[second["players"][0]]
    author.ok("post", f"/tables/{first['table']}/chat", {"text": "grosería"}, 201)
    message = ChatMessage.objects.get()
    report = social.report(reporter.user.player, author.user.player, "abuse", chat_message_id=message.pk)
    assert report.chat_message_id == message.pk


def test_a_long_conversation_opens_at_its_newest_messages():
    token, (ana, *_rest), boards = started_game(4)
    tables = [Table.objects.get(invite_token=board["table"]) for board in boards]
    ChatMessage.objects.bulk_create(
        ChatMessage(table=tables[number % 2], author=ana.user.player, text=f"m{number}")
        for number in range(105)
    )
    shown = texts(ana.ok("get", f"/games/{token}/chat")["messages"])
    assert shown == [f"m{number}" for number in range(5, 105)]  # the newest hundred, in order
    first = ChatMessage.objects.order_by("id").first()
    assert texts(ana.ok("get", f"/games/{token}/chat?after={first.pk}")["messages"])[:2] == ["m1", "m2"]


def test_a_table_that_cannot_be_a_board_asks_no_query_for_a_shared_chat(django_assert_num_queries):
    _token, _clients, boards = started_game(4)
    board = Table.objects.get(invite_token=boards[0]["table"])
    two_player = Table(pk=board.pk, rated=True, visibility=Table.Visibility.INVITE)
    with django_assert_num_queries(0):
        assert shared_chat(two_player) is None
    with django_assert_num_queries(2):
        assert shared_chat(board) is not None
