"""What the game-table writers share: the locked row, the actor's checks, the version."""

from __future__ import annotations

from django.db.models import Q
from django.utils.translation import gettext

from tables.accounts.models import Player
from tables.core.errors import Conflict, Forbidden, NotFound
from tables.variants.models import GameTable

GameRef = int | str  # the primary key, or the invite token


def lock_game(ref: GameRef) -> GameTable:
    """The game table's row, locked for the rest of the transaction: everything that changes a
    game (a seat, the start, a board's result, a resignation) takes this lock first."""
    rows = GameTable.objects.select_for_update()
    found = rows.filter(Q(pk=ref) if isinstance(ref, int) else Q(invite_token=ref)).first()
    if found is None:
        raise NotFound(gettext("No such table."))
    return found


def bump(game: GameTable, *fields: str) -> None:
    """A new version of the locked game table (its page follows the version)."""
    game.version += 1
    game.save(update_fields=["version", *fields])


def seat_number_of(game: GameTable, player: Player) -> int | None:
    found = game.seats.filter(player=player).values_list("number", flat=True).first()
    return found


def require_owner(game: GameTable, actor: Player, message: str) -> None:
    if actor.pk != game.owner_id:
        raise Forbidden(message)


def require_waiting(game: GameTable) -> None:
    if game.status != GameTable.Status.WAITING:
        raise Conflict(gettext("The game has already started."))
