"""Suspending an account: from that commit its login sessions and API tokens identify nobody and
logging in is refused; its sockets close at once (4401), its open challenges and seeks close,
and its running matches end by its resignation through play's writer, the ratings moving once,
also when a last move races the suspension (PostgreSQL's row locks, real threads). Lifting it
lets the account log in again."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from tables.accounts.identity import player_for_user
from tables.accounts.models import Player
from tables.challenges.models import Challenge
from tables.core.errors import BadRequest, Conflict
from tables.play import services as play_services
from tables.play.models import Match, Table
from tables.social import services
from tables.social.models import ModerationAction
from tables.social.services import moderation
from tests.tables.helpers import ApiClient, make_account_client, open_table, started
from tests.tables.live.helpers import communicator, run, sync
from tests.tables.play.test_concurrency import _race, needs_row_locks
from tests.tables.rating_helpers import RATED, both_have_moved, rated_game, rated_once, to_last_move

from ..accounts.test_sessions import closed_code

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "a long enough password 1"
SLOW = {"turn_seconds": 86400}


def log_in(email: str) -> ApiClient:
    client = Client()
    response = client.post("/accounts/login/", {"login": email, "password": PASSWORD})
    assert response.status_code == 302 and "_auth_user_id" in client.session, response
    return ApiClient(client)


def logged_in(client: ApiClient) -> bool:
    return client.client.get("/api/me").status_code == 200


def staff_user():
    return make_account_client("staff@example.com", staff=True).user


def test_a_suspended_account_is_logged_out_refused_and_its_matches_and_offers_end():
    carla_account = make_account_client("carla@example.com")
    ben = make_account_client("ben@example.com")
    ana = make_account_client("ana@example.com")
    carla = log_in("carla@example.com")
    player = player_for_user(carla_account.user)
    raw = carla.ok("post", "/me/tokens", {"name": "my bot", "scope": "play"}, status=201)["token"]
    program = Client(HTTP_AUTHORIZATION=f"Bearer {raw}")
    assert program.get("/api/me").status_code == 200
    running, seats = started(ben, carla, **RATED)
    both_have_moved(running, seats)
    to_ana = carla.ok(
        "post", "/challenges", {"opponent_id": player_for_user(ana.user).pk, **SLOW}, status=201
    )
    from_ben = ben.ok("post", "/challenges", {"opponent_id": player.pk, **SLOW}, status=201)
    seek = carla.ok("post", "/seeks", dict(SLOW), status=201)
    table = open_table(carla)["table"]
    staff = staff_user()

    async def sockets_close() -> None:
        user_socket = communicator("/ws/me/", carla)
        table_socket = communicator(f"/ws/tables/{table}/", carla)
        assert (await user_socket.connect())[0] and (await table_socket.connect())[0]
        await sync(lambda: moderation.suspend(player, staff, "Insults, again and again."))
        assert await closed_code(user_socket) == 4401
        assert await closed_code(table_socket) == 4401
        await user_socket.disconnect()
        await table_socket.disconnect()

    run(sockets_close)
    assert not logged_in(carla) and program.get("/api/me").status_code == 401
    assert not get_user_model().objects.get(pk=carla_account.user.pk).is_active
    refused = Client().post("/accounts/login/", {"login": "carla@example.com", "password": PASSWORD})
    assert "_auth_user_id" not in refused.wsgi_request.session
    assert refused.status_code == 302 and refused["Location"] == "/accounts/inactive/", refused
    # Its running match ended by its resignation: Ben won and both were rated once.
    match = Match.objects.get(table__invite_token=running)
    assert (match.status, match.outcome) == (Match.Status.OVER, Match.Outcome.RESIGNED)
    assert match.winner == match.table.seat_of(player_for_user(ben.user))
    rated_once(running)
    assert not Table.objects.filter(invite_token=table).exists()  # its table never played: gone
    statuses = dict(Challenge.objects.values_list("pk", "status"))
    assert statuses[to_ana["id"]] == statuses[seek["id"]] == Challenge.Status.WITHDRAWN
    assert statuses[from_ben["id"]] == Challenge.Status.DECLINED
    [action] = ModerationAction.objects.all()
    assert (action.kind, action.player, action.staff) == ("suspend", player, staff)
    with pytest.raises(Conflict):
        moderation.suspend(player, staff, "twice")

    moderation.unsuspend(player, staff, "Appeal accepted.")
    assert logged_in(log_in("carla@example.com")) and program.get("/api/me").status_code == 200
    assert list(ModerationAction.objects.order_by("pk").values_list("kind", flat=True)) == [
        "suspend",
        "unsuspend",
    ]
    with pytest.raises(Conflict):
        moderation.unsuspend(player, staff, "not suspended")


def test_a_report_handled_by_suspension_and_the_refusals():
    ana, carla = make_account_client("ana@example.com"), make_account_client("carla@example.com")
    staff = staff_user()
    reporter, reported = player_for_user(ana.user), player_for_user(carla.user)
    report = services.report(reporter, reported, "abuse")
    with pytest.raises(Conflict):  # staff are not suspended from here
        moderation.suspend(player_for_user(get_user_model().objects.get(username="staff")), staff, "no")
    with pytest.raises(BadRequest):
        moderation.suspend(reported, staff, "  ")  # no why
    moderation.handle_report(report, staff, "handled", "Threats in the chat.", suspend=True)
    assert not logged_in(carla)
    kinds = list(ModerationAction.objects.order_by("pk").values_list("kind", flat=True))
    assert kinds == ["handle", "suspend"]


@needs_row_locks
@pytest.mark.parametrize("mover_is_suspended", [False, True])
def test_the_last_move_racing_the_suspension_rates_once(mover_is_suspended):
    token, players = rated_game(f"s{int(mover_is_suspended)}")
    mover, body = to_last_move(token, players)
    other = players[1] if players[0] is mover else players[0]
    suspended = mover if mover_is_suspended else other
    player = player_for_user(suspended.user)
    staff = staff_user()
    cookies = mover.client.cookies

    def contend(index):
        if index == 0:
            return moderation.suspend(player, staff, "Cheating.").kind
        client = Client()
        client.cookies = cookies
        return client.post(f"/api/tables/{token}/moves", body, content_type="application/json").status_code

    kind, status = _race(2, contend)
    match = Match.objects.get(table__invite_token=token)
    assert kind == "suspend" and match.status == Match.Status.OVER
    if match.outcome == Match.Outcome.COMPLETED:
        assert status == 200  # the move first: the resignation found the match over
    else:  # the suspension first: the move finds the match over, or its sender logged out
        assert match.outcome == Match.Outcome.RESIGNED and status in (401, 409)
        assert match.winner != match.table.seat_of(player)
    rated_once(token)


def test_only_accounts_are_suspended():
    staff = staff_user()
    guest = Player.objects.create(display_name="Guest", guest_key="guest-key")
    robot = play_services.bot_player("tito")
    for player in (guest, robot):
        with pytest.raises(BadRequest):
            moderation.suspend(player, staff, "not an account")
    assert not ModerationAction.objects.exists()


@pytest.mark.parametrize("suspension_first", [True, False])
def test_in_either_order_the_match_ends_once(suspension_first):
    """The two orders the race above may take, each made to happen: the suspension first (the
    opponent's last move then finds the match over), or the last move first (the suspension then
    finds nothing running)."""
    staff = staff_user()
    token, players = rated_game()
    mover, body = to_last_move(token, players)
    other = player_for_user((players[1] if players[0] is mover else players[0]).user)
    if suspension_first:
        moderation.suspend(other, staff, "Cheating.")
        late = mover.client.post(f"/api/tables/{token}/moves", body, content_type="application/json")
        assert late.status_code == 409
    else:
        mover.ok("post", f"/tables/{token}/moves", body)
        moderation.suspend(other, staff, "Cheating.")
    outcome = Match.objects.get(table__invite_token=token).outcome
    assert outcome == (Match.Outcome.RESIGNED if suspension_first else Match.Outcome.COMPLETED)
    rated_once(token)
