"""Opening a table of three or four, filling its seats (people, guests, robots) and starting it."""

from __future__ import annotations

import contextlib
import dataclasses
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext

from tables.accounts.models import Player
from tables.core.errors import BadRequest, Conflict, Forbidden
from tables.play.models import Table
from tables.play.services.seats import bot_player, check_table_options
from tables.social.selectors import blocked_between
from tables.variants import engine
from tables.variants.models import GameSeat, GameTable
from tables.variants.selectors import seats as seats_of
from tables.variants.services.boards import open_due_boards, resign_game
from tables.variants.services.common import (
    GameRef,
    bump,
    lock_game,
    require_owner,
    require_waiting,
    seat_number_of,
)

# The new-table form's options that every board's table takes (the rest are the game's own).
BOARD_OPTIONS = (
    "ruleset",
    "custom",
    "turn_seconds",
    "forfeit_after",
    "move_log",
    "time_bank",
    "spectator_chat",
)


def create_game(
    owner: Player,
    variant: str,
    partners: str = GameTable.Partners.FIXED,
    target: int | None = None,
    hollywood: bool = False,
    visibility: str = Table.Visibility.INVITE,
    **options: Any,
) -> GameTable:
    """A new table of three (winner stays) or four (partnership) with its owner in seat 1.
    ``options``: the new-table form's, for every deal's table; ``target`` and ``visibility``
    (listed in the lobby or by invite link only): the game's."""
    if variant not in GameTable.Variant.values:
        raise BadRequest(gettext("Choose two, three or four players."), field="variant")
    if visibility not in Table.Visibility.values:
        raise BadRequest("visibility must be invite or public.", field="visibility")
    if partners not in GameTable.Partners.values:
        raise BadRequest("partners must be fixed or drawn.", field="partners")
    if options.pop("rated", False):
        raise BadRequest(gettext("Tables of three and four are unrated."), field="rated")
    unknown = set(options) - set(BOARD_OPTIONS)
    if unknown:
        raise BadRequest(f"Unknown option for a table of three or four: {', '.join(sorted(unknown))}.")
    board_options = {**options, "rated": False, "rematches": False, "visibility": Table.Visibility.INVITE}
    ruleset = check_table_options(**board_options)
    if hollywood:  # the engine says why it does not combine
        ruleset = dataclasses.replace(ruleset, hollywood=True, target=ruleset.target or 100)
    record = engine.new_record(variant, ruleset, target, drawn=False)  # checks the target too
    with transaction.atomic():
        game: GameTable = GameTable.objects.create(
            owner=owner,
            variant=variant,
            partners=partners,
            visibility=visibility,
            table_options=board_options,
            ruleset_name=ruleset.name,
            target=record.target,
            turn_seconds=options.get("turn_seconds", Table.DEFAULT_TURN_SECONDS),
        )
        GameSeat.objects.create(game=game, number=0, player=owner)
    return game


def join_game(ref: GameRef, player: Player) -> int | None:
    """Take the first free seat before the start; a full or started table is watched instead
    (None). The seat taken, or the one the player already had."""
    with transaction.atomic():
        game = lock_game(ref)
        mine = seat_number_of(game, player)
        if mine is not None or game.status != GameTable.Status.WAITING:
            return mine
        seats = seats_of(game)
        free = _free_seat(game, seats)
        if free is None:
            return None
        if player.user_id is not None and any(
            seat.player.user_id is not None and blocked_between(seat.player_id, player.pk) for seat in seats
        ):
            raise Forbidden(gettext("You cannot sit at this table."))
        _sit(game, free, player)
        return free


def add_robot(ref: GameRef, actor: Player, level: str) -> int:
    """The owner puts a robot (TITO, CARMEN or LUNA) in the first free seat."""
    with transaction.atomic():
        bot = bot_player(level)
        game = lock_game(ref)
        require_owner(game, actor, gettext("Only the table's owner can add a robot."))
        require_waiting(game)
        free = _free_seat(game, seats_of(game))
        if free is None:
            raise Conflict(gettext("Every seat is taken."))
        if seat_number_of(game, bot) is not None:  # one player, one seat: each robot sits once
            raise Conflict(
                gettext("%(robot)s is already at this table: choose another robot.") % {"robot": bot.name}
            )
        _sit(game, free, bot)
        return free


def leave_game(ref: GameRef, actor: Player, seat: int | None = None) -> None:
    """Before the start a player stands up, or the owner clears ``seat`` (a robot, a guest)."""
    with transaction.atomic():
        game = lock_game(ref)
        require_waiting(game)
        mine = seat_number_of(game, actor)
        if seat is None or seat == mine:
            if mine is None:
                raise Forbidden(gettext("You are not seated at this table."))
            if actor.pk == game.owner_id:
                raise Conflict(gettext("The owner stays at their own table."))
            seat = mine
        else:
            require_owner(game, actor, gettext("Only the table's owner clears another seat."))
        deleted, _ = GameSeat.objects.filter(game=game, number=seat).delete()
        if not deleted:
            raise Conflict(gettext("That seat is already free."))
        bump(game)


def start_game(ref: GameRef, actor: Player) -> GameTable:
    """The owner starts the game once every seat is filled: partners drawn if so chosen, and
    the first deals opened, each at its own table."""
    with transaction.atomic():
        game = lock_game(ref)
        require_owner(game, actor, gettext("Only the table's owner starts the game."))
        require_waiting(game)
        if len(seats_of(game)) < game.seat_count:
            raise Conflict(gettext("Every seat must be filled to start."))
        ruleset = engine.deal_ruleset(game.table_options)
        drawn = game.partners == GameTable.Partners.DRAWN
        record = engine.new_record(game.variant, ruleset, game.target, drawn)
        game.record = record.to_dict()
        game.status = GameTable.Status.PLAYING
        game.started_at = timezone.now()
        bump(game, "record", "status", "started_at")
        open_due_boards(game, record)
        return game


def _free_seat(game: GameTable, seats: list[GameSeat]) -> int | None:
    taken = {seat.number for seat in seats}
    return next((number for number in range(game.seat_count) if number not in taken), None)


def _sit(game: GameTable, number: int, player: Player) -> None:
    try:
        with transaction.atomic():
            GameSeat.objects.create(game=game, number=number, player=player)
    except IntegrityError:
        raise Conflict(gettext("That seat was just taken.")) from None
    bump(game)


def play_again(ref: GameRef, actor: Player) -> GameTable:
    """After a game, a player of it asks to play again: the first to ask opens the next game, with
    the same options and the robots back in their seats; every player who asks sits in their seat
    of the last game (if still free). The next game starts as any does, by its owner: the first
    to ask."""
    with transaction.atomic():
        game = lock_game(ref)
        seat = seat_number_of(game, actor)
        if seat is None:
            raise Forbidden(gettext("You are not seated at this table."))
        if game.status != GameTable.Status.OVER:
            raise Conflict(gettext("The game is not over yet."))
        if game.next_game_id is None:
            following = _open_next(game, actor)  # new in this transaction: nobody else sees it
            game.next_game = following
            bump(game, "next_game")
        else:
            following = lock_game(game.next_game_id)
        if following.status == GameTable.Status.WAITING and seat_number_of(following, actor) is None:
            taken = {row.number for row in seats_of(following)}
            free = seat if seat not in taken else _free_seat(following, seats_of(following))
            if free is not None:
                _sit(following, free, actor)
        return following


def _open_next(game: GameTable, owner: Player) -> GameTable:
    following: GameTable = GameTable.objects.create(
        owner=owner,
        variant=game.variant,
        partners=game.partners,
        table_options=game.table_options,
        ruleset_name=game.ruleset_name,
        target=game.target,
        turn_seconds=game.turn_seconds,
    )
    for row in seats_of(game):
        if row.player.is_bot:
            GameSeat.objects.create(game=following, number=row.number, player=row.player)
    return following


def leave_everywhere(player_id: int) -> None:
    """An account being deleted leaves every game it sits at that is not over: a waiting game
    frees its seat (its own waiting game goes, with nobody left to start it); a game in play is
    resigned, its side losing (tables.variants.watchers)."""
    player = Player.objects.filter(pk=player_id).first()
    if player is None:
        return
    for game in GameTable.objects.filter(seats__player=player).exclude(status=GameTable.Status.OVER):
        with transaction.atomic():
            locked = lock_game(game.pk)
            if locked.status == GameTable.Status.WAITING:
                if locked.owner_id == player.pk:
                    locked.delete()
                else:
                    GameSeat.objects.filter(game=locked, player=player).delete()
                    bump(locked)
                continue
        if locked.status == GameTable.Status.PLAYING:
            with contextlib.suppress(Conflict):  # it ended meanwhile (a board resigned before)
                resign_game(locked.pk, player)
