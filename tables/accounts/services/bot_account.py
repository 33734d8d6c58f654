"""Declaring a bot account, as Lichess's BOT accounts: an account that plays through the API
says so before its first game, for good. It is marked "BOT" wherever its name is shown and is
refused every rated seat (tables.ratings.services.require_rated_seat). Not the site's own robots
(``Player.is_bot``: TITO, CARMEN and LUNA, played by the server)."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from tables.accounts import selectors as account_selectors
from tables.accounts.models import Player
from tables.core.announcements import ChangeKind
from tables.core.errors import Conflict, Forbidden
from tables.play.services.common import announce, bump, lock_table


def declare_bot_account(player: Player) -> Player:
    """Make ``player``'s account a bot account; irreversible. Refused for a guest or a robot (403),
    for an account already declared or that has played a game (409). The tables where it sits
    (before any match) hear the change, so their seats show the mark."""
    if player.user_id is None or player.is_bot or player.is_deleted:
        raise Forbidden(gettext("Only an account can become a bot account: sign up first."))
    with transaction.atomic():
        locked: Player = Player.objects.select_for_update().get(pk=player.pk)
        if locked.bot_account_at is not None:
            raise Conflict(gettext("This account is already a bot account."))
        # Its tables locked, in one order: a match starting at one of them now is either seen
        # below, or reads the mark once this commits (tables.play.services.matches.begin_match).
        tables = [lock_table(pk) for pk in account_selectors.seated_table_ids(locked)]
        if account_selectors.has_played(locked):
            raise Conflict(gettext("Only an account that has played no game may become a bot account."))
        locked.bot_account_at = timezone.now()
        locked.save(update_fields=["bot_account_at"])
        for table in tables:
            bump(table)
            announce(table, None, ChangeKind.SEAT)
    player.bot_account_at = locked.bot_account_at
    return player
