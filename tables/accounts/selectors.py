"""Reads of accounts: vacation days, the tables a player is playing, the account's security."""

from __future__ import annotations

import datetime as dt

from allauth.mfa.models import Authenticator
from django.contrib.auth.models import User
from django.db.models import Q
from django.utils import timezone

from tables.accounts import vacation_days
from tables.accounts.models import Player, Vacation
from tables.play.models import Match, Table


def playing_table_ids(player: Player) -> list[int]:
    """Every table where ``player`` sits with a match under way, in the order writers lock them."""
    rows = Table.objects.filter(
        Q(seat0=player) | Q(seat1=player), current_deal__match__status=Match.Status.PLAYING
    )
    return list(rows.order_by("pk").values_list("pk", flat=True))


def vacation_days_of(player: Player, exclude: Vacation | None = None) -> list[tuple[dt.date, dt.date]]:
    """(first day, last day) of the player's vacations of last year and later (one across New
    Year counts in this one), but ``exclude``."""
    rows = Vacation.objects.filter(player=player, last_day__year__gte=timezone.now().year - 1)
    if exclude is not None:
        rows = rows.exclude(pk=exclude.pk)
    return list(rows.values_list("first_day", "last_day"))


def vacation_day_instead(player: Player, table: Table, deadline: dt.datetime) -> bool:
    """Would the turn of ``player`` at ``table`` running out at ``deadline`` start a day of
    automatic vacation rather than time out? (services.vacation.start_automatic_vacation decides
    it at the deadline; this says it ahead, for the reminder.)"""
    if not player.auto_vacation or player.is_guest or player.is_bot or not table.stops_for_vacation:
        return False
    day = vacation_days.local_day(deadline, player.time_zone)
    return vacation_days.shortfall(vacation_days_of(player), day, day) is None


def ended_vacations(now: dt.datetime | None = None) -> list[tuple[int, dt.datetime]]:
    """(player id, end) of every vacation whose end has come: for the sweep."""
    rows = Player.objects.filter(vacation_until__lte=now or timezone.now())
    return [(pk, until) for pk, until in rows.values_list("pk", "vacation_until") if until is not None]


def security_of(user: User) -> dict[str, int | bool]:
    """The profile's security panel: whether a second factor is on (an authenticator app or a
    passkey), how many passkeys, and where the account is logged in (live sessions)."""
    kinds = list(Authenticator.objects.filter(user=user).values_list("type", flat=True))
    return {
        "two_factor": Authenticator.Type.TOTP in kinds or Authenticator.Type.WEBAUTHN in kinds,
        "passkeys": kinds.count(Authenticator.Type.WEBAUTHN),
        "recovery_codes": Authenticator.Type.RECOVERY_CODES in kinds,
    }


def has_played(player: Player) -> bool:
    """Whether ``player`` has sat in any match, finished or not (a bot account may be declared
    only before its first)."""
    return Match.objects.filter(Q(table__seat0=player) | Q(table__seat1=player)).exists()


def seated_table_ids(player: Player) -> list[int]:
    """Every table where ``player`` holds a seat, in the order writers lock them."""
    rows = Table.objects.filter(Q(seat0=player) | Q(seat1=player))
    return list(rows.order_by("pk").values_list("pk", flat=True))
