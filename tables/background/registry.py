"""Every background task, in one place: its registered name, its queue, how often it runs if it
is periodic, and the room that owns it. The Celery routes and beat schedule (config.celery) and
the embedded scheduler's sweeps (config.asgi) are derived from this list; each room's
``tasks.py`` registers its functions under these names with ``registered``, and the background
layer sends work by these names, never by importing a room's tasks.

A task that moved keeps its old name as well (``old_name``) for one release, so that messages
queued by the previous release still run during a deploy. The old names of the move to rooms
(December 2026) go in the release after it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ParamSpec, TypeVar

from celery import Task, shared_task
from django.conf import settings

DEFAULT_QUEUE = "celery"
# Clocks have a queue of their own: a backlog of alerts or bot moves never delays a timeout.
CLOCKS_QUEUE = "clocks"
# Each web push posts to outside servers (3 s timeout each): a dead push service holds up only
# other pushes. Production runs it on workers of its own (README, "Production").
PUSH_QUEUE = "push"
# LUNA's deal reviews take seconds of CPU each (about 10 s, at most 24 s): on workers of their own,
# never on the ones that run clocks and bots' turns (README, "Production"). Their order is the
# database's (tables.reviews.services.run_next_review: the players' own requests first), not the
# broker's, so one queue suffices and embedded mode keeps the same order.
REVIEWS_QUEUE = "reviews"
QUEUES = (DEFAULT_QUEUE, CLOCKS_QUEUE, PUSH_QUEUE, REVIEWS_QUEUE)


@dataclass(frozen=True)
class Work:
    name: str  # the registered name: the module of the room's tasks and the function
    room: str  # the room that owns it: tables/<room>/tasks.py
    queue: str = DEFAULT_QUEUE
    every: float | None = None  # seconds between runs of a periodic sweep (beat, embedded)
    pool: str | None = None  # embedded mode: a one-thread pool of its own, by name (not the clocks')
    old_name: str | None = None  # the name before it moved, kept for one release

    @property
    def names(self) -> tuple[str, ...]:
        return (self.name,) if self.old_name is None else (self.name, self.old_name)


def _work(room: str, function: str, **options: Any) -> Work:
    old = options.pop("old_name", f"tables.tasks.{function}")
    return Work(f"tables.{room}.tasks.{function}", room, old_name=old, **options)


# What follows a committed change (tables.background.scheduling), and the clocks.
TABLE_CHANGED = _work("play", "table_changed")
TABLES_CHANGED = _work("play", "tables_changed")
EXPIRE_TURN = _work("play", "expire_turn", queue=CLOCKS_QUEUE)
PLAY_BOT_TURN = _work("play", "play_bot_turn", old_name="bots.tasks.play_bot_turn")
SWEEP_OVERDUE = _work("play", "sweep_overdue", queue=CLOCKS_QUEUE, every=float(settings.SWEEP_SECONDS))
KICK_STALLED_BOTS = _work("play", "kick_stalled_bots", every=10.0)
# an offer lasts 10 minutes or more: 15 s late is fine
SWEEP_REMATCH_OFFERS = _work("play", "sweep_rematch_offers", every=15.0)
# a clock stopped for a vacation restarts from the vacation's end, however late this runs
SWEEP_VACATIONS = _work("accounts", "sweep_vacations", every=30.0)
# "your vacation ends soon", a day before it ends: a few minutes late is nothing
REMIND_VACATIONS = _work("accounts", "remind_vacations", every=300.0, old_name=None)
# "download my data": a few queries per finished match, once in a while per account
BUILD_DATA_EXPORT = _work("accounts", "build_data_export", old_name=None)
DELIVER_ALERT = _work("alerts", "deliver_alert")
SEND_PUSH = _work("alerts", "send_push", queue=PUSH_QUEUE, pool="push")
REMIND_SLOW_TURNS = _work("alerts", "remind_slow_turns", every=30.0)
SEND_DIGESTS = _work("alerts", "send_digests", every=300.0)
# inbox lines are kept 90 days: an hour late is nothing
PURGE_INBOX = _work("alerts", "purge_inbox", every=3600.0)
ALERT_CHALLENGE = _work("challenges", "alert_challenge")
SWEEP_CHALLENGE_ALERTS = _work("challenges", "sweep_challenge_alerts", every=60.0)
# LUNA's review of a deal: seconds of CPU, so never where clocks, bots or pushes run
REVIEW_DEAL = _work("reviews", "review_deal", queue=REVIEWS_QUEUE, pool="reviews")
# fair play: rated matches waiting to be screened, handed to the reviews' workers (a minute late
# is nothing: the signal is for staff, over hundreds of decisions)
SWEEP_SCREENINGS = _work("fairplay", "sweep_screenings", every=60.0, old_name=None)
SCREEN_MATCH = _work("fairplay", "screen_match", queue=REVIEWS_QUEUE, pool="reviews", old_name=None)
# tournaments: starts on their date, and results whose match-end announcement was lost (a
# correspondence event's start a minute late is nothing)
SWEEP_TOURNAMENTS = _work("tournaments", "sweep_tournaments", every=60.0, old_name=None)
# the next round (or the end) once a round is over: seconds for a round of a hundred matches,
# so never in the match-end hook on the path of the round's last move
ADVANCE_TOURNAMENT = _work("tournaments", "advance_tournament", old_name=None)
ALERT_TOURNAMENT_ROUND = _work("tournaments", "alert_tournament_round", old_name=None)
# tables of three and four: a board's end whose announcement was lost (the game waits for it)
SWEEP_GAME_BOARDS = _work("variants", "sweep_game_boards", every=30.0, old_name=None)

WORK = (
    TABLE_CHANGED,
    TABLES_CHANGED,
    EXPIRE_TURN,
    PLAY_BOT_TURN,
    SWEEP_OVERDUE,
    KICK_STALLED_BOTS,
    SWEEP_REMATCH_OFFERS,
    SWEEP_VACATIONS,
    REMIND_VACATIONS,
    BUILD_DATA_EXPORT,
    DELIVER_ALERT,
    SEND_PUSH,
    REMIND_SLOW_TURNS,
    SEND_DIGESTS,
    PURGE_INBOX,
    ALERT_CHALLENGE,
    SWEEP_CHALLENGE_ALERTS,
    REVIEW_DEAL,
    SWEEP_SCREENINGS,
    SCREEN_MATCH,
    SWEEP_TOURNAMENTS,
    ADVANCE_TOURNAMENT,
    ALERT_TOURNAMENT_ROUND,
    SWEEP_GAME_BOARDS,
)
PERIODIC = tuple(work for work in WORK if work.every is not None)


def routes() -> dict[str, dict[str, str]]:
    """Celery's task routes: each task off the default queue, under each of its names."""
    return {
        name: {"queue": work.queue} for work in WORK if work.queue != DEFAULT_QUEUE for name in work.names
    }


def beat_schedule() -> dict[str, dict[str, Any]]:
    """Celery beat's schedule. A sweep that waited longer than its period is superseded by the
    next one: it expires."""
    return {
        work.name.rsplit(".", 1)[1]: {
            "task": work.name,
            "schedule": work.every,
            "options": {"expires": work.every},
        }
        for work in PERIODIC
    }


P = ParamSpec("P")
R = TypeVar("R")


def registered(work: Work) -> Callable[[Callable[P, R]], Task[P, R]]:
    """Register a room's task function under the work's name (and its old name)."""

    def register(function: Callable[P, R]) -> Task[P, R]:
        task: Task[P, R] = shared_task(name=work.name, ignore_result=True)(function)
        if work.old_name is not None:
            shared_task(name=work.old_name, ignore_result=True)(function)
        return task

    return register
