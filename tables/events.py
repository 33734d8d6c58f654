"""Telling connected browsers that a table changed.

A message carries no game state, only the table's new version: each socket then asks for
its own view, so a broadcast can never leak a hand. Publishing is best effort: the move
is already committed, and a client that missed a message catches up on its next fetch.
"""

from __future__ import annotations

import logging

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

log = logging.getLogger(__name__)


def table_group(table_id: int) -> str:
    return f"table-{table_id}"


def publish_table_event(table_id: int, version: int, kind: str = "state") -> None:
    """Send ``{"type": "table.event", "kind", "version"}`` to the table's Channels group."""
    layer = get_channel_layer()
    if layer is None:
        return
    message = {"type": "table.event", "kind": kind, "table": table_id, "version": version}
    try:
        async_to_sync(layer.group_send)(table_group(table_id), message)
    except Exception:  # a down Redis must not undo or fail a committed move
        log.exception("could not publish %s for table %s", kind, table_id)
