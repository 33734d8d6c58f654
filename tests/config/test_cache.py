import threading

import pytest
from django.conf import settings

from config.cache import ReusingRedisCache

pytestmark = pytest.mark.skipif(
    not settings.REDIS_URL, reason="needs redis-server and REDIS_URL (.ci/run sets it)"
)


@pytest.fixture
def cache():
    backend = ReusingRedisCache(settings.REDIS_URL, {"KEY_PREFIX": "test-cache"})
    yield backend
    backend.delete_many(["a", "b"])


def test_one_client_serves_every_call_and_thread(cache):
    clients = [cache._cache.get_client(write=True)]
    thread = threading.Thread(target=lambda: clients.append(cache._cache.get_client(write=True)))
    thread.start()
    thread.join()
    assert clients[0] is clients[1]
    assert cache._cache.get_client() is clients[0]  # one server: reads use the same pool


def test_it_still_behaves_as_the_cache(cache):
    assert cache.add("a", 1, timeout=60) is True
    assert cache.add("a", 2, timeout=60) is False
    assert cache.get("a") == 1
    cache.set("b", {"x": [1, 2]}, timeout=60)
    assert cache.get("b") == {"x": [1, 2]}
    cache.delete("a")
    assert cache.get("a") is None


def test_separate_caches_keep_separate_clients():
    first = ReusingRedisCache(settings.REDIS_URL, {})
    second = ReusingRedisCache(settings.REDIS_URL, {})
    assert first._cache.get_client() is not second._cache.get_client()
