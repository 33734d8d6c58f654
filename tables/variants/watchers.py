"""The game tables' receivers, wired in tables/apps.py.

- A match's end (tables.core.announcements.match_ended): a board hands its result to its game.
  For any other match it costs one indexed query (the unrecorded board by its table).
- A table's chat asked for (tables.play.selectors.chat_shared): a board's table shows the game's
  one chat. For any other table it costs one indexed query.
- An account being deleted (tables.accounts.announcements.account_leaving): it leaves the games
  it sits at that are not over.
"""

from __future__ import annotations

from typing import Any

from tables.core.announcements import MatchEnd
from tables.play.models import Table
from tables.play.selectors import SharedChat
from tables.variants import selectors
from tables.variants.services.boards import record_board_end
from tables.variants.services.setup import leave_everywhere


def on_match_end(sender: Any, change: MatchEnd, **kwargs: Any) -> None:
    record_board_end(change.table_id)


def on_account_leaving(sender: Any, player_id: int, **kwargs: Any) -> None:
    leave_everywhere(player_id)


def on_chat_asked(sender: Any, table: Table, **kwargs: Any) -> SharedChat | None:
    # A table that cannot be a board's (read from its row) costs no query.
    return selectors.shared_chat(table.pk) if selectors.may_be_board(table) else None
