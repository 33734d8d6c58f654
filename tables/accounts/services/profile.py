"""A player's own settings, and a guest becoming an account when its browser signs up or logs in."""

from __future__ import annotations

import zoneinfo
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Q

from tables.accounts import identity
from tables.accounts.models import Player
from tables.alerts import prefs
from tables.core.announcements import ChangeKind
from tables.core.errors import BadRequest
from tables.play.models import ChatMessage, ChatMute, Move, Table
from tables.play.services.common import announce, bump, lock_table

_CHOICES = {"deck_design": Player.DeckDesign.values, "language": Player.Language.values}
_SEAT_FIELDS = ("seat0", "seat1", "owner")


def update_profile(player: Player, **changes: Any) -> Player:
    """Change the profile fields given; each is checked before anything is saved."""
    for name, allowed in _CHOICES.items():
        if name in changes and changes[name] not in allowed:
            raise BadRequest(f"{name} must be one of {', '.join(allowed)}.", field=name)
    if "display_name" in changes:
        changes["display_name"] = identity.clean_display_name(changes["display_name"], "display_name")
    if "time_zone" in changes and changes["time_zone"] not in zoneinfo.available_timezones():
        raise BadRequest("time_zone must be an IANA zone such as Europe/Madrid.", field="time_zone")
    if "alert_prefs" in changes:
        changes["alert_prefs"] = prefs.clean(changes["alert_prefs"])  # checked and completed
    for name, value in changes.items():
        setattr(player, name, value)
    if changes:
        player.save(update_fields=list(changes))
    return player


def adopt_guest(guest: Player, user: User) -> Player:
    """The guest becomes the account's player, keeping every seat, move and chat message: the
    guest row itself when the account has none yet, else its tables move to the account's."""
    with transaction.atomic():
        account = Player.objects.filter(user=user).first()
        if account is None:
            guest.user = user
            guest.guest_key = None
            guest.save(update_fields=["user", "guest_key"])
            return guest
        _merge_guest_into(guest, account)
        return account


def _merge_guest_into(guest: Player, account: Player) -> None:
    """Move the guest's seats and history to the account, except at tables where both sit."""
    tables = Table.objects.filter(Q(seat0=guest) | Q(seat1=guest) | Q(owner=guest))
    locked = [lock_table(pk) for pk in sorted(tables.values_list("pk", flat=True))]  # one order: no deadlock
    if any({guest.pk, account.pk} <= {table.seat0_id, table.seat1_id} for table in locked):
        return  # playing oneself: keep the two identities apart rather than merge a table into nonsense
    for table in locked:
        for name in _SEAT_FIELDS:
            if getattr(table, f"{name}_id") == guest.pk:
                setattr(table, name, account)
        bump(table, *_SEAT_FIELDS)
        announce(table, None, ChangeKind.SEAT)
    Move.objects.filter(actor=guest).update(actor=account)
    ChatMessage.objects.filter(author=guest).update(author=account)
    ChatMute.objects.filter(player=guest).update(player=account)
    ChatMute.objects.filter(muted=guest).update(muted=account)
    guest.guest_key = None
    guest.save(update_fields=["guest_key"])
