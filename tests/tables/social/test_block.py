"""Block: the matrix of what a block stops, in both directions (challenge, take a seek, see a
seek or table in the lobby, join by the invite link, follow, chat shown), what it ends (follows,
open challenges), what it leaves (a running match), and the API's refusals."""

from __future__ import annotations

import pytest

from tables.challenges import selectors as challenge_selectors
from tables.challenges import services as challenge_services
from tables.challenges.models import Challenge
from tables.core.errors import BadRequest, Conflict, Forbidden, NotFound
from tables.play import selectors as play_selectors
from tables.play import services as play_services
from tables.play.models import Table
from tables.social import services
from tables.social.models import Block, Follow
from tests.tables.helpers import open_table, started

pytestmark = pytest.mark.django_db

SLOW = {"ruleset": "classic", "turn_seconds": 86400}
DIRECTIONS = ["blocker_acts", "blocked_acts"]


@pytest.fixture(params=DIRECTIONS)
def pair(request, ana, ben):
    """Ana blocks Ben; (the one who acts, the other) in each direction."""
    services.block(ana.player, ben.player)
    return (ana, ben) if request.param == "blocker_acts" else (ben, ana)


def test_no_challenge_either_way(pair):
    actor, other = pair
    with pytest.raises(Forbidden):
        challenge_services.challenge_player(actor.player, other.player, dict(SLOW))
    response = actor.post("/challenges", {"opponent_id": other.player.pk, **SLOW})
    assert response.status_code == 403
    assert not Challenge.objects.exists()


def test_no_seek_taken_either_way(pair):
    actor, other = pair
    seek = challenge_services.post_seek(other.player, dict(SLOW))
    with pytest.raises(Forbidden):
        challenge_services.accept(seek.pk, actor.player)
    assert actor.post(f"/challenges/{seek.pk}/accept").status_code == 403
    seek.refresh_from_db()
    assert seek.status == Challenge.Status.OPEN


def test_no_seek_nor_table_in_each_others_lobby(pair, carla):
    actor, other = pair
    seek = challenge_services.post_seek(other.player, dict(SLOW))
    table = open_table(other, visibility="public")["table"]
    assert seek.pk not in [row.pk for row in challenge_selectors.open_seeks(viewer=actor.player)]
    assert seek.pk in [row.pk for row in challenge_selectors.open_seeks(viewer=carla.player)]
    assert [row["id"] for row in actor.ok("get", "/seeks")["seeks"]] == []
    assert table not in [row["table"] for row in actor.ok("get", "/lobby")["tables"]]
    assert table in [row["table"] for row in carla.ok("get", "/lobby")["tables"]]
    page = actor.client.get("/lobby/").content.decode()
    assert f'data-seek="{seek.pk}"' not in page and table not in page


def test_no_seat_at_each_others_table_by_the_invite_link(pair, carla):
    actor, other = pair
    token = open_table(other)["table"]
    response = actor.post(f"/tables/{token}/join", {"name": "x"})
    assert response.status_code == 403
    assert Table.objects.get(invite_token=token).seat_of(actor.player) is None
    assert carla.post(f"/tables/{token}/join", {"name": "x"}).status_code == 200  # others still sit


def test_no_follow_either_way(ana, ben):
    services.block(ana.player, ben.player)
    assert ana.post(f"/players/{ben.player.pk}/follow").status_code == 409  # unblock first
    assert ben.post(f"/players/{ana.player.pk}/follow").status_code == 403
    assert not Follow.objects.exists()


def test_the_blocked_ones_chat_is_hidden_from_the_blocker_only(ana, ben):
    token, _ = started(ana, ben)
    play_services.post_chat(token, ben.player, "from ben")
    play_services.post_chat(token, ana.player, "from ana")
    services.block(ana.player, ben.player)
    table = Table.objects.get(invite_token=token)
    assert [m.text for m in play_selectors.chat_history(table, ana.player)] == ["from ana"]
    assert [m.text for m in play_selectors.chat_history(table, ben.player)] == ["from ben", "from ana"]
    assert "from ben" not in ana.client.get(f"/t/{token}/").content.decode()
    assert [m["text"] for m in ana.ok("get", f"/tables/{token}/chat")["messages"]] == ["from ana"]


@pytest.mark.django_db(transaction=True)
def test_the_blocked_ones_chat_frames_never_reach_the_blockers_socket(ana, ben, monkeypatch):
    """Over the live table socket: Ben's chat, sent on his socket after Ana blocked him, reaches
    him but no frame of Ana's socket carries it; hers still reaches both."""
    from tables.live import sockets
    from tests.tables.live.helpers import connect, drain, receive_type, run

    monkeypatch.setattr(sockets, "SHARED_DB_THREAD", True)
    token, _ = started(ana, ben)
    services.block(ana.player, ben.player)

    async def body():
        hers = await connect(f"/ws/tables/{token}/", ana)
        his = await connect(f"/ws/tables/{token}/", ben)
        for socket in (hers, his):
            await receive_type(socket, "snapshot")
        await his.send_json_to({"type": "chat", "text": "from ben"})
        assert (await receive_type(his, "chat"))["message"]["text"] == "from ben"
        await hers.send_json_to({"type": "chat", "text": "from ana"})
        assert (await receive_type(his, "chat"))["message"]["text"] == "from ana"
        assert (await receive_type(hers, "chat"))["message"]["text"] == "from ana"
        seen_by_ana = await drain(hers)
        await his.send_json_to({"type": "chat", "text": "from ben again"})
        assert (await receive_type(his, "chat"))["message"]["text"] == "from ben again"
        seen_by_ana += await drain(hers)
        assert "from ben" not in repr(seen_by_ana)
        for socket in (hers, his):
            await socket.disconnect()

    run(body)


def test_a_running_match_goes_on_to_its_end(ana, ben):
    token, _ = started(ana, ben)
    services.block(ana.player, ben.player)
    state = ben.state(token)
    ben.ok("post", f"/tables/{token}/resign", {"expected_version": state["version"]})
    assert ana.state(token)["status"] == "match_over"


def test_blocking_ends_follows_and_open_challenges(ana, ben):
    services.follow(ana.player, ben.player)
    services.follow(ben.player, ana.player)
    to_ana = challenge_services.challenge_player(ben.player, ana.player, dict(SLOW))
    to_ben = challenge_services.challenge_player(ana.player, ben.player, dict(SLOW))
    services.block(ana.player, ben.player)
    assert not Follow.objects.exists()
    to_ana.refresh_from_db()
    to_ben.refresh_from_db()
    assert (to_ana.status, to_ben.status) == (Challenge.Status.DECLINED, Challenge.Status.WITHDRAWN)


def test_refusals_are_clear(ana, ben):
    with pytest.raises(BadRequest):
        services.block(ana.player, ana.player)
    services.block(ana.player, ben.player)
    with pytest.raises(Conflict):
        services.block(ana.player, ben.player)
    with pytest.raises(NotFound):
        services.unblock(ben.player, ana.player)
    assert ana.post(f"/players/{ben.player.pk}/block").status_code == 409
    assert ana.post(f"/players/{ana.player.pk}/block").status_code == 400
    assert ana.post("/players/999999/block").status_code == 404
    assert ana.request("delete", f"/players/{ben.player.pk}/block").json()["blocked"] is False
    assert ana.request("delete", f"/players/{ben.player.pk}/block").status_code == 404


def test_the_api_lists_blocks_and_the_profile_undoes_one(ana, ben):
    created = ana.ok("post", f"/players/{ben.player.pk}/block", status=201)
    assert created["name"] == "Ben"
    assert [row["id"] for row in ana.ok("get", "/me/blocks")["blocked"]] == [ben.player.pk]
    profile = ana.client.get("/me/profile/").content.decode()
    assert f"/players/{ben.player.pk}/unblock/" in profile
    response = ana.client.post(f"/players/{ben.player.pk}/unblock/", {"next": "/me/profile/"})
    assert response["Location"] == "/me/profile/"
    assert not Block.objects.exists()
    page = ana.client.post(f"/players/{ben.player.pk}/unblock/", follow=True)
    assert page.status_code == 200  # not blocked: a message on the player page, not a 500
    response = ana.client.post(f"/players/{ben.player.pk}/block/", {"next": "https://evil.example/"})
    assert response["Location"] == f"/players/{ben.player.pk}/"
