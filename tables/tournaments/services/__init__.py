"""The writers of tournaments. Each locks the tournament's row first, so joins, the start, the
pairing of a round, a withdrawal and a match's result are applied one at a time per event."""

from tables.tournaments.services.registration import (
    add_robot,
    cancel,
    create_tournament,
    join,
    withdraw,
)
from tables.tournaments.services.results import (
    advance,
    record_match_end,
    start,
    sweep_tournaments,
)

__all__ = [
    "add_robot",
    "advance",
    "cancel",
    "create_tournament",
    "join",
    "record_match_end",
    "start",
    "sweep_tournaments",
    "withdraw",
]
