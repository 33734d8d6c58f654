"""Django's Redis cache backend, keeping one client per connection pool.

Django's backend builds a new ``redis.Redis`` for every call, and each one builds its table of
response callbacks: about a tenth of a millisecond, a tenth of a worker's time per move (the
on-site alert claims). A client holds no connection of its own and is safe to share between
threads, so one per pool serves the whole process.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.core.cache.backends.redis import RedisCache, RedisCacheClient


class ReusingRedisCacheClient(RedisCacheClient):
    # Django's own parts this class builds on, which django-stubs leaves out
    _client: Callable[..., Any]
    _get_connection_pool: Callable[[bool], Any]

    def __init__(self, servers: Any, **options: Any) -> None:
        super().__init__(servers, **options)
        self._clients: dict[int, Any] = {}

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        pool = self._get_connection_pool(write)
        client = self._clients.get(id(pool))
        if client is None:
            client = self._clients.setdefault(id(pool), self._client(connection_pool=pool))
        return client


class ReusingRedisCache(RedisCache):
    def __init__(self, server: Any, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = ReusingRedisCacheClient
