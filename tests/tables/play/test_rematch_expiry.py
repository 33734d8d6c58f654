"""Rematch offers lapse: the time is stored on the table, the periodic sweep withdraws it once."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone

from config.celery import app
from tables.background import embedded, registry
from tables.live import events
from tables.play import services, tasks
from tables.play.models import Table
from tests.tables.helpers import ApiClient, snapshot, started

pytestmark = pytest.mark.django_db

DAY = 24 * 3600


def _after_a_match(owner: ApiClient, other: ApiClient, **options) -> str:
    token, _ = started(owner, other, **options)
    owner.ok("post", f"/tables/{token}/resign", {})
    return token


def _offered_ago(token: str, seconds: float) -> None:
    """Pretend the standing offer was made ``seconds`` ago."""
    offered_at = timezone.now() - dt.timedelta(seconds=seconds)
    Table.objects.filter(invite_token=token).update(rematch_offered_at=offered_at)


def _table(token: str) -> Table:
    return Table.objects.get(invite_token=token)


@pytest.mark.parametrize(
    ("turn_seconds", "lifetime"),
    [(30, 600), (600, 600), (12 * 3600, 12 * 3600), (3 * DAY, 3 * DAY)],
)
def test_an_offer_lasts_ten_minutes_or_a_turn_whichever_is_longer(alice, bob, turn_seconds, lifetime):
    token = _after_a_match(alice, bob, turn_seconds=turn_seconds)
    offered = alice.ok("post", f"/tables/{token}/rematch/offer")
    offered_at = _table(token).rematch_offered_at
    expected = offered_at + dt.timedelta(seconds=lifetime)
    assert dt.datetime.fromisoformat(offered["rematch"]["expires_at"]) == expected
    assert dt.datetime.fromisoformat(bob.state(token)["rematch"]["expires_at"]) == expected

    _offered_ago(token, lifetime - 5)  # a slow table's offer survives days offline
    assert services.sweep_rematch_offers() == 0
    assert bob.state(token)["rematch"]["offered_by"] == offered["you"]["seat"]
    _offered_ago(token, lifetime + 5)
    assert services.sweep_rematch_offers() == 1


def test_the_sweep_withdraws_a_lapsed_offer_exactly_once(
    alice, bob, monkeypatch, django_capture_on_commit_callbacks
):
    published = []
    monkeypatch.setattr(
        events,
        "publish_table_event",
        lambda table, version, kind, *states: published.append((table, version, kind)),
    )
    token = _after_a_match(alice, bob)
    version = alice.ok("post", f"/tables/{token}/rematch/offer")["version"]
    _offered_ago(token, DAY + 1)

    with django_capture_on_commit_callbacks(execute=True):
        assert tasks.sweep_rematch_offers() == 1  # the periodic task itself
    table = _table(token)
    assert table.version == version + 1 and published == [(table.pk, version + 1, "rematch")]
    assert [table.rematch_offered_by, table.rematch_offered_at, table.rematch_declined_by] == [None] * 3
    assert bob.state(token)["rematch"] == {"offered_by": None, "declined_by": None, "expires_at": None}

    with django_capture_on_commit_callbacks(execute=True):
        assert services.sweep_rematch_offers() == 0
        assert services.expire_rematch_offer(table.pk, version) is None  # a duplicate of the first
    assert _table(token).version == version + 1 and len(published) == 1


def test_an_expiry_carrying_an_old_version_does_nothing(alice, bob):
    token = _after_a_match(alice, bob)
    first = alice.ok("post", f"/tables/{token}/rematch/offer")["version"]
    bob.ok("post", f"/tables/{token}/rematch/decline")
    renewed = alice.ok("post", f"/tables/{token}/rematch/offer")["version"]
    _offered_ago(token, DAY + 1)  # the renewed offer's own time is up too
    before = snapshot(token)

    assert services.expire_rematch_offer(_table(token).pk, first) is None
    assert snapshot(token) == before and _table(token).rematch_offered_at is not None
    assert services.expire_rematch_offer(_table(token).pk, renewed) is not None


def test_an_expiry_after_the_offer_was_accepted_does_nothing(alice, bob):
    token = _after_a_match(alice, bob)
    offered = alice.ok("post", f"/tables/{token}/rematch/offer")["version"]
    _offered_ago(token, DAY + 1)
    accepted = bob.ok("post", f"/tables/{token}/rematch/accept")  # answered before the sweep came
    assert accepted["status"] == "playing" and accepted["rematch"]["expires_at"] is None
    before = snapshot(token)

    assert services.expire_rematch_offer(_table(token).pk, offered) is None
    assert services.sweep_rematch_offers() == 0
    assert snapshot(token) == before


def test_an_early_expiry_does_nothing(alice, bob):
    token = _after_a_match(alice, bob)
    version = alice.ok("post", f"/tables/{token}/rematch/offer")["version"]
    _offered_ago(token, DAY - 5)
    before = snapshot(token)
    assert services.expire_rematch_offer(_table(token).pk, version) is None
    assert snapshot(token) == before


def test_accepting_a_lapsed_offer_is_refused_and_a_new_offer_works(alice, bob):
    token = _after_a_match(alice, bob)
    alice.ok("post", f"/tables/{token}/rematch/offer")
    _offered_ago(token, DAY + 1)
    assert services.sweep_rematch_offers() == 1
    before = snapshot(token)

    refused = bob.request("post", f"/tables/{token}/rematch/accept", {})
    assert refused.status_code == 409 and "has not offered" in refused.json()["detail"]
    assert snapshot(token) == before

    again = alice.ok("post", f"/tables/{token}/rematch/offer")
    assert again["rematch"]["offered_by"] == again["you"]["seat"]
    assert dt.datetime.fromisoformat(again["rematch"]["expires_at"]) > timezone.now() + dt.timedelta(hours=23)
    assert bob.ok("post", f"/tables/{token}/rematch/accept")["status"] == "playing"


def test_a_bot_still_accepts_at_once(alice):
    token = alice.ok("post", "/tables", {}, status=201)["table"]
    alice.ok("post", f"/tables/{token}/bot", {"level": "tito"})
    alice.ok("post", f"/tables/{token}/start", {})
    alice.ok("post", f"/tables/{token}/resign", {})
    state = alice.ok("post", f"/tables/{token}/rematch/offer")
    assert state["status"] == "playing" and state["match"]["number"] == 2
    assert state["rematch"] == {"offered_by": None, "declined_by": None, "expires_at": None}
    assert _table(token).rematch_offered_at is None


def test_both_schedulers_run_the_sweep():
    assert 0 < app.conf.beat_schedule["sweep_rematch_offers"]["schedule"] <= 60
    assert app.conf.beat_schedule["sweep_rematch_offers"]["task"] == registry.SWEEP_REMATCH_OFFERS.name
    assert tasks.sweep_rematch_offers in [job for _, job in embedded.periodic_jobs()]
