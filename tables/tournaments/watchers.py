"""The tournaments' receiver of a match's end (tables.core.announcements.match_ended), wired in
tables/apps.py: a match of a tournament hands its result to the pairing. For any other match it
costs one indexed query (the pairing by its table)."""

from __future__ import annotations

from typing import Any

from tables.core.announcements import MatchEnd
from tables.tournaments.services.registration import withdraw_everywhere
from tables.tournaments.services.results import record_match_end


def on_match_end(sender: Any, change: MatchEnd, **kwargs: Any) -> None:
    record_match_end(change.table_id)


def on_account_leaving(sender: Any, player_id: int, **kwargs: Any) -> None:
    """An account being deleted leaves every event it is still in (tables.accounts.announcements)."""
    withdraw_everywhere(player_id)
