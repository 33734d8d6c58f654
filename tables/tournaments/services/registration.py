"""Creating a tournament and registering for it: join, withdraw, robots, cancel.

A join locks the tournament's row, counts the places left and checks every entry rule, so 30
joins at once into 16 places seat exactly 16; the join that takes the last place starts the
event in its own transaction: the seeds fixed and the event running, in a few queries. Its round
1 is paired and opened by a task after the commit (services.results.advance), not in the join.
"""

from __future__ import annotations

import contextlib
import datetime as dt
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from tables.accounts.models import Player
from tables.core.errors import BadRequest, Conflict, Forbidden
from tables.play.models import Table
from tables.play.services.seats import bot_player, check_table_options
from tables.social import selectors as social
from tables.tournaments import selectors
from tables.tournaments.models import Entry, Tournament
from tables.tournaments.services.common import (
    TournamentRef,
    bump,
    cancel_locked,
    lock_tournament,
    require_organiser,
    require_registering,
)
from tables.tournaments.services.results import withdraw_running
from tables.tournaments.services.running import start_locked

TABLE_OPTIONS = (
    "spectator_chat",
    "ruleset",
    "target",
    "custom",
    "hollywood",
    "turn_seconds",
    "move_log",
    "time_bank",
    "forfeit_after",
)
MAX_PLAYERS = range(2, 257)
GROUP_SIZES = range(3, 11)
SWISS_ROUNDS = range(1, 21)


def create_tournament(creator: Player, **settings: Any) -> Tournament:
    """A tournament open for registration. ``settings``: a name, a format (swiss or groups), the
    match options of the new-table form (TABLE_OPTIONS), rated, max_players, starts_at (None:
    when full), the format's own (group_size, advance_per_group, runners_up, home_and_away;
    swiss_rounds), the entry rules, vacation_allowed and visibility."""
    if creator.user_id is None or creator.is_bot:
        raise Forbidden(gettext("Sign up or log in to create a tournament."))
    options = {key: settings.pop(key) for key in TABLE_OPTIONS if key in settings}
    rated = bool(settings.pop("rated", False))
    ruleset = check_table_options(**options, rated=rated)
    fields = _checked_settings(settings)
    return Tournament.objects.create(
        creator=creator,
        table_options={**options, "rated": rated},
        ruleset_name=ruleset.name,
        turn_seconds=options.get("turn_seconds", Table.DEFAULT_TURN_SECONDS),
        rated=rated,
        **fields,
    )


def _checked_settings(settings: dict[str, Any]) -> dict[str, Any]:
    name = str(settings.pop("name", "")).strip()
    if not name or len(name) > 80:
        raise BadRequest(gettext("A tournament needs a name of 1 to 80 characters."), field="name")
    fields: dict[str, Any] = {"name": name, "format": settings.pop("format", Tournament.Format.SWISS)}
    if fields["format"] not in Tournament.Format.values:
        raise BadRequest(gettext("format must be 'swiss' or 'groups'."), field="format")
    fields["max_players"] = _within(settings, "max_players", MAX_PLAYERS, 16)
    if fields["format"] == Tournament.Format.SWISS:
        fields["swiss_rounds"] = _within(settings, "swiss_rounds", SWISS_ROUNDS, 4)
    else:
        fields["group_size"] = size = _within(settings, "group_size", GROUP_SIZES, 4)
        fields["advance_per_group"] = _within(settings, "advance_per_group", range(1, size), 1)
        fields["runners_up"] = _within(settings, "runners_up", range(0, 33), 0)
        fields["home_and_away"] = bool(settings.pop("home_and_away", False))
    fields.update(_entry_rules(settings))
    fields["starts_at"] = _start_date(settings.pop("starts_at", None))
    fields["vacation_allowed"] = bool(settings.pop("vacation_allowed", True))
    fields["visibility"] = settings.pop("visibility", Tournament.Visibility.PUBLIC)
    if fields["visibility"] not in Tournament.Visibility.values:
        raise BadRequest(gettext("visibility must be 'public' or 'invite'."), field="visibility")
    for unused in ("swiss_rounds", "group_size", "advance_per_group", "runners_up", "home_and_away"):
        settings.pop(unused, None)  # the other format's: not this one's
    if settings:
        raise BadRequest(
            gettext("Unknown setting: %(name)s.") % {"name": sorted(settings)[0]}, field=sorted(settings)[0]
        )
    return fields


def _within(settings: dict[str, Any], key: str, allowed: range, default: int) -> int:
    value = settings.pop(key, default)
    if not isinstance(value, int) or isinstance(value, bool) or value not in allowed:
        message = gettext("%(name)s must be from %(low)s to %(high)s.")
        raise BadRequest(message % {"name": key, "low": allowed.start, "high": allowed.stop - 1}, field=key)
    return value


def _entry_rules(settings: dict[str, Any]) -> dict[str, Any]:
    rules: dict[str, Any] = {"accounts_only": bool(settings.pop("accounts_only", True))}
    for key, allowed in (
        ("min_rating", range(0, 4001)),
        ("max_rating", range(0, 4001)),
        ("min_rated_matches", range(0, 1001)),
        ("max_timeout_percent", range(0, 101)),
    ):
        value = settings.pop(key, None)
        rules[key] = None if value is None else _within({key: value}, key, allowed, 0)
    low, high = rules["min_rating"], rules["max_rating"]
    if low is not None and high is not None and low > high:
        raise BadRequest(gettext("min_rating must not be above max_rating."), field="min_rating")
    return rules


def _start_date(value: Any) -> dt.datetime | None:
    if value is None:
        return None
    if not isinstance(value, dt.datetime) or value <= timezone.now():
        raise BadRequest(gettext("starts_at must be a date and time in the future."), field="starts_at")
    return value


def join(ref: TournamentRef, player: Player) -> Entry:
    """Take a place; the last place starts the event (in this transaction; round 1 is opened
    after its commit by a task)."""
    with transaction.atomic():
        tournament = lock_tournament(ref)
        require_registering(tournament)
        if tournament.entries.filter(player=player).exists():
            raise Conflict(gettext("You are already in this tournament."))
        unmet = [
            check for check in selectors.entry_rules(tournament, player, timezone.now()) if not check.met
        ]
        if unmet:
            raise Forbidden(unmet[0].reason, extra={"rule": unmet[0].rule})
        _refuse_blocked(tournament, player)
        return _take_place(tournament, player)


def _refuse_blocked(tournament: Tournament, player: Player) -> None:
    """Two accounts of which one blocks the other are never in one event: a table between them
    would be refused (tables.social). Which entrant it is stays unsaid, as at a table."""
    entered = set(tournament.entries.values_list("player_id", flat=True))
    if entered & social.blocked_either_way(player):
        raise Forbidden(gettext("You cannot join this tournament."))


def add_robot(ref: TournamentRef, actor: Player, level: str) -> Entry:
    """The creator completes an unrated event with a robot (TITO, CARMEN or LUNA)."""
    with transaction.atomic():
        tournament = lock_tournament(ref)
        if actor.pk != tournament.creator_id:
            raise Forbidden(gettext("Only the tournament's creator adds robots."))
        require_registering(tournament)
        if tournament.rated:
            raise Forbidden(gettext("Robots are unrated: they play unrated tournaments only."))
        robot = bot_player(level)
        if tournament.entries.filter(player=robot).exists():
            raise Conflict(gettext("That robot is already in this tournament."))
        return _take_place(tournament, robot)


def _take_place(tournament: Tournament, player: Player) -> Entry:
    if tournament.entries.count() >= tournament.max_players:
        raise Conflict(gettext("This tournament is full."))
    entry = Entry.objects.create(tournament=tournament, player=player)
    bump(tournament)
    if tournament.entries.count() == tournament.max_players:
        start_locked(tournament)
    return entry


def withdraw(ref: TournamentRef, player: Player) -> None:
    """Leave before the start (the place is free again), or during the event (the remaining
    matches are forfeited; the finished ones stand)."""
    with transaction.atomic():
        tournament = lock_tournament(ref)
        entry = tournament.entries.filter(player=player, withdrawn_at__isnull=True).first()
        if entry is None:
            raise Conflict(gettext("You are not in this tournament."))
        if tournament.status == Tournament.Status.REGISTERING:
            entry.delete()
            bump(tournament)
            return
        if tournament.status != Tournament.Status.RUNNING:
            raise Conflict(gettext("This tournament is over."))
        withdraw_running(tournament, entry)


def withdraw_everywhere(player_id: int) -> None:
    """The player leaves every event still registering or running that it is in (an account's
    deletion: tables.tournaments.watchers)."""
    player = Player.objects.filter(pk=player_id).first()
    if player is None:
        return
    going = (Tournament.Status.REGISTERING, Tournament.Status.RUNNING)
    entered = Entry.objects.filter(player=player, withdrawn_at__isnull=True, tournament__status__in=going)
    for tournament_id in list(entered.values_list("tournament_id", flat=True)):
        with contextlib.suppress(Conflict):  # it ended meanwhile (the resignations before)
            withdraw(tournament_id, player)


def cancel(ref: TournamentRef, actor: Player) -> Tournament:
    """The creator or staff call the event off before it starts; every entrant is told."""
    with transaction.atomic():
        tournament = lock_tournament(ref)
        require_organiser(tournament, actor)
        require_registering(tournament)
        cancel_locked(tournament)
        return tournament
