"""Deleting an account: after reauthentication (page) or with the password / a recent login
(API, a browser only); running matches resigned through the writers, personal data erased in
every column that holds it, finished matches kept for the opponent and shown as "deleted player"
on every page that showed the account, which still answer 200 (its own page answers 404)."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest
from allauth.usersessions.models import UserSession
from django.apps import apps
from django.contrib.auth import get_user_model
from django.db import models
from django.test import Client
from django.utils import timezone, translation

from bots.review import REVIEW_SETTINGS
from config.celery import app
from tables.accounts.identity import player_for_user
from tables.accounts.models import ApiToken, Player
from tables.accounts.services import deletion
from tables.alerts.models import InboxItem, PushSubscription
from tables.fairplay.models import FairPlaySignal, ScreenedDecision
from tables.play.models import ChatMessage, Deal, Match, Table
from tables.ratings.models import RatingChange
from tables.reviews import services as reviews
from tables.reviews.models import DealReview
from tables.social.models import Block, Follow, MatchNote, Report, SocialSettings
from tests.tables.helpers import ApiClient, make_account_client, open_table, pages_in, play_deal, started
from tests.tables.rating_helpers import both_have_moved

pytestmark = pytest.mark.django_db

PASSWORD = "a long enough password 1"
RATED = {"rated": True, "turn_seconds": 86400}
SECRET_CHAT = "my secret chat line"
CHEAP_REVIEW = replace(REVIEW_SETTINGS, draw_samples=8, discard_samples=6)  # who sees what, not its cost

# Every column of every model that points at an account (its player or its login), and what
# deletion does with it: "erased" (no row points at the deleted account any more) or "kept"
# (rows stay, on purpose, with the reason). A new such column fails the test until listed here.
ACCOUNT_COLUMNS: dict[str, str] = {
    "admin.LogEntry.user": "erased: goes with the login (staff accounts are not deleted from here)",
    "account.EmailAddress.user": "erased: goes with the login",
    "mfa.Authenticator.user": "erased: goes with the login",
    "usersessions.UserSession.user": "erased: each session ended, then the rows go with the login",
    "tables.Player.user": "erased: set null when the login goes",
    "tables.Vacation.player": "erased",
    "tables.ApiToken.user": "erased",
    "tables.DataExport.player": "erased",
    "tables.Table.owner": "kept: its finished tables stay for the opponent's archive (unplayed ones go)",
    "tables.Table.seat0": "kept: the seat of finished matches, shown as 'deleted player'",
    "tables.Table.seat1": "kept: the seat of finished matches, shown as 'deleted player'",
    "tables.Move.actor": "kept: who made each move of a kept match log (the emptied row)",
    "tables.ChatMessage.author": "erased: the chat it wrote is removed",
    "tables.ChatMute.player": "erased",
    "tables.ChatMute.muted": "erased",
    "tables.Challenge.challenger": "erased",
    "tables.Challenge.challenged": "erased",
    "tables.Rating.player": "erased: its standing leaves the leaderboards",
    "tables.DealReview.requested_by": "erased: set null, the review of a kept deal stays",
    "tables.PracticePosition.player": "erased: its practice positions go",
    "tables.ScreenedDecision.player": "erased: fair play's figures about the account",
    "tables.FairPlaySignal.player": "erased: fair play's figures about the account",
    "tables.RatingChange.player": "kept: part of a kept match's record (the opponent's change is the other row)",
    "tables.PlayerRecord.player": "erased: its totals, for the page it no longer has",
    "tables.PlayerMatch.player": "erased: its list of finished matches, for the page it no longer has",
    "tables.PlayerMatch.opponent": "kept: the opponents' lists of their kept matches (shown as a deleted player)",
    "tables.PairRecord.low": "kept: the opponents' head-to-head against it (one of the pair's two columns)",
    "tables.PairRecord.high": "kept: the opponents' head-to-head against it (the other column)",
    "alerts.PushSubscription.player": "erased",
    "alerts.SentAlert.player": "erased",
    "alerts.TablePresence.player": "erased",
    "alerts.Activity.player": "erased",
    "alerts.SentChallengeAlert.player": "erased",
    "tables.Follow.follower": "erased",
    "tables.Follow.followed": "erased",
    "tables.Block.blocker": "erased",
    "tables.Block.blocked": "erased",
    "tables.SocialSettings.player": "erased",
    "tables.MatchNote.author": "erased: its private notes",
    "alerts.InboxItem.player": "erased: its inbox",
    "tables.Report.reporter": "erased: the reports it filed",
    "tables.Report.reported": "kept: staff's record of what was reported about it (the row it names is emptied)",
    "tables.Report.handled_by": "kept: the staff member who closed a report (staff accounts are not deleted from here)",
    "tables.ModerationAction.player": "kept: staff's record of what they did about it (the row it names is emptied)",
    "tables.ModerationAction.staff": "kept: the staff member who acted (staff accounts are not deleted from here)",
    "tables.Tournament.creator": "kept: the event it created stays, with its matches (the row it names is emptied)",
    "tables.Tournament.winner": "kept: part of a kept event's record",
    "tables.Entry.player": "kept: part of a kept event's record, like its matches",
    "tables.GameTable.owner": "kept: a played game table stays for the other players (its own waiting one goes)",
    "tables.GameSeat.player": "kept: the seat of a played game, shown as 'deleted player' (a waiting one is freed)",
}
# The player row's own columns: emptied to their defaults, or kept on purpose.
PLAYER_COLUMNS: dict[str, str] = {
    "id": "kept: what the kept matches point at",
    "user": "erased (null)",
    "guest_key": "erased (null)",
    "display_name": "erased (empty; pages say 'deleted player')",
    "deck_design": "erased (default)",
    "language": "erased (default)",
    "time_zone": "erased (default)",
    "alert_prefs": "erased (empty)",
    "is_bot": "kept: false, as for every account",
    "bot_level": "kept: empty, as for every account",
    "vacation_started_at": "erased (null)",
    "vacation_until": "erased (null)",
    "auto_vacation": "erased (default)",
    "created_at": "kept: no personal data, the row's age",
    "deleted_at": "set: when it was deleted",
    "bot_account_at": "kept: its matches were a program's, which the opponents' archives still show (BOT)",
}


def account_columns() -> dict[str, models.ForeignKey[Any, Any]]:
    user_model = get_user_model()
    found = {}
    for model in apps.get_models():
        for field in model._meta.get_fields():
            if isinstance(field, models.ForeignKey) and field.related_model in (Player, user_model):
                found[f"{model._meta.app_label}.{model.__name__}.{field.name}"] = field
    return found


def password_login(email: str) -> ApiClient:
    client = Client()
    response = client.post("/accounts/login/", {"login": email, "password": PASSWORD})
    assert response.status_code == 302
    return ApiClient(client)


def full_account() -> dict[str, Any]:
    """Alice with a finished rated match against Bob (its first deal played out, chat, a mute), a
    running one, an unplayed table, a push subscription, a token, alert settings; logged in with
    her password just now."""
    alice, bob = make_account_client("alice@example.com"), make_account_client("bob@example.com")
    alice.ok("patch", "/me", {"display_name": "Alice Unique", "alert_prefs": {"digest": True}})
    finished, players = started(alice, bob, **RATED)
    alice.ok("post", f"/tables/{finished}/chat", {"text": SECRET_CHAT}, status=201)
    bob.ok("post", f"/tables/{finished}/chat", {"text": "hello from bob"}, status=201)
    alice.ok(
        "post",
        f"/tables/{finished}/chat/mute",
        {"seat": Table.objects.get(invite_token=finished).seat_of(Player.objects.get(user=bob.user))},
    )
    if play_deal(finished, players)["status"] != "match_over":  # a kept deal, to replay and review
        alice.ok("post", f"/tables/{finished}/resign", {})
    running, seats = started(bob, alice, **RATED)
    both_have_moved(running, seats)
    unplayed = open_table(alice)["table"]
    player = Player.objects.get(user=alice.user)
    PushSubscription.objects.create(
        player=player, endpoint="https://push.example/alice", p256dh="k", auth="a"
    )
    alice.ok("post", "/me/tokens", {"name": "my bot", "scope": "play"}, status=201)
    other = Player.objects.get(user=bob.user)
    Follow.objects.create(follower=player, followed=other)
    Follow.objects.create(follower=other, followed=player)
    Block.objects.create(blocker=other, blocked=player)
    SocialSettings.objects.create(player=player, hide_presence=True)
    Report.objects.create(reporter=player, reported=other, reason=Report.Reason.OTHER, text="alice's words")
    Report.objects.create(reporter=other, reported=player, reason=Report.Reason.OTHER)
    MatchNote.objects.create(
        author=player, match=Match.objects.get(table__invite_token=finished), text="he keeps sevens"
    )
    InboxItem.objects.create(player=player, kind="result", occasion="m1", title="You won", path="/")
    FairPlaySignal.objects.create(
        player=player, decisions=1, enough=False, best_share=1.0, good_share=1.0, mean_loss=0.0
    )
    ScreenedDecision.objects.create(
        player=player,
        deal=Deal.objects.filter(match__table__invite_token=finished).first(),
        number=1,
        ended_at=timezone.now(),
        loss=0.0,
        best=True,
    )
    return {
        "alice": password_login("alice@example.com"),
        "bob": bob,
        "player": player,
        "user_id": alice.user.pk,
        "finished": Match.objects.get(table__invite_token=finished),
        "running": running,
        "unplayed": unplayed,
    }


def every_value() -> str:
    """Every row of every model, as text."""
    rows = []
    for model in apps.get_models():
        rows.extend(json.dumps(row, default=str) for row in model._default_manager.values())
    return "\n".join(rows)


def test_every_column_pointing_at_an_account_is_classified():
    assert sorted(account_columns()) == sorted(ACCOUNT_COLUMNS)
    assert {field.name for field in Player._meta.concrete_fields} == set(PLAYER_COLUMNS)


def test_deleting_from_the_page_erases_every_personal_column_and_keeps_the_matches(
    monkeypatch, django_capture_on_commit_callbacks
):
    world = full_account()
    alice, bob, player = world["alice"], world["bob"], world["player"]
    finished = world["finished"]
    # LUNA's review of the kept deal, asked by Alice (computed inline, on a small budget).
    monkeypatch.setitem(app.conf, "task_always_eager", True)
    monkeypatch.setattr(reviews, "REVIEW_SETTINGS", CHEAP_REVIEW)
    review = f"/matches/{finished.pk}/deals/1/review"
    with django_capture_on_commit_callbacks(execute=True):
        alice.ok("post", review, status=202)
    assert set(DealReview.objects.values_list("status", "requested_by")) == {("done", player.pk)}
    # allauth asks for the password again even just after a login (its reauthentication flow).
    asked = alice.client.get("/me/delete/")
    assert asked.status_code == 302 and "/accounts/reauthenticate/" in asked["Location"]
    assert alice.client.post(asked["Location"], {"password": PASSWORD}).status_code == 302
    assert alice.client.get("/me/delete/").status_code == 200
    assert alice.client.post("/me/delete/", {"confirm": "yes"}).status_code == 302
    assert "_auth_user_id" not in alice.client.session
    assert not get_user_model().objects.filter(pk=world["user_id"]).exists()

    kept = set()
    for name, field in account_columns().items():
        account = player.pk if field.related_model is Player else world["user_id"]
        pointing = field.model._default_manager.filter(**{f"{field.name}_id": account})
        if ACCOUNT_COLUMNS[name].startswith("erased"):
            assert not pointing.exists(), name
        elif pointing.exists():
            kept.add(name)
    pair = {"tables.PairRecord.low", "tables.PairRecord.high"}  # which one: by the two ids' order
    assert len(kept & pair) == 1
    assert kept - pair == {
        "tables.Table.owner",
        "tables.Table.seat0",
        "tables.Table.seat1",
        "tables.Move.actor",
        "tables.RatingChange.player",
        "tables.PlayerMatch.opponent",
        "tables.Report.reported",
    }
    player.refresh_from_db()
    assert player.user_id is None and player.display_name == "" and player.alert_prefs == {}
    assert player.deleted_at is not None and not player.is_guest
    text = every_value()
    for personal in ("alice@example.com", "Alice Unique", SECRET_CHAT, "push.example/alice", "my bot"):
        assert personal not in text, personal
    assert ApiToken.objects.count() == 0 and not ChatMessage.objects.filter(text=SECRET_CHAT).exists()

    # Its running match ended by resignation through the writers: Bob won it and was rated.
    running = Match.objects.get(table__invite_token=world["running"])
    assert running.status == Match.Status.OVER and running.outcome == Match.Outcome.RESIGNED
    assert running.table.seat_of(Player.objects.get(user=bob.user)) == running.winner
    assert RatingChange.objects.filter(match=running).count() == 2
    assert not Table.objects.filter(invite_token=world["unplayed"]).exists()

    bob_player = Player.objects.get(user=bob.user)
    deal = finished.deals.get(number=1)
    named = (
        "/me/archive/",
        f"/matches/{finished.pk}/",
        f"/matches/{finished.pk}/deals/1/",
        f"/players/{bob_player.pk}/",
        f"/players/{player.pk}/versus/",
    )
    for language, shown in (("en", "deleted player"), ("es", "jugador eliminado")):
        pages = pages_in(
            bob.client, language, [*named, f"/t/{finished.table.invite_token}/", "/leaderboard/"]
        )
        for path in (*named, f"/t/{finished.table.invite_token}/"):
            assert shown in pages[path], (language, path)
    assert bob.client.get(f"/players/{player.pk}/").status_code == 404
    # The kept deal's stored review (both seats), which no longer names who asked for it.
    answer = bob.ok("get", review)
    assert [(row["seat"], row["status"]) for row in answer["reviews"]] == [(0, "done"), (1, "done")]
    assert all(row["result"]["decisions"] for row in answer["reviews"])
    assert set(DealReview.objects.values_list("requested_by", flat=True)) == {None}
    staff = make_account_client("staff@example.com", staff=True)
    for language, shown in (("en", "deleted player"), ("es", "jugador eliminado")):
        page = pages_in(staff.client, language, [f"/staff/replay/{deal.pk}/"])
        assert shown in page[f"/staff/replay/{deal.pk}/"], language
    state = bob.state(finished.table.invite_token)
    assert "jugador eliminado" in json.dumps(state, ensure_ascii=False)  # the API in its language
    with translation.override("en"):
        assert str(player) == "deleted player"
    assert bob.ok("get", f"/tables/{finished.table.invite_token}/matches/1/export")["match"] is not None


def test_the_page_asks_for_the_password_again_after_a_while():
    alice = make_account_client("alice@example.com")  # logged in, but not just now by a password
    response = alice.client.get("/me/delete/")
    assert response.status_code == 302 and "/accounts/reauthenticate/" in response["Location"]
    response = alice.client.post(response["Location"], {"password": PASSWORD})
    assert response.status_code == 302 and response["Location"].endswith("/me/delete/")
    assert alice.client.post("/me/delete/", {}).status_code == 302  # not confirmed: nothing happens
    assert get_user_model().objects.filter(pk=alice.user.pk).exists()
    assert alice.client.post("/me/delete/", {"confirm": "yes"}).status_code == 302
    assert not get_user_model().objects.filter(pk=alice.user.pk).exists()


def test_a_confirmation_sent_without_reauthentication_waits_for_the_password():
    """allauth keeps the POST while it asks for the password, and carries it out after."""
    alice = make_account_client("alice@example.com")
    response = alice.client.post("/me/delete/", {"confirm": "yes"})
    assert response.status_code == 302 and "/accounts/reauthenticate/" in response["Location"]
    assert get_user_model().objects.filter(pk=alice.user.pk).exists()
    assert alice.client.post(response["Location"], {"password": "wrong"}).status_code == 200
    assert get_user_model().objects.filter(pk=alice.user.pk).exists()
    alice.client.post(response["Location"], {"password": PASSWORD})
    assert not get_user_model().objects.filter(pk=alice.user.pk).exists()


def test_the_api_deletes_with_the_password_or_a_recent_login_from_a_browser_only():
    alice = make_account_client("alice@example.com")
    raw = alice.ok("post", "/me/tokens", {"name": "t", "scope": "play"}, status=201)["token"]
    program = ApiClient(token=raw)
    refused = program.request("delete", "/me", {"confirm": True, "password": PASSWORD})
    assert refused.status_code == 403
    assert alice.request("delete", "/me", {"confirm": True}).json()["error"] == "reauthentication_required"
    wrong = alice.request("delete", "/me", {"confirm": True, "password": "not it"})
    assert wrong.status_code == 403 and wrong.json()["error"] == "reauthentication_required"
    assert alice.request("delete", "/me", {"confirm": False, "password": PASSWORD}).status_code == 400
    assert alice.ok("delete", "/me", {"confirm": True, "password": PASSWORD}) == {"deleted": True}
    assert not get_user_model().objects.filter(email="alice@example.com").exists()
    assert alice.client.get("/api/me/sessions").status_code in (401, 403)

    recent = make_account_client("carol@example.com")
    recent = password_login("carol@example.com")
    assert recent.ok("delete", "/me", {"confirm": True}) == {"deleted": True}
    schema = Client().get("/api/openapi.json").json()
    assert "delete" in schema["paths"]["/api/me"]


def test_a_deletion_that_fails_logs_no_browser_out_and_one_that_succeeds_logs_out_every_one(
    monkeypatch, django_capture_on_commit_callbacks
):
    alice = make_account_client("alice@example.com")
    player_for_user(alice.user)
    phone = Client()
    phone.force_login(alice.user)
    for browser in (alice.client, phone):  # allauth records each session on a request
        assert browser.get("/api/me/sessions").status_code == 200

    def broken(player: Player) -> None:
        raise RuntimeError("the database went away mid-deletion")

    monkeypatch.setattr(deletion, "_erase", broken)
    with pytest.raises(RuntimeError), django_capture_on_commit_callbacks(execute=True):
        deletion.delete_account(alice.user)
    assert UserSession.objects.filter(user=alice.user).count() == 2
    assert phone.get("/api/me/sessions").status_code == 200

    monkeypatch.undo()
    with django_capture_on_commit_callbacks(execute=True):
        deletion.delete_account(alice.user)
    assert phone.get("/api/me/sessions").status_code in (401, 403)
    assert "_auth_user_id" not in phone.session
