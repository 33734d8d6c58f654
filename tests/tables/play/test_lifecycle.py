"""Guests, spectators, rematch, resign, timeouts and forfeit, bots: through the HTTP API."""

from __future__ import annotations

import datetime as dt

import pytest
from celery import current_app
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import timezone

from tables.accounts.identity import GUEST_COOKIE
from tables.accounts.models import Player
from tables.background import registry, scheduling
from tables.bank.engine import SLOW_START
from tables.play import services, tasks
from tables.play.models import ChatMessage, Deal, Match, Table
from tests.tables.helpers import (
    ApiClient,
    assert_no_hidden_cards,
    open_table,
    play_match,
    snapshot,
    started,
    to_play,
)

pytestmark = pytest.mark.django_db


def _expire(token: str) -> None:
    table = Table.objects.get(invite_token=token)
    Deal.objects.filter(pk=table.current_deal_id).update(deadline=timezone.now() - dt.timedelta(seconds=1))


def test_guest_joins_by_link_plays_and_converts_keeping_the_match(alice):
    token = open_table(alice)["table"]
    guest = ApiClient(name="Nadia")
    joined = guest.ok("post", f"/tables/{token}/join", {"name": "Nadia"})
    assert joined["you"]["seat"] == 1 and joined["seats"][1] == {
        "name": "Nadia",
        "is_bot": False,
        "bot_level": None,
        "is_guest": True,
        "is_bot_account": False,
        "vacation_until": None,
        "player_url": None,
    }
    assert GUEST_COOKIE in guest.client.cookies

    state = alice.ok("post", f"/tables/{token}/start", {})
    final = play_match(token, {state["you"]["seat"]: alice, 1 - state["you"]["seat"]: guest})
    assert final["status"] == "match_over"

    # Days later, in a new session: the signed cookie alone still identifies the guest.
    later = ApiClient(Client(), name="Nadia")
    later.client.cookies[GUEST_COOKIE] = guest.client.cookies[GUEST_COOKIE].value
    assert later.state(token)["you"]["seat"] == 1

    response = later.client.post(
        "/accounts/signup/",
        {
            "email": "nadia@example.com",
            "password1": "a long enough password 1",
            "password2": "a long enough password 1",
        },
    )
    assert response.status_code in (200, 302)
    user = get_user_model().objects.get(email="nadia@example.com")
    nadia = Player.objects.get(user=user)
    assert nadia.display_name == "Nadia" and not nadia.is_guest
    assert Table.objects.get(invite_token=token).seat1_id == nadia.pk

    account = Client()
    account.force_login(user)
    mine = ApiClient(account).ok("get", "/me/tables")["tables"]
    assert [row["table"] for row in mine] == [token]
    assert ApiClient(account).state(token)["match"]["final_scores"] == final["match"]["final_scores"]


def test_third_visitor_watches_and_sees_no_hand(alice, bob):
    token, players = started(alice, bob)
    visitor = ApiClient(name="Third")
    watched = visitor.ok("post", f"/tables/{token}/join", {"name": "Third"})
    assert watched["you"]["seat"] is None
    view = watched["deal"]["view"]
    assert view["hand"] is None and view["legal_actions"] == [] and view["drawn"] is None
    before = snapshot(token)
    assert visitor.ok("post", f"/tables/{token}/join", {})["you"]["seat"] is None
    assert snapshot(token) == before
    assert_no_hidden_cards(token, players, [visitor])
    page = visitor.client.get(f"/t/{token}/")
    visitor.received.append(page.content.decode())
    assert_no_hidden_cards(token, players, [visitor])


def test_a_full_table_before_the_start_also_makes_a_spectator(alice, bob):
    token = open_table(alice)["table"]
    bob.ok("post", f"/tables/{token}/join", {})
    third = ApiClient()
    assert third.ok("post", f"/tables/{token}/join", {"name": "Late"})["you"]["seat"] is None


def test_rematch_after_a_match_same_table_same_chat(alice, bob):
    token, players = started(alice, bob)
    alice.ok("post", f"/tables/{token}/chat", {"text": "good luck"}, status=201)
    play_match(token, players)
    offered = bob.ok("post", f"/tables/{token}/rematch/offer")
    bob_seat = offered["you"]["seat"]
    assert offered["rematch"]["offered_by"] == bob_seat and offered["status"] == "match_over"
    # The offer waits for alice (a turn's time at this slow table: tests/tables/play/test_rematch_expiry.py).
    assert alice.state(token)["rematch"]["offered_by"] == bob_seat
    accepted = alice.ok("post", f"/tables/{token}/rematch/accept")
    assert accepted["status"] == "playing" and accepted["match"]["number"] == 2
    assert accepted["rematch"] == {"offered_by": None, "declined_by": None, "expires_at": None}
    assert [m["text"] for m in alice.ok("get", f"/tables/{token}/chat")["messages"]] == ["good luck"]
    assert Match.objects.filter(table__invite_token=token).count() == 2


def test_rematch_declined(alice, bob):
    token, players = started(alice, bob)
    play_match(token, players)
    alice.ok("post", f"/tables/{token}/rematch/offer")
    declined = bob.ok("post", f"/tables/{token}/rematch/decline")
    assert (
        declined["rematch"]["offered_by"] is None
        and declined["rematch"]["declined_by"] == declined["you"]["seat"]
    )
    assert bob.request("post", f"/tables/{token}/rematch/accept", {}).status_code == 409


def test_resign_gives_the_match_to_the_opponent(alice, bob):
    token, players = started(alice, bob, ruleset="classic")
    mover, waiter, state = to_play(token, players)
    result = waiter.ok("post", f"/tables/{token}/resign", {"expected_version": state["version"]})
    match = result["match"]
    assert result["status"] == "match_over" and match["outcome"] == "resigned"
    assert match["winner"] == 1 - result["you"]["seat"]
    assert match["final_scores"][match["winner"]]["game_bonus"] == 200  # classic shutout bonus
    assert result["deal"]["status"] == "abandoned" and result["deal"]["view"]["result"] is None
    mover.state(token)
    assert_no_hidden_cards(token, players)  # an abandoned deal's hands stay hidden
    assert (
        mover.request(
            "post", f"/tables/{token}/moves", {"action": "pass", "expected_version": result["version"]}
        ).status_code
        == 409
    )


def test_forfeit_after_consecutive_timeouts(alice, bob):
    token, players = started(alice, bob, forfeit_after=3)
    first = players[0].state(token)["deal"]["view"]["to_play"]
    for _ in range(20):
        _expire(token)
        assert services.sweep_overdue() == 1
        if Match.objects.get(table__invite_token=token).status == Match.Status.OVER:
            break
    match = Match.objects.get(table__invite_token=token)
    assert match.outcome == Match.Outcome.FORFEIT and match.decided_by_timeout
    assert match.winner == 1 - first and match.timeouts_in_row[first] == 3
    state = alice.state(token)
    assert state["match"]["outcome"] == "forfeit" and state["deal"]["deadline"] is None
    moves = Deal.objects.get(pk=Table.objects.get(invite_token=token).current_deal_id).moves
    assert set(moves.values_list("source", flat=True)) <= {"timeout"}


def test_a_move_resets_the_timeout_count(alice, bob):
    token, players = started(alice, bob, ruleset="playgridia")
    mover, _, state = to_play(token, players)
    _expire(token)
    services.sweep_overdue()
    match = Match.objects.get(table__invite_token=token)
    timed_out = state["you"]["seat"]
    assert match.timeouts_in_row[timed_out] == 1
    _, waiting, _ = to_play(token, players)
    assert waiting is mover
    _expire(token)
    services.sweep_overdue()  # the other seat times out too; now it is the first seat's turn again
    again = mover.state(token)
    mover.ok("post", f"/tables/{token}/moves", {"action": "draw_stock", "expected_version": again["version"]})
    assert Match.objects.get(pk=match.pk).timeouts_in_row[timed_out] == 0


def test_a_stale_or_early_timeout_does_nothing(alice, bob):
    token, _ = started(alice, bob)
    table = Table.objects.get(invite_token=token)
    before = snapshot(token)
    assert services.apply_timeout(table.current_deal_id, table.version) is None  # clock not run out
    _expire(token)
    before = snapshot(token)
    assert services.apply_timeout(table.current_deal_id, table.version - 1) is None
    assert snapshot(token) == before


def _ready_to_draw(token: str, players) -> tuple[ApiClient, dict]:
    """Past the offer round (both pass): the player to move may draw from the stock."""
    mover, _, state = to_play(token, players)
    while "draw_stock" not in state["deal"]["view"]["legal_actions"]:
        mover.ok("post", f"/tables/{token}/moves", {"action": "pass", "expected_version": state["version"]})
        mover, _, state = to_play(token, players)
    return mover, state


def _play(mover: ApiClient, token: str, state: dict, action: str, card: str | None = None) -> dict:
    body = {"action": action, "card": card, "expected_version": state["version"]}
    return mover.ok("post", f"/tables/{token}/moves", body)["state"]


def test_a_clock_set_as_the_turn_began_still_holds_after_the_players_draw(alice, bob):
    token, players = started(alice, bob)
    mover, state = _ready_to_draw(token, players)
    turn_began = state["version"]
    _play(mover, token, state, "draw_stock")
    deal = Table.objects.get(invite_token=token).current_deal
    _expire(token)
    deadline = Deal.objects.get(pk=deal.pk).deadline.isoformat()
    before = snapshot(token)
    assert services.apply_timeout(deal.pk, turn_began, "2000-01-01T00:00:00+00:00") is None  # another turn's
    assert services.apply_timeout(deal.pk, turn_began) is None  # no deadline given: the version decides
    assert snapshot(token) == before
    outcome = services.apply_timeout(deal.pk, turn_began, deadline)
    assert outcome is not None and outcome.move.action.startswith("discard")
    assert Table.objects.get(invite_token=token).version == turn_began + 2  # the draw, then the discard
    assert services.apply_timeout(deal.pk, turn_began, deadline) is None  # once only


def test_a_draw_sends_no_follow_up_task_but_the_turn_that_passes_does(
    alice, bob, monkeypatch, django_capture_on_commit_callbacks
):
    followed = []
    monkeypatch.setattr(scheduling, "after_table_change", lambda *args: followed.append(args[2]))
    token, players = started(alice, bob)
    mover, state = _ready_to_draw(token, players)
    with django_capture_on_commit_callbacks(execute=True):
        state = _play(mover, token, state, "draw_stock")
    assert followed == []
    with django_capture_on_commit_callbacks(execute=True):
        _play(mover, token, state, "discard", state["deal"]["coach"]["best_discard"]["card"])
    assert followed == ["move"]


def test_a_chat_message_alerts_but_leaves_the_turns_clock_alone(alice, bob, monkeypatch):
    planned = []
    monkeypatch.setattr(scheduling, "schedule_deadline", lambda *args: planned.append(args))
    token, _ = started(alice, bob)
    table = Table.objects.get(invite_token=token)
    tasks.table_changed(table.pk, table.version, "chat")
    assert planned == []  # the move before it planned the deadline already
    tasks.table_changed(table.pk, table.version, "move")
    assert len(planned) == 1


def test_the_server_deals_the_next_deal_when_nobody_does(alice, bob):
    token, players = started(alice, bob, ruleset="reino")
    from tests.tables.helpers import play_deal

    state = play_deal(token, players)
    assert state["status"] == "between_deals" and state["deal"]["deadline"]
    _expire(token)
    assert services.sweep_overdue() == 1
    state = alice.state(token)
    assert state["status"] == "playing" and state["deal"]["number"] == 2


def test_owner_adds_a_bot_and_the_bot_is_handed_its_turn(
    alice, monkeypatch, django_capture_on_commit_callbacks
):
    handed = []

    class FakeTask:
        @staticmethod
        def delay(deal_id, version):
            handed.append((deal_id, version))

    monkeypatch.setitem(current_app.tasks, registry.PLAY_BOT_TURN.name, FakeTask)
    token = open_table(alice)["table"]
    with_bot = alice.ok("post", f"/tables/{token}/bot", {"level": "luna"})
    assert with_bot["seats"][1] == {
        "name": "LUNA",
        "is_bot": True,
        "bot_level": "luna",
        "is_guest": False,
        "is_bot_account": False,
        "vacation_until": None,
        "player_url": None,
    }
    with django_capture_on_commit_callbacks(execute=True):
        state = alice.ok("post", f"/tables/{token}/start", {})
    table = Table.objects.get(invite_token=token)
    if state["deal"]["view"]["to_play"] == 1:
        assert handed == [(table.current_deal_id, table.version)]
    else:
        assert handed == []
        view = state["deal"]["view"]
        with django_capture_on_commit_callbacks(execute=True):
            alice.ok(
                "post",
                f"/tables/{token}/moves",
                {"action": view["legal_actions"][-1], "expected_version": state["version"]},
            )
    # The bot plays through the same service, as the bots issue's task will.
    table.refresh_from_db()
    bot = table.seat1
    deal = Deal.objects.get(pk=table.current_deal_id)
    if deal.to_play == 1:
        from tables.play.engine import load_deal

        action = load_deal(deal).timeout_action()
        outcome = services.apply_move(table.pk, bot, action, table.version, source="bot")
        assert outcome.move.source == "bot" and outcome.move.actor_id == bot.pk


def test_chat_message_is_stored_escaped_and_limited(alice, bob):
    token, _ = started(alice, bob)
    posted = alice.ok("post", f"/tables/{token}/chat", {"text": "<b>hola</b>"}, status=201)
    assert posted["text"] == "<b>hola</b>"  # JSON carries plain text; pages escape it
    page = bob.client.get(f"/t/{token}/")
    assert page.status_code == 200 and b"<b>hola</b>" not in page.content
    assert alice.request("post", f"/tables/{token}/chat", {"text": "x" * 501}).json()["field"] == "text"
    for _ in range(4):
        alice.ok("post", f"/tables/{token}/chat", {"text": "again"}, status=201)
    before = ChatMessage.objects.count()
    limited = alice.request("post", f"/tables/{token}/chat", {"text": "too fast"})
    assert limited.status_code == 429 and ChatMessage.objects.count() == before


def test_spectator_channel_mute_and_staff_hiding(alice, bob):
    token, _ = started(alice, bob)
    watcher = ApiClient()
    watcher.ok("post", f"/tables/{token}/join", {"name": "Kibitz"})
    watcher.ok("post", f"/tables/{token}/chat", {"text": "from the rail"}, status=201)
    bob.ok("post", f"/tables/{token}/chat", {"text": "hi alice"}, status=201)
    assert [m["text"] for m in alice.ok("get", f"/tables/{token}/chat")["messages"]] == ["hi alice"]
    assert {m["channel"] for m in watcher.ok("get", f"/tables/{token}/chat")["messages"]} == {
        "players",
        "spectators",
    }
    bob_seat = bob.state(token)["you"]["seat"]
    alice.ok("post", f"/tables/{token}/chat/mute", {"seat": bob_seat})
    assert alice.ok("get", f"/tables/{token}/chat")["messages"] == []
    assert [m["text"] for m in bob.ok("get", f"/tables/{token}/chat")["messages"]] == ["hi alice"]
    ChatMessage.objects.filter(text="hi alice").update(hidden=True)
    assert bob.ok("get", f"/tables/{token}/chat")["messages"] == []


def test_spectator_chat_can_be_turned_off(alice, bob):
    token, _ = started(alice, bob, spectator_chat=False)
    watcher = ApiClient()
    watcher.ok("post", f"/tables/{token}/join", {"name": "Kibitz"})
    assert watcher.request("post", f"/tables/{token}/chat", {"text": "hello"}).status_code == 403
    assert not ChatMessage.objects.exists()


def test_my_tables_puts_my_move_first_with_time_left(alice, bob):
    waiting, players = started(alice, bob)
    mover, _, _ = to_play(waiting, players)
    other = alice if mover is bob else bob
    quiet = open_table(other)["table"]
    rows = other.ok("get", "/me/tables")["tables"]
    assert (rows[0]["table"] == quiet and rows[0]["your_move"] is False) or rows[0]["table"] == waiting
    mover_rows = mover.ok("get", "/me/tables")["tables"]
    assert mover_rows[0]["table"] == waiting and mover_rows[0]["your_move"]
    assert 0 < mover_rows[0]["seconds_left"] <= 86400 + SLOW_START  # the turn, and the bank behind it


def test_api_tokens_let_a_program_play_as_the_account(alice, bob):
    created = alice.ok("post", "/tokens", {"name": "my bot"}, status=201)
    program = ApiClient(token=created["token"])
    token = open_table(program)["table"]
    assert program.state(token)["you"] == {"seat": 0, "is_owner": True}
    assert [row["table"] for row in alice.ok("get", "/me/tables")["tables"]] == [token]
    alice.ok("delete", f"/tokens/{created['id']}")
    assert program.request("get", f"/tables/{token}").status_code == 401


def test_profile_can_be_changed(alice):
    profile = alice.ok(
        "patch", "/me", {"deck_design": "dark", "language": "en", "time_zone": "Europe/Madrid"}
    )
    assert profile["deck_design"] == "dark" and profile["language"] == "en"
    assert alice.request("patch", "/me", {"deck_design": "neon"}).json()["field"] == "deck_design"


def test_lobby_lists_public_tables_with_a_free_seat(alice, bob):
    public = open_table(alice, visibility="public")["table"]
    open_table(alice)
    assert [row["table"] for row in bob.ok("get", "/lobby")["tables"]] == [public]
