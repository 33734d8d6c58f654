"""What the tournament writers announce once their transaction commits, to whoever subscribes
(tables/apps.py); the writers never import what follows.

- ``tournament_changed`` (``change``: a TournamentChange): a new version of an event (a join,
  the start, a result, a new round, the end). Live publishing tells the sockets that follow its
  page. A version of an event that has started with its round 1 not yet opened
  (``first_round_due``: the start, or a withdrawal before the round) also hands round 1 to a
  task: pairing and opening the tables of 128 matches takes seconds that the join taking the
  last place (or the start-date sweep) must not wait for (tables.tournaments.watchers).
- ``round_ended`` (``tournament_id``): a round's last result is in, so its next round (or the
  end) is due. Pairing and opening a round of a hundred matches takes seconds, so it runs in a
  task, never in the match-end hook on the path of the last move (tables.tournaments.watchers).
- ``round_opened`` (``round_id``): a round's matches are on; their players are alerted
  (tables.tournaments.alerts).

The periodic sweep (services.sweep_tournaments) is the guarantee behind the round 1 handed over,
``round_ended`` and ``round_opened``.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.dispatch import Signal

from tables.tournaments.models import Tournament

log = logging.getLogger(__name__)

tournament_changed = Signal()
round_ended = Signal()
round_opened = Signal()

_ANNOUNCING = "_change_announced"  # set on the locked row: one announcement per transaction


@dataclass(frozen=True)
class TournamentChange:
    tournament_id: int
    version: int
    first_round_due: bool = False  # started, round 1 not opened yet: a task opens it


def announce_change_on_commit(tournament: Tournament) -> None:
    """Once per transaction however many times the version moved: the newest is told."""
    if getattr(tournament, _ANNOUNCING, False):
        return
    setattr(tournament, _ANNOUNCING, True)

    def send() -> None:
        setattr(tournament, _ANNOUNCING, False)
        due = tournament.status == Tournament.Status.RUNNING and tournament.round_number == 0
        _send(tournament_changed, change=TournamentChange(tournament.pk, tournament.version, due))

    transaction.on_commit(send)


def announce_round_ended_on_commit(tournament_id: int) -> None:
    transaction.on_commit(lambda: _send(round_ended, tournament_id=tournament_id))


def announce_round_opened_on_commit(round_id: int) -> None:
    transaction.on_commit(lambda: _send(round_opened, round_id=round_id))


def _send(signal: Signal, **arguments: Any) -> None:
    """Tell every receiver; one receiver's failure never keeps the news from the others."""
    for receiver, result in signal.send_robust(sender=None, **arguments):
        if isinstance(result, Exception):
            log.error("%s failed on %s", receiver, arguments, exc_info=result)
