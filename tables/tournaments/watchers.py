"""The tournaments' receivers, wired in tables/apps.py.

- A match's end (tables.core.announcements.match_ended): a match of a tournament hands its
  result to the pairing. For any other match it costs one indexed query (the pairing by its table).
- A round over (announcements.round_ended): its next step is handed to a task.
- A new version of an event (announcements.tournament_changed): the sockets following its page
  are told (tables.live.consumers, the user socket's "watch_tournament"); then, if the event has
  started and its round 1 is not open yet, round 1 is handed to the same task (the join that
  took the last place, or the start-date sweep, never opens it itself).
- An account being deleted (tables.accounts.announcements.account_leaving): it leaves its events.
"""

from __future__ import annotations

from typing import Any

from tables.background import registry, scheduling
from tables.core.announcements import MatchEnd
from tables.live import events
from tables.tournaments.announcements import TournamentChange
from tables.tournaments.services.registration import withdraw_everywhere
from tables.tournaments.services.results import record_match_end


def on_match_end(sender: Any, change: MatchEnd, **kwargs: Any) -> None:
    record_match_end(change.table_id)


def on_round_ended(sender: Any, tournament_id: int, **kwargs: Any) -> None:
    scheduling.run_task(registry.ADVANCE_TOURNAMENT, tournament_id)


def on_tournament_change(sender: Any, change: TournamentChange, **kwargs: Any) -> None:
    message = {"type": "tournament.changed", "version": change.version}
    events.group_send(events.tournament_group(change.tournament_id), message)  # never raises
    if change.first_round_due:
        scheduling.run_task(registry.ADVANCE_TOURNAMENT, change.tournament_id)


def on_account_leaving(sender: Any, player_id: int, **kwargs: Any) -> None:
    """An account being deleted leaves every event it is still in (tables.accounts.announcements)."""
    withdraw_everywhere(player_id)
