"""The social room's writers: follow and unfollow, block and unblock, hide one's presence,
report a player (or a chat message, or a match) to staff; staff's actions on reports and
accounts are in ``moderation``.

Each refuses with a clear error (tables.core.errors): following or blocking oneself, twice, a
player who is not an account, past the limits. A block ends what the two had going between
them that is not a match: follows both ways and open challenges; a running match is finished.
"""

from __future__ import annotations

import datetime as dt

from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext

from tables.accounts.models import Player
from tables.alerts.models import TablePresence
from tables.archive import selectors as archive
from tables.challenges.models import Challenge
from tables.core.errors import BadRequest, Conflict, Forbidden, NotFound, RateLimited, TooLarge
from tables.play import selectors as play_selectors
from tables.play.models import ChatMessage, Match, Table
from tables.social import selectors
from tables.social.models import Block, Follow, MatchNote, Report, SocialSettings

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


MAX_OPEN_REPORTS_PER_DAY = 10  # reports one account may file in a day (a report is a staff's time)


def report(
    reporter: Player,
    reported: Player,
    reason: str,
    text: str = "",
    chat_message_id: int | None = None,
    match_id: int | None = None,
) -> Report:
    """``reporter`` reports ``reported`` to staff, with a reason from the list and free text: the
    account, one chat message of theirs at a table (one the reporter could read: else 404), or
    one match they played (one the reporter may see: else 404)."""
    _require_account(reporter, gettext("Sign up to report players."))
    _require_other(reporter, reported, gettext("You cannot report yourself."))
    if reason not in Report.Reason.values:
        raise BadRequest(gettext("Choose a reason from the list."), field="reason")
    if chat_message_id is not None and match_id is not None:
        raise BadRequest(gettext("Report a message or a match, not both."), field="match_id")
    text = (text or "").strip()
    if len(text) > Report.MAX_TEXT:
        raise TooLarge(
            gettext("A report has at most %(count)d characters.") % {"count": Report.MAX_TEXT}, field="text"
        )
    message = None if chat_message_id is None else readable_message(reporter, reported, chat_message_id)
    match = None if match_id is None else reportable_match(reporter, reported, match_id)
    now = timezone.now()
    with transaction.atomic():
        Player.objects.select_for_update().filter(pk=reporter.pk).first()
        mine = Report.objects.filter(reporter=reporter)
        if mine.filter(
            reported=reported, status=Report.Status.OPEN, chat_message=message, match=match
        ).exists():
            raise Conflict(gettext("You have already reported this: staff will look at it."))
        if mine.filter(created_at__gt=now - dt.timedelta(days=1)).count() >= MAX_OPEN_REPORTS_PER_DAY:
            raise RateLimited(
                gettext("You have sent %(count)d reports today: try again tomorrow.")
                % {"count": MAX_OPEN_REPORTS_PER_DAY},
                extra={"retry_after": 86400},
            )
        table_id = message.table_id if message is not None else match.table_id if match is not None else None
        return Report.objects.create(
            reporter=reporter,
            reported=reported,
            reason=reason,
            text=text,
            chat_message=message,
            match=match,
            table_id=table_id,
        )


def reportable_match(reporter: Player, reported: Player, match_id: int) -> Match:
    """A match the reported account played (seated at its table), that the reporter may see (as
    the archive shows it: played there, or a public table's); else 404, revealing nothing."""
    match = (
        Match.objects.select_related("table__seat0", "table__seat1")
        .filter(archive.tables_shown_to(reporter, False, "table__"))
        .filter(Q(table__seat0=reported) | Q(table__seat1=reported), pk=match_id)
        .first()
    )
    if match is None:
        raise NotFound(gettext("There is no such match."))
    return match


def readable_message(reporter: Player, author: Player, message_id: int) -> ChatMessage:
    """The author's chat message, if the reporter was at its table and could read it (a seated
    player reads the players' channel; a spectator, who has had the page open, both). A chat
    several tables share (a game's boards) is read at any of them, by its players as players."""
    message = ChatMessage.objects.select_related("table").filter(pk=message_id, author=author).first()
    if message is not None:
        shared = play_selectors.shared_chat(message.table)
        if play_selectors.chats_as_player(message.table, reporter, shared):
            readable = message.channel == ChatMessage.Channel.PLAYERS
        else:
            tables = (message.table_id,) if shared is None else shared.table_ids
            readable = TablePresence.objects.filter(player=reporter, table_id__in=tables).exists()
        if readable:
            return message
    raise NotFound(gettext("There is no such message."))


NOTE_MAX_CHARS = 4000


def save_note(author: Player, table: Table, text: str) -> MatchNote:
    """Keep ``text`` as the author's notes on the table's current match (replacing what was
    there): only a player seated at the table, once a match has begun."""
    if author.is_bot or table.seat_of(author) is None:
        raise Forbidden(gettext("Only the players of this table keep notes here."))
    deal = table.current_deal
    if deal is None:
        raise Conflict(gettext("Notes are kept with a match: start one first."))
    if len(text) > NOTE_MAX_CHARS:
        raise TooLarge(
            gettext("Notes are %(limit)s characters at most.") % {"limit": NOTE_MAX_CHARS}, field="text"
        )
    note, _ = MatchNote.objects.update_or_create(
        author=author, match_id=deal.match_id, defaults={"text": text}
    )
    return note
