from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

from config import env


def test_sqlite_urls_relative_and_absolute():
    base = Path("/srv/ginmesa")
    assert env.parse_database_url("sqlite:///var/db.sqlite3", base)["NAME"] == "/srv/ginmesa/var/db.sqlite3"
    assert env.parse_database_url("sqlite:////tmp/x.sqlite3", base)["NAME"] == "/tmp/x.sqlite3"


def test_postgres_url_is_split_into_django_settings():
    db = env.parse_database_url("postgres://gin:p%40ss@db.local:5433/ginmesa?sslmode=require", Path("."))
    assert db["ENGINE"] == "config.postgresql"
    assert (db["NAME"], db["USER"], db["PASSWORD"], db["HOST"], db["PORT"]) == (
        "ginmesa",
        "gin",
        "p@ss",
        "db.local",
        "5433",
    )
    assert db["OPTIONS"] == {
        "pool": {"min_size": 2, "max_size": 20, "timeout": 10},
        "server_side_binding": True,
        "prepare_threshold": 5,
        "sslmode": "require",
    }
    assert db["CONN_MAX_AGE"] == 0  # the pool holds the connections (Django refuses both)
    assert (
        env.parse_database_url("postgres://db.local/g", Path("."), pool_size=5)["OPTIONS"]["pool"]["max_size"]
        == 5
    )


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("mysql://x/y", "must start with sqlite:/// or postgres://"),
        ("postgres://host:5432/", "must name the database"),
        ("sqlite:///", "needs a file name"),
    ],
)
def test_bad_database_urls_say_what_to_set(url, message):
    with pytest.raises(ImproperlyConfigured, match=message):
        env.parse_database_url(url, Path("."))


def test_booleans_integers_and_lists(monkeypatch):
    monkeypatch.setenv("FLAG", "yes")
    monkeypatch.setenv("NUMBER", "42")
    monkeypatch.setenv("HOSTS", "a.example, b.example,")
    assert env.get_bool("FLAG", False) is True
    assert env.get_int("NUMBER", 0) == 42
    assert env.get_list("HOSTS", []) == ["a.example", "b.example"]
    monkeypatch.setenv("FLAG", "maybe")
    with pytest.raises(ImproperlyConfigured, match="FLAG must be true or false"):
        env.get_bool("FLAG", False)
    monkeypatch.setenv("NUMBER", "forty")
    with pytest.raises(ImproperlyConfigured, match="NUMBER must be a whole number"):
        env.get_int("NUMBER", 0)


def test_required_values_raise_a_sentence(monkeypatch):
    monkeypatch.delenv("SOMETHING_NEEDED", raising=False)
    with pytest.raises(ImproperlyConfigured, match="Set the environment variable SOMETHING_NEEDED"):
        env.get_str("SOMETHING_NEEDED", required=True)


def test_redis_url_is_checked():
    assert env.check_redis_url("redis://127.0.0.1:6379/0") == "redis://127.0.0.1:6379/0"
    with pytest.raises(ImproperlyConfigured, match="REDIS_URL must look like"):
        env.check_redis_url("http://127.0.0.1:6379")


@pytest.mark.parametrize(
    ("url", "database"),
    [
        ("redis://127.0.0.1:6379/9", 9),
        ("redis://127.0.0.1:6379", 0),
        ("redis://127.0.0.1:6379/", 0),
        ("rediss://user:secret@cache.example:6380/3", 3),
        ("redis://127.0.0.1:6379/0?db=5", 5),
        ("unix:///run/redis.sock?db=2", 2),
        ("unix:///run/redis.sock", 0),
    ],
)
def test_the_redis_database_names_the_channel_layers_channels(url, database):
    assert env.redis_database(url) == database
    assert env.channel_prefix(url) == f"asgi{database}."


def test_a_redis_database_that_is_not_a_number_is_refused():
    with pytest.raises(ImproperlyConfigured, match="database must be a number"):
        env.check_redis_url("redis://127.0.0.1:6379/cache")
