"""The social room's writers: follow and unfollow, block and unblock, hide one's presence.

Each refuses with a clear error (tables.core.errors): following or blocking oneself, twice, a
player who is not an account, past the limits. A block ends what the two had going between
them that is not a match: follows both ways and open challenges; a running match is finished.
"""

from __future__ import annotations

from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext

from tables.accounts.models import Player
from tables.challenges.models import Challenge
from tables.core.errors import BadRequest, Conflict, Forbidden, NotFound
from tables.social import selectors
from tables.social.models import Block, Follow, SocialSettings

MAX_FOLLOWED = 500  # accounts one account may follow (Lichess's limit is of the same order)
MAX_BLOCKED = 1000  # accounts one account may block


def follow(follower: Player, followed: Player) -> Follow:
    _require_account(follower, gettext("Sign up to follow players."))
    _require_other(follower, followed, gettext("You cannot follow yourself."))
    with transaction.atomic():
        # The follower's row serializes their follows, so two at once cannot pass the limit.
        Player.objects.select_for_update().filter(pk=follower.pk).first()
        if selectors.blocks(follower, followed):
            raise Conflict(gettext("You block %(name)s: unblock them first.") % _named(followed))
        if selectors.blocks(followed, follower):
            raise Forbidden(gettext("You cannot follow %(name)s.") % _named(followed))
        if selectors.follows(follower, followed):
            raise Conflict(gettext("You already follow %(name)s.") % _named(followed))
        if Follow.objects.filter(follower=follower).count() >= MAX_FOLLOWED:
            raise Conflict(
                gettext("You already follow %(count)d players: unfollow one first.") % {"count": MAX_FOLLOWED}
            )
        return Follow.objects.create(follower=follower, followed=followed)


def unfollow(follower: Player, followed: Player) -> None:
    deleted, _ = Follow.objects.filter(follower=follower, followed=followed).delete()
    if not deleted:
        raise NotFound(gettext("You do not follow %(name)s.") % _named(followed))


def block(blocker: Player, blocked: Player) -> Block:
    """``blocker`` blocks ``blocked``: follows between them end, and their open challenges to
    each other close (declined or withdrawn, as the blocker's answer)."""
    _require_account(blocker, gettext("Sign up to block players."))
    _require_other(blocker, blocked, gettext("You cannot block yourself."))
    now = timezone.now()
    with transaction.atomic():
        Player.objects.select_for_update().filter(pk=blocker.pk).first()
        if selectors.blocks(blocker, blocked):
            raise Conflict(gettext("You already block %(name)s.") % _named(blocked))
        if Block.objects.filter(blocker=blocker).count() >= MAX_BLOCKED:
            raise Conflict(
                gettext("You already block %(count)d players: unblock one first.") % {"count": MAX_BLOCKED}
            )
        row = Block.objects.create(blocker=blocker, blocked=blocked)
        Follow.objects.filter(
            Q(follower=blocker, followed=blocked) | Q(follower=blocked, followed=blocker)
        ).delete()
        open_offers = Challenge.objects.filter(status=Challenge.Status.OPEN)
        open_offers.filter(challenger=blocked, challenged=blocker).update(
            status=Challenge.Status.DECLINED, answered_at=now
        )
        open_offers.filter(challenger=blocker, challenged=blocked).update(
            status=Challenge.Status.WITHDRAWN, answered_at=now
        )
    return row


def unblock(blocker: Player, blocked: Player) -> None:
    deleted, _ = Block.objects.filter(blocker=blocker, blocked=blocked).delete()
    if not deleted:
        raise NotFound(gettext("You do not block %(name)s.") % _named(blocked))


def hide_presence(player: Player, hidden: bool) -> None:
    """Hide (or show again) the account's "online now" and "last seen" everywhere."""
    _require_account(player, gettext("Sign up to choose what others see of you."))
    SocialSettings.objects.update_or_create(player=player, defaults={"hide_presence": hidden})


def _require_account(player: Player, message: str) -> None:
    if player.user_id is None or player.is_bot:
        raise Forbidden(message)


def _require_other(player: Player, other: Player, message: str) -> None:
    if other.user_id is None or other.is_bot:
        raise NotFound(gettext("There is no such player."))
    if other.pk == player.pk:
        raise BadRequest(message, field="player")


def _named(player: Player) -> dict[str, str]:
    return {"name": player.display_name}
