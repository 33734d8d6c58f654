"""Each inbox line is written in the transaction of its event, by the event's writer: it is there
once the writer returns, before any follow-up runs; an event rolled back leaves none and tells no
page; an event retried, or run twice at once, leaves one (PostgreSQL, real threads and row locks)."""

from __future__ import annotations

import pytest
from django.db import transaction
from django.test import Client

from tables.accounts.identity import player_for_user
from tables.alerts.models import InboxItem
from tables.challenges import services as challenge_services
from tables.challenges.models import Challenge
from tables.core.errors import Conflict
from tables.play.models import Match
from tables.social.services import moderation
from tests.tables.helpers import ApiClient, make_account_client, play_match, started
from tests.tables.play.test_concurrency import _race, needs_row_locks
from tests.tables.rating_helpers import rated_game, to_last_move

SLOW = {"ruleset": "classic", "turn_seconds": 86400}


def _kinds(client: ApiClient) -> list[str]:
    return list(
        InboxItem.objects.filter(player=player_for_user(client.user))
        .order_by("pk")
        .values_list("kind", flat=True)
    )


class _RolledBack(Exception):
    pass


@pytest.mark.django_db
def test_a_match_ending_and_a_rematch_offer_leave_their_lines_before_any_follow_up(
    alice, bob, django_capture_on_commit_callbacks
):
    token, players = started(alice, bob, target=10)
    with django_capture_on_commit_callbacks(execute=False) as follow_ups:
        play_match(token, players)
        assert _kinds(alice) == _kinds(bob) == ["match_over"]  # written by the last move's writer
        alice.ok("post", f"/tables/{token}/rematch/offer", {})
    assert _kinds(bob) == ["match_over", "rematch_offer"] and _kinds(alice) == ["match_over"]
    for follow_up in follow_ups:  # the alerts that follow write nothing more
        follow_up()
    assert _kinds(bob) == ["match_over", "rematch_offer"] and _kinds(alice) == ["match_over"]


@pytest.mark.django_db
def test_a_challenge_its_answer_and_a_seek_taken_leave_their_lines_in_their_writers(alice, bob):
    ana, ben = player_for_user(alice.user), player_for_user(bob.user)
    declined = challenge_services.challenge_player(ana, ben, dict(SLOW))
    assert _kinds(bob) == ["challenge"]
    challenge_services.decline(declined.pk, ben)
    assert _kinds(alice) == ["challenge_declined"]
    seek = challenge_services.post_seek(ana, dict(SLOW))
    challenge_services.accept(seek.pk, ben)
    assert _kinds(alice) == ["challenge_declined", "seek_taken"] and _kinds(bob) == ["challenge"]


@pytest.mark.django_db
def test_a_warning_leaves_its_line_in_the_moderation_writer(alice, bob):
    staff = make_account_client("staff-once@example.com", staff=True)
    moderation.warn(player_for_user(bob.user), staff.user, "Insults in the chat")
    assert _kinds(bob) == ["warning"]


@pytest.mark.django_db
def test_an_event_rolled_back_leaves_no_line_and_tells_no_page(
    alice, bob, django_capture_on_commit_callbacks
):
    ana, ben = player_for_user(alice.user), player_for_user(bob.user)
    with django_capture_on_commit_callbacks(execute=False) as announced:
        try:
            with transaction.atomic():
                challenge_services.challenge_player(ana, ben, dict(SLOW))
                raise _RolledBack
        except _RolledBack:
            pass
    assert _kinds(bob) == [] and Challenge.objects.count() == 0 and announced == []


@needs_row_locks
@pytest.mark.django_db(transaction=True)
def test_the_last_move_twice_at_once_and_then_retried_leaves_one_result_line_each():
    token, players = rated_game("inbox")
    mover, body = to_last_move(token, players)
    cookies = mover.client.cookies

    def send(_: int) -> dict:
        client = Client()
        client.cookies = cookies
        return client.post(f"/api/tables/{token}/moves", body, content_type="application/json").json()

    results = _race(2, send)
    assert sorted(result["applied"] for result in results) == [False, True]
    assert send(0)["replayed"] is True  # retried with its client move id
    assert Match.objects.get().status == Match.Status.OVER
    for client in players.values():
        assert _kinds(client).count("match_over") == 1


@needs_row_locks
@pytest.mark.django_db(transaction=True)
def test_a_challenge_accepted_twice_at_once_leaves_one_line():
    alice, bob = make_account_client("race-a@example.com"), make_account_client("race-b@example.com")
    ana, ben = player_for_user(alice.user), player_for_user(bob.user)
    challenge = challenge_services.challenge_player(ana, ben, dict(SLOW))

    def accept(_: int) -> str:
        try:
            challenge_services.accept(challenge.pk, ben)
        except Conflict:
            return "refused"
        return "accepted"

    assert sorted(_race(2, accept)) == ["accepted", "refused"]
    assert _kinds(alice) == ["challenge_accepted"] and _kinds(bob) == ["challenge"]


@needs_row_locks
@pytest.mark.django_db(transaction=True)
def test_challenges_sent_at_once_to_one_player_leave_lines_within_the_hourly_allowance():
    target = make_account_client("crowded@example.com")
    ben = player_for_user(target.user)
    allowed = challenge_services.ALERTS_PER_HOUR
    challengers = [
        player_for_user(make_account_client(f"at-once-{n}@example.com").user) for n in range(allowed + 3)
    ]

    def send(index: int) -> None:
        challenge_services.challenge_player(challengers[index], ben, dict(SLOW))

    _race(len(challengers), send)
    assert Challenge.objects.filter(challenged=ben).count() == len(challengers)
    assert _kinds(target) == ["challenge"] * allowed
