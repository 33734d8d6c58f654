"""Bot accounts (as Lichess's BOT accounts): an account with no game declares itself one, for
good, over the API or from the profile; it is marked BOT wherever its name is shown and refused
every rated seat (403 ``bot_account_unrated``), while it plays unrated tables with its token. A
person's token is refused a move at a rated table (403 ``rated_move_by_token``), over HTTP and
on the table socket: rated games are played from the site's pages."""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import timezone

from tables.accounts import identity
from tables.accounts.models import Player
from tables.accounts.services.data_export import archive
from tables.challenges.models import Challenge
from tables.play.models import Match, Table
from tests.tables.helpers import ApiClient, choose_action, open_table, pages_in, snapshot, started
from tests.tables.live.helpers import connect, receive_type, run

pytestmark = pytest.mark.django_db(transaction=True)

RATED = {"rated": True, "turn_seconds": 86400}
UNRATED = {"ruleset": "classic", "turn_seconds": 86400}
MARK_TITLES = {"en": "bot account: a program playing through the API", "es": "cuenta bot: un programa"}


def program(account: ApiClient) -> ApiClient:
    """A program with a "play" token of ``account``."""
    _, raw = identity.issue_api_token(account.user, "program", "play")
    made = ApiClient(token=raw, name=f"{account.name} program")
    made.raw = raw
    return made


def player_of(account: ApiClient) -> Player:
    return identity.player_for_user(account.user)


def declared(account: ApiClient) -> dict[str, Any]:
    return account.ok("post", "/me/bot")


def refused(response, status: int, code: str) -> None:
    assert response.status_code == status, (response.status_code, response.content[:300])
    assert response.json()["error"] == code, response.json()


def test_an_account_with_no_game_declares_itself_a_bot_for_good(alice) -> None:
    bot = program(alice)
    assert bot.ok("get", "/me")["bot_account_at"] is None
    made = bot.ok("post", "/me/bot")
    assert made["bot_account_at"] is not None and player_of(alice).is_bot_account
    refused(bot.post("/me/bot"), 409, "conflict")  # once, for good
    assert alice.ok("get", "/me")["bot_account_at"] == made["bot_account_at"]
    assert archive(player_of(alice))["profile"]["bot_account_at"].isoformat() == made["bot_account_at"]
    reader_raw = identity.issue_api_token(alice.user, "reader", "read")[1]
    refused(ApiClient(token=reader_raw).post("/me/bot"), 403, "missing_scope")
    guest = ApiClient(name="Gus")
    refused(guest.post("/me/bot"), 401, "not_authenticated")
    guest.ok("post", f"/tables/{open_table(alice)['table']}/join", {"name": "Gus"})
    refused(guest.post("/me/bot"), 403, "forbidden")  # a guest: sign up first
    schema = alice.client.get("/api/openapi.json").json()
    operation = schema["paths"]["/api/me/bot"]["post"]
    assert {"200", "403", "409"} <= set(operation["responses"]) and "bot account" in operation["summary"]
    assert "bot_account_at" in schema["components"]["schemas"]["ProfileOut"]["properties"]
    assert "is_bot_account" in schema["components"]["schemas"]["SeatOut"]["properties"]


def test_an_account_that_has_played_may_not_become_a_bot(alice, bob) -> None:
    token, _ = started(alice, bob, **UNRATED)
    assert 'id="declare-bot"' not in alice.client.get("/me/profile/").content.decode()
    refused(alice.post("/me/bot"), 409, "conflict")
    assert "ninguna partida" in alice.post("/me/bot").json()["detail"]  # the API speaks Spanish by default
    assert not player_of(alice).is_bot_account and Match.objects.filter(table__invite_token=token).exists()


def test_the_profile_declares_it_after_the_box_is_ticked_and_shows_the_mark_in_both_languages(alice) -> None:
    assert 'id="declare-bot"' in alice.client.get("/me/profile/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert alice.client.post("/me/bot/").status_code == 302  # the box unticked: nothing happens
    assert not player_of(alice).is_bot_account
    assert alice.client.post("/me/bot/", {"confirm": "yes"}).status_code == 302
    assert player_of(alice).is_bot_account
    assert alice.client.get("/me/bot/").status_code == 405
    for language, title in MARK_TITLES.items():
        alice.client.cookies["django_language"] = language
        page = alice.client.get("/me/profile/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
        assert 'id="declare-bot"' not in page and ">BOT</abbr>" in page and title in page, language


def test_a_bot_account_is_refused_every_rated_seat_and_plays_unrated(alice, bob) -> None:
    bot = program(alice)
    declared(bot)
    rated_table = open_table(bob, **RATED)["table"]
    tables_before = Table.objects.count()
    refused(bot.post("/tables", RATED), 403, "bot_account_unrated")
    assert "es una cuenta bot" in bot.post("/tables", RATED).json()["detail"]
    refused(bot.post(f"/tables/{rated_table}/join", {}), 403, "bot_account_unrated")
    assert Table.objects.get(invite_token=rated_table).seat1_id is None
    bob_id, bot_id = player_of(bob).pk, player_of(alice).pk
    refused(bot.post("/challenges", {"opponent_id": bob_id, **UNRATED, **RATED}), 403, "bot_account_unrated")
    refused(bob.post("/challenges", {"opponent_id": bot_id, **UNRATED, **RATED}), 403, "bot_account_unrated")
    refused(bot.post("/seeks", {**UNRATED, **RATED}), 403, "bot_account_unrated")
    seek = bob.ok("post", "/seeks", {**UNRATED, **RATED}, status=201)
    refused(bot.post(f"/challenges/{seek['id']}/accept"), 403, "bot_account_unrated")
    assert Challenge.objects.get(pk=seek["id"]).status == Challenge.Status.OPEN
    assert Table.objects.count() == tables_before

    made = bot.ok("post", "/challenges", {"opponent_id": bob_id, **UNRATED}, status=201)
    state = bob.ok("post", f"/challenges/{made['id']}/accept")
    assert state["status"] == "playing" and state["options"]["rated"] is False
    seat = 1 - state["you"]["seat"]
    assert state["seats"][seat]["is_bot_account"] is True
    assert state["seats"][1 - seat]["is_bot_account"] is False


def test_an_account_seated_before_it_became_a_bot_cannot_start_a_rated_match(alice, bob) -> None:
    token = open_table(bob, **RATED)["table"]
    alice.ok("post", f"/tables/{token}/join", {})
    declared(alice)  # no game yet: allowed; its seat shows the mark at once
    assert bob.state(token)["seats"][1]["is_bot_account"] is True
    before = snapshot(token)
    refused(bob.post(f"/tables/{token}/start", {}), 403, "bot_account_unrated")
    assert snapshot(token) == before


def test_no_rated_rematch_with_a_bot_account(alice, bob) -> None:
    token, _ = started(alice, bob, **RATED)
    state = alice.state(token)
    alice.ok("post", f"/tables/{token}/resign", {"expected_version": state["version"]})
    # The declaration is refused once an account has played; a row marked since (by staff, say)
    # is still refused the rated rematch, whoever offers it.
    Player.objects.filter(pk=player_of(alice).pk).update(bot_account_at=timezone.now())
    refused(alice.post(f"/tables/{token}/rematch/offer"), 403, "bot_account_unrated")
    bob.ok("post", f"/tables/{token}/rematch/offer")
    refused(alice.post(f"/tables/{token}/rematch/accept"), 403, "bot_account_unrated")
    assert Match.objects.filter(table__invite_token=token).count() == 1


def _to_play(token: str, players: dict[int, ApiClient]) -> tuple[int, dict[str, Any]]:
    state = players[0].state(token)
    return state["deal"]["view"]["to_play"], players[state["deal"]["view"]["to_play"]].state(token)


def _move(state: dict[str, Any], turn: int, move_id: str) -> dict[str, Any]:
    action = choose_action(state["deal"]["view"], turn)
    return {"action": action, "expected_version": state["version"], "client_move_id": move_id}


def _socket_move(token: str, raw: str, body: dict[str, Any]) -> dict[str, Any]:
    """The answer on the table socket, opened with the API token ``raw``, to the move ``body``."""

    async def exchange() -> dict[str, Any]:
        socket = await connect(f"/ws/tables/{token}/", token=raw)
        await receive_type(socket, "snapshot")
        await socket.send_json_to({"type": "move", **body})
        answer = await receive_type(socket, "move_result", "error")
        await socket.disconnect()
        return answer

    return run(exchange)


def test_a_persons_token_is_refused_a_rated_move_over_http_and_on_the_socket(alice, bob) -> None:
    token, players = started(alice, bob, **RATED)
    seat, state = _to_play(token, players)
    mover = program(players[seat])
    body = _move(state, 0, "by-token")
    before = snapshot(token)
    answer = mover.post(f"/tables/{token}/moves", body)
    refused(answer, 403, "rated_move_by_token")
    assert "páginas del sitio" in answer.json()["detail"]
    assert snapshot(token) == before
    error = _socket_move(token, mover.raw, body)
    assert (error["type"], error["status"], error["code"]) == ("error", 403, "rated_move_by_token")
    assert error["client_move_id"] == "by-token" and snapshot(token) == before
    players[seat].ok("post", f"/tables/{token}/moves", body)  # the same move from the site's page


def test_a_bot_accounts_token_plays_an_unrated_table_over_http_and_on_the_socket(alice, bob) -> None:
    bot = program(alice)
    declared(bot)
    token = bot.ok("post", "/tables", UNRATED, status=201)["table"]
    bob.ok("post", f"/tables/{token}/join", {})
    bot.ok("post", f"/tables/{token}/start", {})
    players, turn = {0: bot, 1: bob}, 0

    def bots_turn() -> dict[str, Any]:
        """Bob (a person, from the page) plays until it is the bot's turn: the state then."""
        nonlocal turn
        seat, state = _to_play(token, players)
        while seat != 0:
            bob.ok("post", f"/tables/{token}/moves", _move(state, turn, f"b{turn}"))
            turn += 1
            seat, state = _to_play(token, players)
        turn += 1
        return state

    assert bot.ok("post", f"/tables/{token}/moves", _move(bots_turn(), turn, "http"))["applied"] is True
    answer = _socket_move(token, bot.raw, _move(bots_turn(), turn, "socket"))
    assert answer["type"] == "move_result" and answer["client_move_id"] == "socket", answer


def test_the_mark_shows_in_the_archive_and_on_the_match_page_in_both_languages(alice, bob) -> None:
    bot = program(alice)
    declared(bot)
    token = bot.ok("post", "/tables", UNRATED, status=201)["table"]
    bob.ok("post", f"/tables/{token}/join", {})
    state = bot.ok("post", f"/tables/{token}/start", {})
    bob.ok("post", f"/tables/{token}/resign", {"expected_version": state["version"]})
    match = Match.objects.get(table__invite_token=token)
    named = ("/me/archive/", f"/matches/{match.pk}/", f"/players/{player_of(alice).pk}/")
    for language, title in MARK_TITLES.items():
        # The table page draws its seats from the state (is_bot_account): only its answer is checked.
        pages = pages_in(bob.client, language, [*named, f"/t/{token}/"])
        for path in named:
            assert ">BOT</abbr>" in pages[path] and title in pages[path], (language, path)
    assert bob.state(token)["seats"][0]["is_bot_account"] is True


def test_the_mark_shows_in_the_lobby_and_the_challenges_and_rated_seeks_are_greyed_for_a_bot(
    alice, bob
) -> None:
    bot = program(alice)
    declared(bot)
    bot_id = player_of(alice).pk
    seek = bot.ok("post", "/seeks", UNRATED, status=201)
    assert seek["challenger_is_bot_account"] is True and seek["challenged_is_bot_account"] is False
    bot.ok("post", "/tables", {**UNRATED, "visibility": "public"}, status=201)
    (listed,) = bob.ok("get", "/lobby")["tables"]
    assert listed["owner_is_bot_account"] is True
    made = bob.ok("post", "/challenges", {"opponent_id": bot_id, **UNRATED}, status=201)
    assert (made["challenger_is_bot_account"], made["challenged_is_bot_account"]) == (False, True)
    rated_seek = bob.ok("post", "/seeks", {**UNRATED, **RATED}, status=201)
    for language, title in MARK_TITLES.items():
        pages = pages_in(bob.client, language, ["/lobby/", "/challenges/"])
        assert pages["/lobby/"].count(">BOT</abbr>") == 2 and title in pages["/lobby/"], language
        assert pages["/challenges/"].count(">BOT</abbr>") == 1, language  # the challenge bob sent
        lobby = pages_in(alice.client, language, ["/lobby/"])["/lobby/"]
        row = lobby[lobby.index(f'data-seek="{rated_seek["id"]}"') :].split("</li>")[0]
        assert "disabled" in row and f"/challenges/{rated_seek['id']}/accept/" not in row, language
