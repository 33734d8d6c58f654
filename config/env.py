"""The one place settings read the environment.

Every value has an embedded default for development (``make run``); a value that
production needs and is missing or malformed raises ImproperlyConfigured with a
sentence saying what to set.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, unquote, urlparse

from django.core.exceptions import ImproperlyConfigured

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def get_str(name: str, default: str | None = None, *, required: bool = False) -> str | None:
    value = os.environ.get(name)
    if value is None or value == "":
        if required:
            raise ImproperlyConfigured(f"Set the environment variable {name}.")
        return default
    return value


def get_bool(name: str, default: bool) -> bool:
    raw = os.environ.get(name)
    if raw is None:
        return default
    value = raw.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise ImproperlyConfigured(f"{name} must be true or false (1/0, yes/no, on/off), not {raw!r}.")


def get_int(name: str, default: int) -> int:
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    try:
        return int(raw)
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be a whole number, not {raw!r}.") from None


def get_list(name: str, default: list[str]) -> list[str]:
    raw = os.environ.get(name)
    if raw is None:
        return default
    return [item.strip() for item in raw.split(",") if item.strip()]


def parse_database_url(url: str, base_dir: Path, pool_size: int = 20) -> dict[str, Any]:
    """Django DATABASES entry from ``sqlite:///path`` or ``postgres://user:pass@host:port/name``.
    PostgreSQL connections come from a pool of at most ``pool_size`` per process, shared by the
    HTTP threads, the socket consumers and the background threads of that process."""
    parsed = urlparse(url)
    if parsed.scheme == "sqlite":
        path = unquote(parsed.path)
        if path.startswith("//"):  # sqlite:////absolute/path
            name = Path(path[1:])
        elif path in ("", "/"):
            raise ImproperlyConfigured(
                "DATABASE_URL sqlite:/// needs a file name, e.g. sqlite:///var/db.sqlite3."
            )
        else:
            name = base_dir / path.lstrip("/")
        return {"ENGINE": "django.db.backends.sqlite3", "NAME": str(name)}
    if parsed.scheme in ("postgres", "postgresql", "pgsql"):
        database = unquote(parsed.path.lstrip("/"))
        if not database:
            raise ImproperlyConfigured(
                "DATABASE_URL must name the database, e.g. postgres://user@127.0.0.1:5432/ginmesa."
            )
        options = {key: values[-1] for key, values in parse_qs(parsed.query).items()}
        return {
            "ENGINE": "config.postgresql",  # Django's, whose pool checks connections more cheaply
            "NAME": database,
            "USER": unquote(parsed.username or ""),
            "PASSWORD": unquote(parsed.password or ""),
            "HOST": parsed.hostname or "",
            "PORT": str(parsed.port or ""),
            "CONN_MAX_AGE": 0,  # the pool keeps the connections; Django then must not
            # The pool checks each connection as it lends it (a restarted server), without a
            # round trip while nothing came from the server (config/postgresql/base.py).
            "CONN_HEALTH_CHECKS": True,
            "OPTIONS": {
                "pool": {"min_size": 2, "max_size": pool_size, "timeout": 10},
                # Parameters sent apart from the statement, and a statement run five times on a
                # connection is prepared there: PostgreSQL stops parsing and planning each move's
                # few statements again (half its CPU per move, bench/README.md).
                "server_side_binding": True,
                "prepare_threshold": 5,
                **options,
            },
        }
    raise ImproperlyConfigured(
        f"DATABASE_URL must start with sqlite:/// or postgres://, not {url.split(':', 1)[0]!r}."
    )


def check_redis_url(url: str | None) -> str | None:
    if url is None:
        return None
    if urlparse(url).scheme not in ("redis", "rediss", "unix"):
        raise ImproperlyConfigured(f"REDIS_URL must look like redis://127.0.0.1:6379/0, not {url!r}.")
    try:
        redis_database(url)
    except ValueError:
        raise ImproperlyConfigured(
            f"REDIS_URL's database must be a number, as in redis://127.0.0.1:6379/0, not {url!r}."
        ) from None
    return url


def redis_database(url: str) -> int:
    """The database a Redis URL selects, as redis-py reads it (``?db=``, else the path), 0 if none."""
    parsed = urlparse(url)
    asked = parse_qs(parsed.query).get("db")
    if asked:
        return int(asked[0])
    path = parsed.path.strip("/")
    return int(path) if path and parsed.scheme != "unix" else 0


def channel_prefix(redis_url: str) -> str:
    """The names of the channel layer's pub/sub channels, after the Redis URL's database. Redis's
    pub/sub ignores the database a connection selects: every client of the server hears every
    channel. Two sites or test runs on one Redis server, each with its own database (as their
    caches and brokers already are), would otherwise hear each other's groups, and a table's
    group carries each seat's own view keyed by player id, for the player of that id there."""
    return f"asgi{redis_database(redis_url)}."
