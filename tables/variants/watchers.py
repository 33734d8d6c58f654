"""The game tables' receivers, wired in tables/apps.py.

- A match's end (tables.core.announcements.match_ended): a board hands its result to its game.
  For any other match it costs one indexed query (the unrecorded board by its table).
"""

from __future__ import annotations

from typing import Any

from tables.core.announcements import MatchEnd
from tables.variants.services.boards import record_board_end


def on_match_end(sender: Any, change: MatchEnd, **kwargs: Any) -> None:
    record_board_end(change.table_id)
