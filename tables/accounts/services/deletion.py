"""Deleting an account (docs/accounts.md, "Deleting the account").

Its running matches end first by resignation through play's writers (ratings move, opponents
are told), tables it opened and never played are removed, then in one transaction its personal
data is erased: the login (allauth's user with its email addresses, second factors, sessions and
API tokens), chat it wrote, mutes, push subscriptions, alert records, presence, vacations,
challenges, ratings and its own records (tables.records), data exports, the reviews it asked for
(its name and address), its practice, its inbox and the other accounts' inbox lines that name it.
The player row stays, emptied and marked deleted, because its finished matches keep their seat
for the opponents' archives, replays, rating histories and records: everywhere a name is shown
it reads "deleted player" (``Player.name``), and it has no page.
"""

from __future__ import annotations

from allauth.usersessions.models import UserSession
from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Q, QuerySet
from django.utils import timezone

from tables.accounts.announcements import announce_account_leaving
from tables.accounts.models import Player
from tables.accounts.services.sessions import end_sessions
from tables.alerts.models import (
    Activity,
    InboxItem,
    PushSubscription,
    SentAlert,
    SentChallengeAlert,
    TablePresence,
)
from tables.challenges.models import Challenge
from tables.core.errors import Conflict
from tables.fairplay.models import FairPlaySignal, ScreenedDecision
from tables.play import services as play
from tables.play.models import ChatMessage, ChatMute, Match, Table
from tables.practice.models import PracticePosition
from tables.ratings.models import Rating
from tables.records.models import PlayerMatch, PlayerRecord
from tables.reviews.models import DealReview
from tables.social.models import Block, Follow, MatchNote, Report, SocialSettings

# What the emptied player row holds: each personal field back to its default.
EMPTIED: dict[str, object] = {
    "display_name": "",
    "guest_key": None,
    "deck_design": Player.DeckDesign.CLASSIC,
    "language": Player.Language.SPANISH,
    "time_zone": "UTC",
    "alert_prefs": {},
    "vacation_started_at": None,
    "vacation_until": None,
    "auto_vacation": False,
}


def delete_account(user: User) -> Player | None:
    """Delete ``user``'s account as described above; its player (emptied), if it had one."""
    if user.is_staff or user.is_superuser:
        raise Conflict("A staff account is closed by another member of staff, not deleted from here.")
    player = Player.objects.filter(user=user).first()
    if player is not None:
        _leave_tables(player)
        announce_account_leaving(player.pk)  # its events (tables.tournaments), while it exists
    sessions = list(UserSession.objects.filter(user=user))
    with transaction.atomic():
        if player is not None:
            _erase(player)
        user.delete()  # its emails, second factors, session rows and API tokens go with it
        # Only a deletion that happened logs its browsers out and closes their sockets.
        transaction.on_commit(lambda: end_sessions(sessions))
    return player


def _leave_tables(player: Player) -> None:
    seated = Table.objects.filter(Q(seat0=player) | Q(seat1=player) | Q(owner=player))
    running = Match.objects.filter(
        Q(table__seat0=player) | Q(table__seat1=player), status=Match.Status.PLAYING
    )
    for table_id in running.values_list("table_id", flat=True):
        play.resign(table_id, player)
    for table_id in seated.values_list("pk", flat=True):
        if play.leave_for_good(table_id, player):
            play.withdraw_rematch(table_id)


def _erase(player: Player) -> None:
    _forget_lines_about(player)
    ChatMessage.objects.filter(author=player).delete()
    ChatMute.objects.filter(Q(player=player) | Q(muted=player)).delete()
    Challenge.objects.filter(Q(challenger=player) | Q(challenged=player)).delete()
    PushSubscription.objects.filter(player=player).delete()
    SentAlert.objects.filter(player=player).delete()
    SentChallengeAlert.objects.filter(player=player).delete()
    TablePresence.objects.filter(player=player).delete()
    Activity.objects.filter(player=player).delete()
    Rating.objects.filter(player=player).delete()
    PlayerRecord.objects.filter(player=player).delete()  # its page's totals and list; the pairs'
    PlayerMatch.objects.filter(player=player).delete()  # records stay for the opponents' pages
    Follow.objects.filter(Q(follower=player) | Q(followed=player)).delete()
    Block.objects.filter(Q(blocker=player) | Q(blocked=player)).delete()
    SocialSettings.objects.filter(player=player).delete()
    MatchNote.objects.filter(author=player).delete()
    InboxItem.objects.filter(player=player).delete()
    Report.objects.filter(reporter=player).delete()  # reports about it stay, for staff's record
    DealReview.objects.filter(requested_by=player).update(requested_by=None, requested_from="")
    PracticePosition.objects.filter(player=player).delete()  # its practice goes with it
    ScreenedDecision.objects.filter(player=player).delete()  # fair play's figures about it
    FairPlaySignal.objects.filter(player=player).delete()
    player.data_exports.all().delete()
    player.vacations.all().delete()
    for field, value in EMPTIED.items():
        setattr(player, field, value)
    player.deleted_at = timezone.now()
    player.save(update_fields=[*EMPTIED, "deleted_at"])


def _forget_lines_about(player: Player) -> None:
    """Other accounts' inbox lines that name the player (its matches' results and rematch offers,
    its challenges and their answers, its reports handled) go with its name."""
    matches = Match.objects.filter(Q(table__seat0=player) | Q(table__seat1=player))
    match_ids = [str(pk) for pk in matches.values_list("pk", flat=True)]
    challenges = Challenge.objects.filter(Q(challenger=player) | Q(challenged=player))
    reports = Report.objects.filter(reported=player).values_list("pk", flat=True)
    about = (
        Q(kind="match_over", occasion__in=[f"match:{pk}" for pk in match_ids])
        | Q(kind="rematch_offer", occasion__regex=rf"^rematch:({'|'.join(match_ids) or '0'}):")
        | Q(kind__in=CHALLENGE_KINDS, occasion__regex=_challenge_occasions(challenges))
        | Q(kind="report_handled", occasion__in=[f"report:{pk}" for pk in reports])
    )
    InboxItem.objects.filter(about).exclude(player=player).delete()


CHALLENGE_KINDS = ("challenge", "challenge_accepted", "challenge_declined", "seek_taken")


def _challenge_occasions(challenges: QuerySet[Challenge]) -> str:
    ids = [str(pk) for pk in challenges.values_list("pk", flat=True)]
    return rf"^({'|'.join(ids) or '0'}):"
