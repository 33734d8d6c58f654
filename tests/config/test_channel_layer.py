"""The batching pub/sub layer against a real Redis: two layers stand for two processes."""

from __future__ import annotations

import asyncio
import uuid
from urllib.parse import urlparse

import pytest
from django.conf import settings
from redis.asyncio.client import Pipeline
from redis.exceptions import ConnectionError as RedisConnectionError

from config import env
from config.channel_layer import BatchingPubSubChannelLayer

pytestmark = pytest.mark.skipif(
    not settings.REDIS_URL, reason="needs redis-server and REDIS_URL (.ci/run sets it)"
)

DEAD_REDIS = "redis://127.0.0.1:6398/0"  # nothing listens here


def layer(url: str | None = None) -> BatchingPubSubChannelLayer:
    # this run's channels only (env.channel_prefix): other runs on the same Redis use the same groups
    url = url or settings.REDIS_URL
    return BatchingPubSubChannelLayer(hosts=[url], prefix=env.channel_prefix(url) + "test-batching.")


async def flush(*layers: BatchingPubSubChannelLayer) -> None:
    for each in layers:
        await each.flush()


async def receive_all(receiver, channel: str, count: int) -> list[int]:
    return [(await asyncio.wait_for(receiver.receive(channel), 5))["n"] for _ in range(count)]


def test_concurrent_publishes_arrive_in_order_in_a_few_round_trips(monkeypatch):
    round_trips = []
    execute = Pipeline.execute

    async def counted(self, *args, **kwargs):
        round_trips.append(len(self.command_stack))
        return await execute(self, *args, **kwargs)

    monkeypatch.setattr(Pipeline, "execute", counted)

    async def scenario():
        sender, receiver = layer(), layer()
        channel = await receiver.new_channel()
        await receiver.group_add("ordered", channel)
        sends = [
            asyncio.ensure_future(sender.group_send("ordered", {"type": "m", "n": n})) for n in range(300)
        ]
        await asyncio.gather(*sends)
        received = await receive_all(receiver, channel, 300)
        await flush(sender, receiver)
        return received

    assert asyncio.run(scenario()) == list(range(300))
    assert sum(round_trips) == 300
    assert len(round_trips) <= 3  # the library's connection makes one round trip per publish


def test_each_waiting_publisher_gets_the_failure_of_its_batch():
    async def scenario():
        dead = layer(DEAD_REDIS)
        results = await asyncio.gather(
            *(dead.group_send("nowhere", {"type": "m", "n": n}) for n in range(5)), return_exceptions=True
        )
        await flush(dead)
        return results

    results = asyncio.run(scenario())
    assert len(results) == 5
    assert all(isinstance(result, RedisConnectionError) for result in results)


def test_joining_while_the_last_member_leaves_keeps_the_group_subscribed():
    async def scenario():
        sender, receiver = layer(), layer()
        leaving, joining = await receiver.new_channel(), await receiver.new_channel()
        await receiver.group_add("table", leaving)
        shard = receiver._get_layer()._shards[0]
        await shard._lock.acquire()  # a batch of publishes on its way: the unsubscribe must wait
        # the last member leaves as another socket of the process joins
        moves = asyncio.gather(receiver.group_discard("table", leaving), receiver.group_add("table", joining))
        # part of the scenario, not a wait for a result: both tasks run up to the held lock
        await asyncio.sleep(0.05)
        shard._lock.release()
        await moves
        await sender.group_send("table", {"type": "m", "n": 1})
        received = await receive_all(receiver, joining, 1)
        await flush(sender, receiver)
        return received

    assert asyncio.run(scenario()) == [1]


def test_re_joining_a_group_sends_nothing_and_the_layer_works_after_a_flush():
    async def scenario():
        sender, receiver = layer(), layer()
        channel = await receiver.new_channel()
        await receiver.group_add("again", channel)
        shard = receiver._get_layer()._shards[0]
        await shard._lock.acquire()  # as if a batch of publishes were on its way
        try:
            await asyncio.wait_for(receiver.group_add("again", channel), 1)  # a heartbeat's re-join
        finally:
            shard._lock.release()
        await sender.flush()
        await sender.group_send("again", {"type": "m", "n": 7})
        received = await receive_all(receiver, channel, 1)
        await flush(receiver, sender)
        return received

    assert asyncio.run(scenario()) == [7]


def test_sites_on_two_redis_databases_never_hear_each_others_groups():
    """Redis's pub/sub ignores the database: the layer's channels are named after it (settings)."""
    assert settings.CHANNEL_LAYERS["default"]["CONFIG"]["prefix"] == env.channel_prefix(settings.REDIS_URL)
    server = urlparse(settings.REDIS_URL)._replace(query="")
    one, other = (server._replace(path=f"/{database}").geturl() for database in (1, 2))
    group = f"table-{uuid.uuid4().hex}"  # a table of the same id on both sites

    async def scenario() -> int:
        site, same_site, other_site = (
            BatchingPubSubChannelLayer(hosts=[url], prefix=env.channel_prefix(url))
            for url in (one, one, other)
        )
        here, there = await same_site.new_channel(), await other_site.new_channel()
        await same_site.group_add(group, here)
        await other_site.group_add(group, there)
        await site.group_send(group, {"type": "m", "n": 1})
        heard = (await asyncio.wait_for(same_site.receive(here), 5))["n"]
        with pytest.raises(asyncio.TimeoutError):
            await asyncio.wait_for(other_site.receive(there), 0.5)
        await flush(site, same_site, other_site)
        return int(heard)

    assert asyncio.run(scenario()) == 1
