"""Challenges and seeks: offering, answering, limits, lapsing, races, alerts, API and pages."""

from __future__ import annotations

import datetime as dt
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.core import mail
from django.db import connection
from django.test import Client
from django.utils import timezone

from tables.accounts.identity import player_for_user
from tables.accounts.models import Player
from tables.background import registry
from tables.challenges import alerts as challenge_alerts
from tables.challenges import selectors as challenge_selectors
from tables.challenges import services as challenge_services
from tables.challenges.models import Challenge
from tables.core.announcements import challenge_changed
from tables.core.errors import BadRequest, Conflict, Forbidden, NotFound
from tables.play import services
from tables.play.models import Match, Table
from tests.tables.helpers import ApiClient, make_account_client, seated_table

pytestmark = pytest.mark.django_db

SLOW = {"ruleset": "classic", "turn_seconds": 86400}
LIVE = {"ruleset": "playgridia", "turn_seconds": 60}


def _player(client) -> Player:
    return player_for_user(client.user)


@pytest.fixture
def carol(db):
    return make_account_client("carol@example.com")


def test_an_accepted_challenge_opens_the_table_with_both_seated_and_the_match_started(alice, bob):
    challenger, challenged = _player(alice), _player(bob)
    challenge = challenge_services.challenge_player(challenger, challenged, dict(SLOW))
    outcome = challenge_services.accept(challenge.pk, challenged)
    table = Table.objects.get(pk=outcome.table.pk)
    assert (table.seat0_id, table.seat1_id, outcome.seat) == (challenger.pk, challenged.pk, 1)
    assert table.ruleset_name == "classic" and table.turn_seconds == 86400
    assert table.visibility == Table.Visibility.INVITE  # a challenge's table is private
    assert Match.objects.get(table=table).status == Match.Status.PLAYING
    challenge.refresh_from_db()
    assert (challenge.status, challenge.table_id) == (Challenge.Status.ACCEPTED, table.pk)


def test_only_the_challenged_player_may_accept_or_decline_and_only_the_challenger_withdraw(alice, bob, carol):
    challenger, challenged, stranger = _player(alice), _player(bob), _player(carol)
    challenge = challenge_services.challenge_player(challenger, challenged, dict(SLOW))
    with pytest.raises(NotFound):  # a stranger does not even learn it exists
        challenge_services.accept(challenge.pk, stranger)
    with pytest.raises(Conflict):
        challenge_services.accept(challenge.pk, challenger)
    with pytest.raises(Forbidden):
        challenge_services.decline(challenge.pk, challenger)
    with pytest.raises(Forbidden):
        challenge_services.withdraw(challenge.pk, challenged)
    challenge_services.decline(challenge.pk, challenged)
    with pytest.raises(Conflict, match="declined"):
        challenge_services.accept(challenge.pk, challenged)
    assert not Table.objects.filter(seat1=challenged).exists()


def test_a_withdrawn_or_lapsed_challenge_cannot_be_accepted(alice, bob):
    challenger, challenged = _player(alice), _player(bob)
    withdrawn = challenge_services.challenge_player(challenger, challenged, dict(SLOW))
    challenge_services.withdraw(withdrawn.pk, challenger)
    with pytest.raises(Conflict, match="withdrawn"):
        challenge_services.accept(withdrawn.pk, challenged)
    Challenge.objects.filter(pk=withdrawn.pk).update(answered_at=timezone.now() - dt.timedelta(hours=1))
    lapsed = challenge_services.challenge_player(challenger, challenged, dict(SLOW))
    Challenge.objects.filter(pk=lapsed.pk).update(expires_at=timezone.now() - dt.timedelta(seconds=1))
    with pytest.raises(Conflict, match="lapsed"):
        challenge_services.accept(lapsed.pk, challenged)
    assert Table.objects.count() == 0


def test_a_challenge_lapses_after_the_stated_lifetime(alice, bob):
    before = timezone.now()
    challenge = challenge_services.challenge_player(_player(alice), _player(bob), dict(SLOW))
    assert before + Challenge.LIFETIME <= challenge.expires_at <= timezone.now() + Challenge.LIFETIME
    assert not challenge.is_open(challenge.expires_at)


def test_who_may_be_challenged(alice, bob):
    challenger = _player(alice)
    guest = Player.objects.create(display_name="Guest", guest_key="k" * 20)
    with pytest.raises(BadRequest, match="account"):
        challenge_services.challenge_player(challenger, guest, dict(SLOW))
    with pytest.raises(BadRequest, match="account"):
        challenge_services.challenge_player(challenger, services.bot_player("tito"), dict(SLOW))
    with pytest.raises(BadRequest, match="yourself"):
        challenge_services.challenge_player(challenger, challenger, dict(SLOW))
    with pytest.raises(Forbidden, match="Sign up"):
        challenge_services.challenge_player(guest, challenger, dict(SLOW))
    with pytest.raises(BadRequest, match="turn_seconds"):  # the table's own checks, before any offer
        challenge_services.challenge_player(challenger, _player(bob), {"turn_seconds": 7})
    assert Challenge.objects.count() == 0


def test_limits_on_open_challenges_and_seeks(alice, bob):
    seeker = _player(alice)
    for _ in range(challenge_services.MAX_OPEN_SEEKS):
        challenge_services.post_seek(seeker, dict(LIVE))
    with pytest.raises(Conflict, match="open seeks"):
        challenge_services.post_seek(seeker, dict(LIVE))
    others = [
        make_account_client(f"p{n}@example.com") for n in range(challenge_services.MAX_OPEN_CHALLENGES + 1)
    ]
    for other in others[:-1]:
        challenge_services.challenge_player(seeker, _player(other), dict(SLOW))
    with pytest.raises(Conflict, match="open challenges"):
        challenge_services.challenge_player(seeker, _player(others[-1]), dict(SLOW))
    with pytest.raises(Conflict, match="already challenged"):
        challenge_services.challenge_player(seeker, _player(others[0]), dict(SLOW))
    # An answered or lapsed offer no longer counts.
    Challenge.objects.filter(challenged__isnull=True).update(expires_at=timezone.now())
    challenge_services.post_seek(seeker, dict(LIVE))


def test_a_seek_is_taken_by_anyone_but_its_owner_once(alice, bob, carol):
    seek = challenge_services.post_seek(_player(alice), dict(LIVE))
    with pytest.raises(Conflict, match="your own"):
        challenge_services.accept(seek.pk, _player(alice))
    outcome = challenge_services.accept(seek.pk, _player(bob))
    assert outcome.table.seat1_id == _player(bob).pk and outcome.table.current_deal_id is not None
    with pytest.raises(Conflict, match="accepted"):
        challenge_services.accept(seek.pk, _player(carol))


def test_open_seeks_filter_by_rule_set_and_pace(alice, bob):
    slow = challenge_services.post_seek(_player(alice), dict(SLOW))
    live = challenge_services.post_seek(_player(bob), dict(LIVE))
    assert [row.pk for row in challenge_selectors.open_seeks()] == [live.pk, slow.pk]
    assert [row.pk for row in challenge_selectors.open_seeks(pace="slow")] == [slow.pk]
    assert [row.pk for row in challenge_selectors.open_seeks(pace="live")] == [live.pk]
    assert [row.pk for row in challenge_selectors.open_seeks(ruleset="classic")] == [slow.pk]
    assert challenge_selectors.open_seeks(ruleset="reino") == []


needs_row_locks = pytest.mark.skipif(
    connection.vendor == "sqlite",
    reason="SQLite has no row locks (SELECT ... FOR UPDATE); .ci/run runs this on PostgreSQL",
)


@needs_row_locks
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("kind", ["challenge", "seek"])
def test_an_offer_accepted_many_times_at_once_seats_once(kind):
    challenger = _player(make_account_client("race-a@example.com"))
    takers = [_player(make_account_client(f"race-{n}@example.com")) for n in range(8)]
    if kind == "challenge":
        offer = challenge_services.challenge_player(challenger, takers[0], dict(SLOW))
        takers = [takers[0]] * len(takers)  # the one challenged player, from eight tabs at once
    else:
        offer = challenge_services.post_seek(challenger, dict(SLOW))
    barrier = threading.Barrier(len(takers))

    def take(taker: Player) -> str:
        barrier.wait()
        try:
            challenge_services.accept(offer.pk, taker)
            return "seated"
        except Conflict:
            return "refused"
        finally:
            connection.close()

    with ThreadPoolExecutor(max_workers=len(takers)) as pool:
        results = list(pool.map(take, takers))
    assert sorted(results) == ["refused"] * (len(takers) - 1) + ["seated"]
    assert Table.objects.filter(owner=challenger).count() == 1
    assert Match.objects.count() == 1


# -- alerts ------------------------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_a_challenge_reaches_the_challenged_player_on_every_channel_once(sent):
    alice, bob = make_account_client("a1@example.com"), make_account_client("b1@example.com")
    challenge = challenge_services.challenge_player(_player(alice), _player(bob), dict(SLOW))
    bob_id = _player(bob).pk
    assert [pid for pid, _ in sent["site"]] == [bob_id] and sent["push"] == [bob_id]
    assert len(mail.outbox) == 1 and mail.outbox[0].to == ["b1@example.com"]
    message = sent["site"][0][1]
    assert message["kind"] == "challenge" and "/challenges/" in message["url"]
    assert challenge_alerts.deliver(challenge.pk, "received") == set()  # a rerun sends nothing twice
    assert challenge_alerts.sweep_unannounced(timezone.now() + dt.timedelta(minutes=5)) == 0


@pytest.mark.django_db(transaction=True)
def test_the_answer_reaches_the_challenger_and_quiet_hours_put_push_and_email_off(sent):
    alice, bob = make_account_client("a2@example.com"), make_account_client("b2@example.com")
    challenger = _player(alice)
    challenger.alert_prefs = {"quiet_hours": {"start": "00:00", "end": "23:59"}}
    challenger.save()
    challenge = challenge_services.challenge_player(challenger, _player(bob), dict(SLOW))
    mail.outbox.clear()
    challenge_services.accept(challenge.pk, _player(bob))
    to_challenger = [m for pid, m in sent["site"] if pid == challenger.pk]
    assert len(to_challenger) == 1 and "/t/" in to_challenger[0]["url"]
    assert not mail.outbox and challenger.pk not in sent["push"]
    [(_task, args, eta)] = [call for call in sent["later"] if call[0] == registry.ALERT_CHALLENGE]
    assert args == (challenge.pk, "accepted") and eta > timezone.now()


@pytest.mark.django_db(transaction=True)
def test_the_sweep_alerts_a_challenge_whose_task_was_lost(sent):
    alice, bob = make_account_client("a3@example.com"), make_account_client("b3@example.com")
    challenge_changed.disconnect(dispatch_uid="tables.challenges")
    try:
        challenge = challenge_services.challenge_player(_player(alice), _player(bob), dict(SLOW))
    finally:
        challenge_changed.connect(challenge_alerts.on_challenge_change, dispatch_uid="tables.challenges")
    assert not sent["site"]
    assert challenge_alerts.sweep_unannounced(timezone.now()) == 0  # too young: its task may be on the way
    later = timezone.now() + dt.timedelta(seconds=challenge_alerts.SWEEP_AFTER_SECONDS + 1)
    assert challenge_alerts.sweep_unannounced(later) == 1
    assert [pid for pid, _ in sent["site"]] == [_player(bob).pk]
    assert challenge_alerts.deliver(challenge.pk, "received") == set()


# -- API and pages -----------------------------------------------------------------------------


def test_the_api_challenges_by_name_and_the_challenged_accepts(alice, bob):
    _player(bob).display_name = "Roberta"
    Player.objects.filter(pk=_player(bob).pk).update(display_name="Roberta")
    made = alice.ok("post", "/challenges", {"opponent_name": "roberta", **SLOW}, status=201)
    assert (made["kind"], made["status"], made["challenged"], made["pace"]) == (
        "challenge",
        "open",
        "Roberta",
        "slow",
    )
    listed = bob.ok("get", "/challenges")
    assert [row["id"] for row in listed["received"]] == [made["id"]] and listed["sent"] == []
    state = bob.ok("post", f"/challenges/{made['id']}/accept")
    assert state["you"]["seat"] == 1 and state["status"] == "playing"
    assert alice.ok("get", "/challenges") == {"received": [], "sent": []}


def test_the_api_refuses_bad_offers_with_clear_errors(alice, bob):
    assert alice.post("/challenges", {"opponent_name": "nobody", **SLOW}).status_code == 404
    assert alice.post("/challenges", {**SLOW}).status_code == 400
    assert alice.post("/challenges", {"opponent_id": 999999, **SLOW}).status_code == 404
    assert alice.post("/challenges/999999/accept").status_code == 404
    assert alice.get("/seeks?pace=fast").status_code == 400
    assert Challenge.objects.count() == 0


def test_the_api_posts_filters_and_takes_seeks(alice, bob):
    seek = alice.ok("post", "/seeks", dict(LIVE), status=201)
    assert seek["kind"] == "seek" and seek["challenged"] is None
    assert [row["id"] for row in bob.ok("get", "/seeks?pace=live")["seeks"]] == [seek["id"]]
    assert bob.ok("get", "/seeks?pace=slow")["seeks"] == []
    bob.ok("post", f"/challenges/{seek['id']}/accept")
    assert bob.ok("get", "/seeks")["seeks"] == []


def test_the_pages_post_a_challenge_and_a_seek_from_the_new_table_form(alice, bob):
    bob_player = _player(bob)
    page = alice.client.get(f"/new/?opponent={bob_player.pk}")
    assert page.status_code == 200 and bob_player.display_name in page.content.decode()
    answer = alice.client.post(
        "/new/", {"opponent": bob_player.pk, "ruleset": "classic", "turn_seconds": 86400}
    )
    assert answer.status_code == 302 and answer["Location"] == "/challenges/"
    answer = alice.client.post("/new/", {"kind": "seek", "ruleset": "reino", "turn_seconds": 60})
    assert answer.status_code == 302 and answer["Location"] == "/lobby/"
    lobby = bob.client.get("/lobby/?ruleset=reino&pace=live").content.decode()
    assert "data-seek=" in lobby
    assert "data-seek=" not in bob.client.get("/lobby/?pace=slow").content.decode()
    received = bob.client.get("/challenges/").content.decode()
    challenge = Challenge.objects.get(challenged=bob_player)
    assert f"/challenges/{challenge.pk}/accept/" in received
    answer = bob.client.post(f"/challenges/{challenge.pk}/accept/")
    assert answer.status_code == 302 and answer["Location"].startswith("/t/")


def test_the_profile_offers_challenge_alerts_to_accounts_only(db):
    """Challenges are between accounts: a guest's profile has no row of challenge alerts."""
    account = make_account_client("ana@example.com")
    guest = ApiClient(Client(), name="Guesty")
    seated_table(account, guest)
    assert 'data-kind="challenge"' in account.client.get("/me/profile/").content.decode()
    assert 'data-kind="challenge"' not in guest.client.get("/me/profile/").content.decode()
