"""Staff's moderation: closing a report (dismissed, or handled with what was done), warning an
account, muting its chat at every table, suspending it and lifting the suspension. Every action
is one ModerationAction row (who, what, why, when, until); the inbox lines that follow (the
warned player's, the reporter's "your report was handled") are written in the same transaction
(tables.social.services.outcomes).

A suspension makes the account's user inactive in the same transaction as its log line: from
that commit its login sessions and API tokens identify nobody (Django's authentication backends
and tables.accounts.identity refuse an inactive user) and logging in is refused. Its open
challenges and seeks close in that transaction. Then its sessions are ended, which closes their
sockets (tables.accounts.services.sessions), its rematch offers are withdrawn, each running match
ends by its resignation through play's writer, and it leaves the tables where no match has begun
(its own are removed, as a deleted account's). A resignation runs under the table's lock: a last
move racing the suspension either ends the match first (the resignation then finds it over) or
finds it over, and the ratings move once, in play's ``end_match``, either way.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from allauth.usersessions.models import UserSession
from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from tables.accounts.models import Player
from tables.accounts.services.sessions import end_sessions
from tables.challenges.models import Challenge
from tables.core.errors import BadRequest, Conflict
from tables.play import services as play
from tables.play.models import Match, Table
from tables.social.models import ModerationAction, Report, SocialSettings
from tables.social.services.outcomes import tell_outcomes

MAX_MUTE_DAYS = 365
Kind = ModerationAction.Kind


def handle_report(
    report: Report,
    staff: Any,
    status: str,
    note: str,
    *,
    mute_days: int = 0,
    warn: bool = False,
    suspend: bool = False,
) -> Report:
    """Staff close an open report, dismissed or handled, saying what was done and why (kept with
    the report and as its action); handled, it may also warn the reported account, mute its chat
    ``mute_days`` days and suspend it, each action logged on its own."""
    if status not in (Report.Status.DISMISSED, Report.Status.HANDLED):
        raise BadRequest("A report is closed as dismissed or handled.", field="status")
    note = _reason(note)
    if (warn or mute_days or suspend) and status != Report.Status.HANDLED:
        raise BadRequest("A warning, a mute or a suspension closes the report as handled.", field="status")
    _check_days(mute_days)
    reported = Player.objects.select_related("user").get(pk=report.reported_id)
    if suspend:
        _check_suspendable(reported)
    with transaction.atomic():
        row = Report.objects.select_for_update().get(pk=report.pk)
        if row.status != Report.Status.OPEN:
            raise Conflict("This report is closed already.")
        closing = Kind.HANDLE if status == Report.Status.HANDLED else Kind.DISMISS
        actions = [_log(reported, staff, closing, note, row)]
        if warn:
            actions.append(_log(reported, staff, Kind.WARN, note, row))
        if mute_days:
            actions.append(_mute(reported, staff, note, mute_days, row))
            row.muted_until = actions[-1].until
        if suspend:
            actions.append(_suspend(reported, staff, note, row))
        row.status, row.staff_note, row.handled_by, row.handled_at = status, note, staff, timezone.now()
        row.save(update_fields=["status", "staff_note", "handled_by", "handled_at", "muted_until"])
        tell_outcomes(actions)
    if suspend:
        _end_what_it_has_going(reported)
    return row


def check(player: Player, kind: str, days: int = 0) -> None:
    """Refuse, before anything is written, an action ``act`` would refuse: the admin's form
    says why instead of failing."""
    if kind not in (Kind.WARN, Kind.MUTE, Kind.SUSPEND, Kind.UNSUSPEND):
        raise BadRequest("A report is dismissed or handled from the queue of reports.", field="kind")
    if kind == Kind.SUSPEND:
        _check_suspendable(player)
    else:
        _check_account(player)
    if kind == Kind.MUTE and not days:
        raise BadRequest(f"A mute is 1 to {MAX_MUTE_DAYS} days.", field="days")
    _check_days(days if kind == Kind.MUTE else 0)
    active = User.objects.filter(pk=_user_id(player), is_active=True).exists()
    if kind == Kind.SUSPEND and not active:
        raise Conflict("The account is suspended already.")
    if kind == Kind.UNSUSPEND and active:
        raise Conflict("The account is not suspended.")


def act(player: Player, staff: Any, kind: str, reason: str, days: int = 0) -> ModerationAction:
    """One action on an account, outside a report (the admin's moderation log)."""
    check(player, kind, days)
    if kind == Kind.WARN:
        return warn(player, staff, reason)
    if kind == Kind.MUTE:
        return mute_chat(player, staff, reason, days)
    return (suspend if kind == Kind.SUSPEND else unsuspend)(player, staff, reason)


def warn(player: Player, staff: Any, reason: str) -> ModerationAction:
    """Warn the account: a line in its inbox saying why (the reason as staff typed it)."""
    _check_account(player)
    with transaction.atomic():
        action = _log(player, staff, Kind.WARN, _reason(reason))
        tell_outcomes([action])
    return action


def mute_chat(player: Player, staff: Any, reason: str, days: int) -> ModerationAction:
    """Mute the account's chat at every table for ``days`` days (1 to MAX_MUTE_DAYS)."""
    _check_account(player)
    if not days:
        raise BadRequest(f"A mute is 1 to {MAX_MUTE_DAYS} days.", field="days")
    _check_days(days)
    with transaction.atomic():
        return _mute(player, staff, _reason(reason), days)


def suspend(player: Player, staff: Any, reason: str) -> ModerationAction:
    """Suspend the account until staff lift it (the module's docstring says what follows)."""
    reason = _reason(reason)
    _check_suspendable(player)
    with transaction.atomic():
        action = _suspend(player, staff, reason)
    _end_what_it_has_going(player)
    return action


def unsuspend(player: Player, staff: Any, reason: str) -> ModerationAction:
    """Lift the suspension: the account logs in again (its API tokens work again; its ended
    sessions and finished matches stay as they are)."""
    reason = _reason(reason)
    _check_account(player)
    with transaction.atomic():
        user = User.objects.select_for_update().get(pk=_user_id(player))
        if user.is_active:
            raise Conflict("The account is not suspended.")
        user.is_active = True
        user.save(update_fields=["is_active"])
        return _log(player, staff, Kind.UNSUSPEND, reason)


def _suspend(player: Player, staff: Any, reason: str, report: Report | None = None) -> ModerationAction:
    user = User.objects.select_for_update().get(pk=_user_id(player))
    if not user.is_active:
        raise Conflict("The account is suspended already.")
    user.is_active = False
    user.save(update_fields=["is_active"])
    now = timezone.now()
    offers = Challenge.objects.filter(status=Challenge.Status.OPEN)
    offers.filter(challenger=player).update(status=Challenge.Status.WITHDRAWN, answered_at=now)
    offers.filter(challenged=player).update(status=Challenge.Status.DECLINED, answered_at=now)
    return _log(player, staff, Kind.SUSPEND, reason, report)


def _end_what_it_has_going(player: Player) -> None:
    """After the suspension's commit: its sockets close, its rematch offers go, its running
    matches end by its resignation (one the match's end raced to first is left as it ended), and
    it leaves the tables where no match has begun."""
    end_sessions(list(UserSession.objects.filter(user_id=player.user_id)))
    seated = Q(seat0=player) | Q(seat1=player)
    offered = Table.objects.filter(seated, rematch_offered_by__isnull=False)
    for table_id in offered.values_list("pk", flat=True):
        play.withdraw_rematch(table_id)
    running = Match.objects.filter(
        Q(table__seat0=player) | Q(table__seat1=player), status=Match.Status.PLAYING
    )
    for table_id in running.values_list("table_id", flat=True):
        try:
            play.resign(table_id, player)
        except Conflict:
            continue  # it ended meanwhile (the last move, a timeout): rated once, there
    unplayed = Table.objects.filter(seated | Q(owner=player), current_deal__isnull=True)
    for table_id in unplayed.values_list("pk", flat=True):
        play.leave_for_good(table_id, player)  # nobody waits at its tables for a match it cannot play


def _mute(
    player: Player, staff: Any, reason: str, days: int, report: Report | None = None
) -> ModerationAction:
    until = timezone.now() + dt.timedelta(days=days)
    SocialSettings.objects.update_or_create(player_id=player.pk, defaults={"chat_muted_until": until})
    return _log(player, staff, Kind.MUTE, reason, report, until)


def _log(
    player: Player,
    staff: Any,
    kind: str,
    reason: str,
    report: Report | None = None,
    until: dt.datetime | None = None,
) -> ModerationAction:
    return ModerationAction.objects.create(
        player=player, staff=staff, kind=kind, reason=reason, report=report, until=until
    )


def _reason(text: str) -> str:
    text = (text or "").strip()
    if not text:
        raise BadRequest("Say what was done and why.", field="reason")
    return text


def _check_days(days: int) -> None:
    if days and not 0 < days <= MAX_MUTE_DAYS:
        raise BadRequest(f"A mute is 1 to {MAX_MUTE_DAYS} days.", field="mute_days")


def _check_account(player: Player) -> None:
    _user_id(player)


def _user_id(player: Player) -> int:
    if player.user_id is None or player.is_bot:
        raise BadRequest("Only an account is moderated (not a guest, a robot or a deleted account).")
    return player.user_id


def _check_suspendable(player: Player) -> None:
    _check_account(player)
    user = User.objects.get(pk=_user_id(player))
    if user.is_staff or user.is_superuser:
        raise Conflict("A staff account is not suspended from here.")
