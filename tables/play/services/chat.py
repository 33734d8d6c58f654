"""Chat at a table: players write in the players' channel, spectators in their own (if allowed).

A message takes the table lock like every writer but leaves the table's version as it is: it
changes nothing of the game, and a version bumped by chat would make the opponent's move stale.
"""

from __future__ import annotations

import logging

from django.core.cache import cache
from django.db import transaction
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext
from redis.exceptions import RedisError

from tables.accounts.models import Player
from tables.core.announcements import ChangeKind, TableChange, announce_on_commit
from tables.core.errors import BadRequest, Forbidden, RateLimited, TooLarge
from tables.core.text_input import clean_text
from tables.play import selectors
from tables.play.models import ChatMessage, ChatMute
from tables.play.selectors import TableRef
from tables.play.services.common import lock_table
from tables.social.selectors import chat_muted_until

log = logging.getLogger(__name__)

CHAT_RATE_COUNT = 5
CHAT_RATE_SECONDS = 10


def post_chat(table_ref: TableRef, author: Player, text: object) -> ChatMessage:
    """Players write in the players' channel, everyone else in the spectators' (if allowed). At a
    table that shares its chat (selectors.shared_chat: a game's boards), the conversation's
    players write as players wherever they are, and every table of it is told."""
    cleaned = _checked_text(author, text)
    with transaction.atomic():
        table = lock_table(table_ref)
        shared = selectors.shared_chat(table)
        channel = ChatMessage.Channel.PLAYERS
        if not selectors.chats_as_player(table, author, shared):
            if not table.spectator_chat:
                raise Forbidden("Spectator chat is turned off at this table.")
            channel = ChatMessage.Channel.SPECTATORS
        _count_chat(author)
        message: ChatMessage = ChatMessage.objects.create(
            table=table, author=author, channel=channel, text=cleaned
        )
        others = () if shared is None else tuple(pk for pk in shared.table_ids if pk != table.pk)
        # No deal: a message never hands a bot its turn, and the version stays as it was.
        change = TableChange(table.pk, table.version, ChangeKind.CHAT, also_tell=others)
        announce_on_commit(lambda: change)
        return message


def _checked_text(author: Player, text: object) -> str:
    """The checks of a message before any table is locked: its text (cleaned) and the staff's
    chat mute of its author."""
    cleaned = _clean_chat_text(text)
    muted = None if author.user_id is None else chat_muted_until(author, timezone.now())
    if muted is not None:  # staff muted this account's chat at every table (tables.social)
        day = date_format(timezone.localtime(muted), "DATETIME_FORMAT")
        raise Forbidden(gettext("Your chat is muted until %(day)s.") % {"day": day})
    return cleaned


def _clean_chat_text(text: object) -> str:
    """Plain text that keeps its tabs and newlines; no other control character, no invalid Unicode."""
    if not isinstance(text, str) or not text.strip():
        raise BadRequest("A chat message needs some text.", field="text")
    text = clean_text(text, "text").strip()
    if len(text) > ChatMessage.MAX_LENGTH:
        raise TooLarge(f"A chat message has at most {ChatMessage.MAX_LENGTH} characters.", field="text")
    return text


def _count_chat(author: Player) -> None:
    """At most CHAT_RATE_COUNT messages per CHAT_RATE_SECONDS per player (cache: locmem or Redis)."""
    key = f"chat-rate:{author.pk}"
    try:
        cache.add(key, 0, timeout=CHAT_RATE_SECONDS)
        try:
            count = cache.incr(key)
        except ValueError:  # expired between add and incr
            cache.set(key, 1, timeout=CHAT_RATE_SECONDS)
            count = 1
    except RedisError:  # the cache is down: chat stays usable, unlimited until it is back
        log.warning("chat rate limit skipped: the cache is unavailable")
        return
    if count > CHAT_RATE_COUNT:
        raise RateLimited(
            f"Slow down: at most {CHAT_RATE_COUNT} messages in {CHAT_RATE_SECONDS} seconds.",
            extra={"retry_after": CHAT_RATE_SECONDS},
        )


def set_mute(table_ref: TableRef, viewer: Player, seat: int, muted: bool) -> None:
    """Hide (or show again) the chat of the player in ``seat``, on the viewer's screen only."""
    with transaction.atomic():
        table = lock_table(table_ref)
        target = table.seats[seat] if seat in (0, 1) else None
        if target is None:
            raise BadRequest("seat must be a taken seat, 0 or 1.", field="seat")
        if target.pk == viewer.pk:
            raise BadRequest("You cannot mute yourself.", field="seat")
        if muted:
            ChatMute.objects.get_or_create(table=table, player=viewer, muted=target)
        else:
            ChatMute.objects.filter(table=table, player=viewer, muted=target).delete()
