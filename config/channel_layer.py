"""channels-redis's pub/sub layer with publishes sent in batches.

The library's shard connection sends each publish on its own, one at a time under a lock, and
waits for Redis's reply before the next may start. Each reply needs a turn of the event loop,
and a daphne serving a thousand sockets takes milliseconds for a turn under load, so the
publishes of a busy process queued behind one another while its CPU was not full: the
broadcast stage of bench/load.py then reached p99 0.5-1 s at 250 moves/s (bench/README.md).

Here a process's publishes to one Redis go into a queue that one task empties: everything
waiting is sent in one pipeline, one round trip, in the order it was published (so a table's
versions still arrive in order). A socket re-joining a group it is already in (each heartbeat)
no longer waits for that lock either. Receiving, subscribing and the rest are the library's.
"""

from __future__ import annotations

import asyncio
import collections
from typing import Any

from channels_redis.pubsub import RedisPubSubChannelLayer, RedisPubSubLoopLayer, RedisSingleShardConnection
from channels_redis.utils import _wrap_close

BATCH_LIMIT = 500  # publishes in one pipeline at most (a backlog goes as several round trips)

Queued = tuple[str, bytes, "asyncio.Future[None]"]  # channel, message, its publisher's future


class BatchingShardConnection(RedisSingleShardConnection):
    def __init__(self, host: dict[str, Any], channel_layer: Any) -> None:
        super().__init__(host, channel_layer)
        self._outbox: collections.deque[Queued] = collections.deque()
        self._sender: asyncio.Task[None] | None = None
        self._leaving: set[str] = set()  # channels whose unsubscribe is under way

    async def publish(self, channel: str, message: bytes) -> None:
        """Queue the message; returns once Redis has taken it (raises as the library's would)."""
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._outbox.append((channel, message, done))
        if self._sender is None or self._sender.done():
            self._sender = asyncio.ensure_future(self._send_queued())
        await done

    async def _send_queued(self) -> None:
        while self._outbox:
            batch = [self._outbox.popleft() for _ in range(min(BATCH_LIMIT, len(self._outbox)))]
            try:
                await self._send(batch)
            except Exception as error:
                _settle(batch, error)
            except BaseException:  # cancelled (a flush, the loop closing): no publisher waits forever
                _settle(batch, ConnectionError("the publisher stopped"))
                raise
            else:
                _settle(batch, None)

    async def _send(self, batch: list[Queued]) -> None:
        async with self._lock:  # flush() closes the client under the same lock
            self._ensure_redis()
            pipe = self._redis.pipeline(transaction=False)
            for channel, message, _ in batch:
                pipe.publish(channel, message)
            await pipe.execute()

    async def subscribe(self, channel: str) -> None:
        if channel in self._subscribed_to and channel not in self._leaving:
            return  # already subscribed: nothing to send, no need to wait behind the publishes
        await super().subscribe(channel)

    async def unsubscribe(self, channel: str) -> None:
        self._leaving.add(channel)
        try:
            await super().unsubscribe(channel)
        finally:
            self._leaving.discard(channel)

    async def flush(self) -> None:
        if self._sender is not None:
            await asyncio.gather(self._sender, return_exceptions=True)
        await super().flush()


def _settle(batch: list[Queued], error: BaseException | None) -> None:
    """Tell each publisher of the batch that it went (``error`` None) or how it failed."""
    for _, _, done in batch:
        if done.done():  # its publisher gave up waiting
            continue
        if error is None:
            done.set_result(None)
        else:
            done.set_exception(error)


class BatchingLoopLayer(RedisPubSubLoopLayer):
    _shards: list[RedisSingleShardConnection]  # the library's, then one BatchingShardConnection each

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._shards = [BatchingShardConnection(shard.host, self) for shard in self._shards]


class BatchingPubSubChannelLayer(RedisPubSubChannelLayer):
    """settings.CHANNEL_LAYERS's backend with REDIS_URL: one BatchingLoopLayer per event loop."""

    def _get_layer(self) -> RedisPubSubLoopLayer:
        loop = asyncio.get_running_loop()
        layer = self._layers.get(loop)
        if layer is None:
            layer = self._layers[loop] = BatchingLoopLayer(*self._args, **self._kwargs, channel_layer=self)
            _wrap_close(self, loop)
        return layer
