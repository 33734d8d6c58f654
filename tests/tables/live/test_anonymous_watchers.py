"""Visitors with no player (the invite link, logged out) count as watching: a lease each in the
cache (tables.alerts.watchers), freed when the socket closes, lapsing when it is not renewed."""

from __future__ import annotations

import asyncio
import time

import pytest
from django.core.cache import cache
from django.test import Client

from tables.alerts import presence, watchers
from tables.live import sockets
from tables.play.models import Table
from tests.polling import wait_until
from tests.tables.helpers import started

from .helpers import connect, receive_type, run, sync

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _fresh_cache(monkeypatch):
    """Table ids restart after a flushed test database: no earlier test's slots may count."""
    monkeypatch.setattr(sockets, "SHARED_DB_THREAD", True)
    cache.clear()
    yield
    cache.clear()


class Visitor:
    """A browser that opened the link and typed no name: no cookie at all."""

    client = Client()


async def _spectators_until(socket, count: int) -> None:
    while (await receive_type(socket, "presence"))["spectators"] != count:
        pass


def test_slots_are_claimed_reused_released_and_lapse(monkeypatch):
    first, second, third = (watchers.Watch(7) for _ in range(3))
    for watch in (first, second):
        watchers.claim(watch)
    assert (first.slot, second.slot, watchers.count(7), watchers.count(8)) == (0, 1, 2, 0)
    watchers.release(first)
    assert watchers.count(7) == 1
    watchers.claim(third)
    assert third.slot == 0 and watchers.count(7) == 2  # the freed slot, not a new one

    monkeypatch.setattr(watchers, "LEASE_SECONDS", 1)
    watchers.renew([second, third])  # now on one-second leases
    time.sleep(0.6)  # what is tested: time passing, so that the next renewal outlives the first
    watchers.renew([third])  # only this one's socket still beats
    # the other lapses 1 s after its renewal (as if its server had died), this one 0.6 s later
    wait_until(lambda: watchers.count(7) == 1, timeout=3, interval=0.02, message="the unrenewed lease lapsed")
    watchers.release(second)  # a lapsed lease's late close frees nothing of another's
    assert watchers.count(7) == 1


def test_a_slot_taken_over_after_a_lapse_is_claimed_anew():
    late, newcomer = watchers.Watch(7), watchers.Watch(7)
    watchers.claim(late)
    cache.delete(watchers._slot_key(7, late.slot))  # lapsed (a beat came too late)
    watchers.claim(newcomer)
    assert newcomer.slot == late.slot
    watchers.renew([late])
    assert late.slot != newcomer.slot and watchers.count(7) == 2
    watchers.release(late)
    assert watchers.count(7) == 1 and cache.get(watchers._slot_key(7, newcomer.slot)) == newcomer.token


def test_a_logged_out_visitor_is_counted_while_its_socket_is_open(alice, bob, monkeypatch):
    token, _players = started(alice, bob)
    table_id = Table.objects.get(invite_token=token).pk
    monkeypatch.setattr(presence, "HEARTBEAT_SECONDS", 0.2)
    monkeypatch.setattr(watchers, "LEASE_SECONDS", 1)

    async def body():
        player = await connect(f"/ws/tables/{token}/", alice)
        await receive_type(player, "snapshot")
        visitor = await connect(f"/ws/tables/{token}/", Visitor)
        snapshot = await receive_type(visitor, "snapshot")
        assert snapshot["state"]["you"]["seat"] is None
        await _spectators_until(player, 1)
        await asyncio.sleep(1.5)  # what is tested: longer than a lease, which the heartbeat renews
        assert await sync(watchers.count, table_id) == 1
        await visitor.disconnect()
        await _spectators_until(player, 0)
        await player.disconnect()

    run(body)
