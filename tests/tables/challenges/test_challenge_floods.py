"""Challenges cannot flood anyone: a pair waits after a withdrawn or declined challenge, a player
hears of at most ALERTS_PER_HOUR challenges an hour, and is emailed of one challenger's
challenges at most once a day unless they asked for every one (docs/reliability.md)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core import mail
from django.utils import timezone

from tables.accounts.identity import player_for_user
from tables.accounts.models import Player
from tables.challenges import alerts as challenge_alerts
from tables.challenges import services as challenge_services
from tables.challenges.models import Challenge
from tables.core.errors import RateLimited
from tables.play.models import Table
from tests.tables.helpers import ApiClient, make_account_client

pytestmark = pytest.mark.django_db(transaction=True)  # alerts follow the commit

SLOW = {"ruleset": "classic", "turn_seconds": 86400}


def _player(client: ApiClient) -> Player:
    return player_for_user(client.user)


def _to(sent: dict[str, list], player: Player) -> tuple[int, int, int]:
    """The site alerts, pushes and emails ``player`` received."""
    email = player.user.email
    return (
        sum(1 for pid, _ in sent["site"] if pid == player.pk),
        sent["push"].count(player.pk),
        sum(1 for message in mail.outbox if message.to == [email]),
    )


def _wait_out(challenge_id: int, wait: dt.timedelta) -> None:
    """As if ``wait`` had passed since the offer was withdrawn or declined."""
    Challenge.objects.filter(pk=challenge_id).update(answered_at=timezone.now() - wait)


def test_a_challenge_withdraw_loop_through_the_api_reaches_its_target_once(sent):
    alice, bob = make_account_client("loop-a@example.com"), make_account_client("loop-b@example.com")
    target = _player(bob)
    answers = []
    for _ in range(11):
        made = alice.post("/challenges", {"opponent_id": target.pk, **SLOW})
        answers.append(made.status_code)
        if made.status_code == 201:
            alice.ok("post", f"/challenges/{made.json()['id']}/withdraw")
        else:
            body = made.json()
            assert (body["error"], body["field"]) == ("rate_limited", "opponent")
            assert 540 < body["retry_after"] <= 600 and made["Retry-After"] == str(body["retry_after"])
            assert "Retiraste un reto" in body["detail"]  # in the caller's language (Spanish by default)
    assert answers == [201] + [429] * 10
    assert Challenge.objects.count() == 1
    assert _to(sent, target) == (1, 1, 1)


def test_a_refused_challenge_changes_nothing_and_the_wait_after_a_decline_is_longer(sent):
    alice, bob = make_account_client("dec-a@example.com"), make_account_client("dec-b@example.com")
    challenger, target = _player(alice), _player(bob)
    declined = challenge_services.challenge_player(challenger, target, dict(SLOW))
    challenge_services.decline(declined.pk, target)
    before = (Challenge.objects.count(), _to(sent, target), len(sent["later"]))
    _wait_out(declined.pk, dt.timedelta(hours=10, minutes=30))  # 90 minutes of the twelve hours left
    with pytest.raises(RateLimited, match="rechaz") as refused:
        challenge_services.challenge_player(challenger, target, dict(SLOW))
    assert 5300 < refused.value.extra["retry_after"] <= 5400 and "2 h" in refused.value.message
    page = alice.client.post("/new/", {"opponent": target.pk, **SLOW})
    assert page.status_code == 200 and "2 h" in page.content.decode()  # the form says why
    assert (Challenge.objects.count(), _to(sent, target), len(sent["later"])) == before
    assert not Table.objects.exists()
    _wait_out(declined.pk, dt.timedelta(hours=12, seconds=1))
    challenge_services.challenge_player(challenger, target, dict(SLOW))
    # The other way round was never held back: a decline stops only the one who was declined.
    challenge_services.challenge_player(target, make_account_player("dec-c@example.com"), dict(SLOW))


def make_account_player(email: str) -> Player:
    return _player(make_account_client(email))


def test_the_loop_with_each_wait_sat_out_alerts_five_times_an_hour_and_emails_once_a_day(sent):
    alice, bob = make_account_client("slow-a@example.com"), make_account_client("slow-b@example.com")
    challenger, target = _player(alice), _player(bob)
    for _ in range(11):
        challenge = challenge_services.challenge_player(challenger, target, dict(SLOW))
        challenge_services.withdraw(challenge.pk, challenger)
        _wait_out(challenge.pk, challenge_services.COOLDOWNS[Challenge.Status.WITHDRAWN])
    assert Challenge.objects.filter(challenger=challenger).count() == 11
    allowed = challenge_services.ALERTS_PER_HOUR
    assert _to(sent, target) == (allowed, allowed, 1)


def test_past_the_hourly_allowance_challenges_show_on_the_page_without_any_alert(sent):
    bob = make_account_client("many-b@example.com")
    target = _player(bob)
    challengers = [
        make_account_player(f"many-{n}@example.com") for n in range(challenge_services.ALERTS_PER_HOUR + 2)
    ]
    for challenger in challengers:
        challenge_services.challenge_player(challenger, target, dict(SLOW))
    allowed = challenge_services.ALERTS_PER_HOUR
    assert _to(sent, target) == (allowed, allowed, allowed)  # each challenger's first email
    assert len(bob.ok("get", "/challenges")["received"]) == len(challengers)
    page = bob.client.get("/challenges/").content.decode()
    assert all(f"/challenges/{row.pk}/accept/" in page for row in Challenge.objects.all())
    # Neither the sweep nor a rerun alerts the silent ones later.
    assert challenge_alerts.sweep_unannounced(timezone.now() + dt.timedelta(hours=2)) == 0
    for challenge in Challenge.objects.all():
        assert challenge_alerts.deliver(challenge.pk, "received") == set()
    assert _to(sent, target) == (allowed, allowed, allowed)


def test_one_email_a_day_per_challenger_unless_the_player_asks_for_every_one(sent):
    alice, bob = make_account_client("mail-a@example.com"), make_account_client("mail-b@example.com")
    challenger, target = _player(alice), _player(bob)
    for _ in range(2):  # accepted, so no wait: the next challenge is a fair one
        challenge = challenge_services.challenge_player(challenger, target, dict(SLOW))
        challenge_services.accept(challenge.pk, target)
    assert _to(sent, target) == (2, 2, 1)
    profile = bob.client.get("/me/profile/").content.decode()
    assert 'id="pref-every-challenge-email"' in profile
    bob.ok("patch", "/me", {"alert_prefs": {"every_challenge_email": True}})
    assert Player.objects.get(pk=target.pk).alert_prefs["every_challenge_email"] is True
    challenge = challenge_services.challenge_player(challenger, target, dict(SLOW))
    assert _to(sent, target) == (3, 3, 2)
    assert bob.request("patch", "/me", {"alert_prefs": {"every_challenge_email": "yes"}}).status_code == 400
    assert challenge.status == Challenge.Status.OPEN
