"""What the tournament writers share: the locked row, the actor's checks, the version."""

from __future__ import annotations

from django.db.models import Q
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext

from tables.accounts.models import Player
from tables.alerts import services as inbox_lines
from tables.core.errors import Conflict, Forbidden, NotFound
from tables.tournaments.announcements import announce_change_on_commit
from tables.tournaments.models import Tournament

TournamentRef = int | str  # the primary key, or the invite token


def lock_tournament(ref: TournamentRef) -> Tournament:
    """The tournament's row, locked for the rest of the transaction."""
    rows = Tournament.objects.select_for_update()
    found = rows.filter(Q(pk=ref) if isinstance(ref, int) else Q(invite_token=ref)).first()
    if found is None:
        raise NotFound(gettext("No such tournament."))
    return found


def bump(tournament: Tournament, *fields: str) -> None:
    """A new version of the locked event: its page hears of it after commit."""
    tournament.version += 1
    tournament.save(update_fields=["version", *fields])
    announce_change_on_commit(tournament)


def require_registering(tournament: Tournament) -> None:
    if tournament.status != Tournament.Status.REGISTERING:
        raise Conflict(gettext("Registration for this tournament is closed."))


def require_organiser(tournament: Tournament, actor: Player) -> None:
    staff = actor.user is not None and actor.user.is_staff
    if actor.pk != tournament.creator_id and not staff:
        raise Forbidden(gettext("Only the tournament's creator or staff can do this."))


def cancel_locked(tournament: Tournament) -> None:
    """Call the event off (it had not started); every entrant is told."""
    tournament.status = Tournament.Status.CANCELLED
    tournament.ended_at = timezone.now()
    bump(tournament, "status", "ended_at")
    for entry in tournament.entries.select_related("player"):
        inbox_lines.tell(
            entry.player,
            "tournament_cancelled",
            f"tournament:{tournament.pk}",
            tournament_path(tournament),
            name=tournament.name,
        )


def tournament_path(tournament: Tournament) -> str:
    return reverse("tournament", args=[tournament.invite_token])
