"""Visitors with no player (logged out, the invite link only) who have a table's page open.

They have no row to hold a lease in (alerts.TablePresence is per player), and one row per
passing visitor would grow without end; so each such socket holds a lease in the cache
(Redis with REDIS_URL, shared by every server process; locmem in embedded mode, where one
process serves every socket): a numbered slot per table, ``watchers:<table>:<slot>``, claimed
with an atomic ``add`` and renewed by the presence heartbeat like the players' leases. A socket
that closes frees its slot; one whose server died stops renewing and its slot lapses after
LEASE_SECONDS. Counting reads the table's slots below its high-water mark in one ``get_many``.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable
from dataclasses import dataclass, field

from django.core.cache import cache

from tables.alerts.presence import LEASE_SECONDS

# The high-water mark outlives every slot by far (it is renewed with them); it lapses only
# once the table has had no visitor for a day, and then no slot below it can still be alive.
TOP_SECONDS = 24 * 3600


@dataclass
class Watch:
    """One open socket's lease: its table, its own mark, and the slot it holds (None: none yet)."""

    table_id: int
    token: str = field(default_factory=lambda: uuid.uuid4().hex)
    slot: int | None = None


def _slot_key(table_id: int, slot: int) -> str:
    return f"watchers:{table_id}:{slot}"


def _top_key(table_id: int) -> str:
    return f"watchers:{table_id}:top"


def _slots(table_id: int) -> dict[str, str]:
    """The live slots of the table: key -> the token of the socket holding it."""
    top = cache.get(_top_key(table_id)) or 0
    found: dict[str, str] = cache.get_many([_slot_key(table_id, slot) for slot in range(top)])
    return found


def claim(watch: Watch) -> None:
    """Give ``watch`` a free slot: the lowest one lapsed or freed, else a new one above the rest."""
    table = watch.table_id
    top = cache.get(_top_key(table)) or 0
    taken = _slots(table)
    for slot in range(top):
        key = _slot_key(table, slot)
        if key not in taken and cache.add(key, watch.token, LEASE_SECONDS):
            watch.slot = slot
            cache.touch(_top_key(table), TOP_SECONDS)
            return
    cache.add(_top_key(table), 0, TOP_SECONDS)
    while True:  # another process may take the same new slot first: then the next one
        slot = cache.incr(_top_key(table)) - 1
        if cache.add(_slot_key(table, slot), watch.token, LEASE_SECONDS):
            watch.slot = slot
            return


def renew(watches: Iterable[Watch]) -> None:
    """The heartbeat of some sockets at once: each keeps its slot for another lease, or, if the
    slot lapsed meanwhile (a late beat, an evicted key), claims one again."""
    watches = list(watches)
    held = [watch for watch in watches if watch.slot is not None]
    current = cache.get_many([_slot_key(w.table_id, w.slot) for w in held if w.slot is not None])
    kept = {}
    for watch in watches:
        key = None if watch.slot is None else _slot_key(watch.table_id, watch.slot)
        if key is not None and current.get(key) == watch.token:
            kept[key] = watch.token
        else:
            claim(watch)
    if kept:
        cache.set_many(kept, LEASE_SECONDS)
    for table in {watch.table_id for watch in watches}:
        cache.touch(_top_key(table), TOP_SECONDS)


def release(watch: Watch) -> None:
    """The socket closed: its slot is free at once (unless it lapsed and another took it)."""
    if watch.slot is None:
        return
    key = _slot_key(watch.table_id, watch.slot)
    if cache.get(key) == watch.token:
        cache.delete(key)
    watch.slot = None


def count(table_id: int) -> int:
    return len(_slots(table_id))
