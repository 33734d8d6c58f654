"""Challenges and seeks: offering a match to one account or to the lobby, and answering.

An offer holds the table's options; accepting it opens the table with the challenger in seat 0
and the acceptor in seat 1 and starts the match, all in one transaction that first locks the
offer's row, so an offer accepted twice at once seats one player only.

Whether one account may challenge another is decided in one place, ``check_may_challenge``:
besides who can be challenged at all, a challenge withdrawn or declined leaves the pair alone
for a while (docs/reliability.md), so that a challenge can never be a way to flood someone.
"""

from __future__ import annotations

import datetime as dt
import math
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from tables.accounts.models import Player
from tables.alerts import services as inbox_lines
from tables.alerts.models import SentChallengeAlert
from tables.challenges import texts as challenge_texts
from tables.challenges.models import Challenge
from tables.core.announcements import ChallengeChange, announce_challenge_on_commit
from tables.core.errors import BadRequest, Conflict, Forbidden, NotFound, RateLimited
from tables.play.models import Table
from tables.play.services.common import Outcome
from tables.play.services.matches import start_match
from tables.play.services.seats import check_table_options, create_table, join_table
from tables.ratings import glicko2
from tables.ratings.models import Rating
from tables.ratings.services import require_rated_seat
from tables.social import selectors as social

ALERTS_PER_HOUR = 5  # challenges received a player is alerted of, per hour, from everyone together
# Not channels: the record that a challenge received was counted in its player's hourly
# allowance (and may be alerted), or came past it and stays silent.
COUNTED, SILENCED = "counted", "silenced"
MAX_OPEN_CHALLENGES = 10  # sent and still open, per account
MAX_OPEN_SEEKS = 3  # in the lobby at once, per account
MIN_RATING, MAX_RATING = 0, 4000  # the bounds a seek's rating range may name
# How long a challenger waits before challenging the same account again. A withdrawal is most
# often a slip put right (the wrong clock): ten minutes allow that, yet stop a challenge-withdraw
# loop. A decline is an answer: at a correspondence pace, where players look in once or twice a
# day, asking again within half a day is pestering; after that it is a fair new question.
COOLDOWNS: dict[str, dt.timedelta] = {
    Challenge.Status.WITHDRAWN: dt.timedelta(minutes=10),
    Challenge.Status.DECLINED: dt.timedelta(hours=12),
}


def challenge_player(challenger: Player, challenged: Player, options: dict[str, Any]) -> Challenge:
    """Offer ``challenged`` a match at a table with ``options`` (those of services.create_table)."""
    _require_account(challenger, "Sign up to challenge other players.")
    return _offer(challenger, challenged, options)


def check_may_challenge(challenger: Player, challenged: Player, now: dt.datetime) -> None:
    """The one rule of whether ``challenger`` may challenge ``challenged`` now; raises the refusal.
    Called with the challenger's row locked, so an offer answered at that moment is seen. A block
    either way (tables.social) is refused here too."""
    _require_account(challenger, "Sign up to challenge other players.")
    if challenged.is_bot or challenged.user_id is None:
        raise BadRequest("Only players with an account can be challenged.", field="opponent")
    if challenged.pk == challenger.pk:
        raise BadRequest("You cannot challenge yourself.", field="opponent")
    if social.blocked_between(challenger.pk, challenged.pk):
        raise Forbidden(
            gettext("You cannot challenge %(name)s.") % {"name": challenged.display_name}, field="opponent"
        )
    wait = cooldown_left(challenger, challenged, now)
    if wait is not None:
        status, seconds = wait
        message = (
            gettext("You withdrew a challenge to %(name)s: you may challenge them again in %(wait)s.")
            if status == Challenge.Status.WITHDRAWN
            else gettext("%(name)s declined your challenge: you may challenge them again in %(wait)s.")
        )
        wait_text = f"{math.ceil(seconds / 3600)} h" if seconds > 3600 else f"{math.ceil(seconds / 60)} min"
        raise RateLimited(
            message % {"name": challenged.display_name, "wait": wait_text},
            field="opponent",
            extra={"retry_after": seconds},
        )


def cooldown_left(challenger: Player, challenged: Player, now: dt.datetime) -> tuple[str, int] | None:
    """Why the pair is still held apart (the status, withdrawn or declined, of the offer with the
    longest wait left) and the whole seconds left; None when the challenger may ask again."""
    ended = Challenge.objects.filter(
        challenger=challenger,
        challenged=challenged,
        status__in=list(COOLDOWNS),
        answered_at__gt=now - max(COOLDOWNS.values()),
    )
    left: list[tuple[str, int]] = []
    for status, answered_at in ended.values_list("status", "answered_at"):
        if answered_at is None:  # the filter excludes it; for the type checker
            continue
        seconds = math.ceil((answered_at + COOLDOWNS[status] - now).total_seconds())
        if seconds > 0:
            left.append((status, seconds))
    return max(left, key=lambda pair: pair[1], default=None)


def post_seek(
    seeker: Player, options: dict[str, Any], min_rating: int | None = None, max_rating: int | None = None
) -> Challenge:
    """An open offer in the lobby: whoever takes it first plays; if a rating range is given, only
    a taker rated within it at the pace of the seek's clock."""
    _require_account(seeker, "Sign up to post a seek in the lobby.")
    return _offer(seeker, None, options, _rating_range(min_rating, max_rating))


def _rating_range(low: int | None, high: int | None) -> dict[str, int | None]:
    for name, value in (("min_rating", low), ("max_rating", high)):
        if value is not None and not MIN_RATING <= value <= MAX_RATING:
            raise BadRequest(f"{name} must be between {MIN_RATING} and {MAX_RATING}.", field=name)
    if low is not None and high is not None and low > high:
        raise BadRequest(gettext("The lowest rating must not be above the highest."), field="min_rating")
    return {"min_rating": low, "max_rating": high}


def _offer(
    challenger: Player,
    challenged: Player | None,
    options: dict[str, Any],
    rating_range: dict[str, int | None] | None = None,
) -> Challenge:
    rules_value = check_table_options(**options)
    require_rated_seat(challenger, bool(options.get("rated")))
    if challenged is not None:
        require_rated_seat(challenged, bool(options.get("rated")))
    now = timezone.now()
    with transaction.atomic():
        # The challenger's row serializes their offers, so two at once cannot both pass the limit;
        # the challenged player's, the challenges they hear of in an hour (locked in order).
        _lock_players(challenger, challenged)
        open_offers = Challenge.objects.filter(
            challenger=challenger, status=Challenge.Status.OPEN, expires_at__gt=now
        )
        if challenged is None and open_offers.filter(challenged__isnull=True).count() >= MAX_OPEN_SEEKS:
            raise Conflict(f"You already have {MAX_OPEN_SEEKS} open seeks: withdraw one first.")
        if challenged is not None:
            check_may_challenge(challenger, challenged, now)
            if open_offers.filter(challenged=challenged).exists():
                raise Conflict(f"You have already challenged {challenged.display_name}.")
            if open_offers.filter(challenged__isnull=False).count() >= MAX_OPEN_CHALLENGES:
                raise Conflict(f"You already have {MAX_OPEN_CHALLENGES} open challenges: withdraw one first.")
        challenge = Challenge.objects.create(
            challenger=challenger,
            challenged=challenged,
            options=options,
            ruleset_name=rules_value.name,
            turn_seconds=options.get("turn_seconds", Table.DEFAULT_TURN_SECONDS),
            expires_at=now + Challenge.LIFETIME,
            **(rating_range or {}),
        )
        if challenged is not None:
            if admit_challenge(challenged, challenge, now):
                _tell(challenge, "received")
            announce_challenge_on_commit(ChallengeChange(challenge.pk, "received"))
    return challenge


def _lock_players(*players: Player | None) -> None:
    pks = [player.pk for player in players if player is not None]
    list(Player.objects.select_for_update().filter(pk__in=pks).order_by("pk").values_list("pk", flat=True))


def admit_challenge(player: Player, challenge: Challenge, now: dt.datetime) -> bool:
    """Whether a challenge received is within its player's hourly allowance of challenge alerts
    and inbox lines. Decided once per challenge, under the player's row lock (so that two
    challenges at once cannot both take the last place), and recorded; later deliveries read it."""
    mine = SentChallengeAlert.objects.filter(player=player, event="received")
    verdict = mine.filter(challenge=challenge, channel__in=(COUNTED, SILENCED))
    decided = verdict.values_list("channel", flat=True).first()
    if decided is None:
        counted = mine.filter(channel=COUNTED, created_at__gt=now - dt.timedelta(hours=1)).count()
        decided = COUNTED if counted < ALERTS_PER_HOUR else SILENCED
        SentChallengeAlert.objects.create(
            player=player, challenge=challenge, event="received", channel=decided
        )
    return decided == COUNTED


def _tell(challenge: Challenge, event: str) -> None:
    """The inbox line of ``event``, in this transaction: one per (challenge, event)."""
    text_kind, player, other = challenge_texts.addressed(challenge, event)
    if player is None or other is None:
        return
    title, body = challenge_texts.title_and_body(challenge, text_kind, player, other)
    inbox_lines.keep(
        player, text_kind, f"{challenge.pk}:{event}", title, body, challenge_texts.path_of(challenge)
    )


def accept(challenge_id: int, actor: Player) -> Outcome:
    """Take a seek or accept a challenge: the table opens with both seated and the match on."""
    with transaction.atomic():
        challenge = _lock(challenge_id, actor)
        if challenge.challenger_id == actor.pk:
            raise Conflict("This is your own offer.")
        _require_account(actor, "Sign up to accept challenges and take seeks.")
        _require_open(challenge)
        require_rated_seat(actor, bool(challenge.options.get("rated")))
        if social.blocked_between(challenge.challenger_id, actor.pk):
            raise Forbidden(
                gettext("You cannot play %(name)s.") % {"name": challenge.challenger.display_name}
            )
        _require_in_range(challenge, actor)
        challenger = challenge.challenger
        table = create_table(challenger, **challenge.options)
        join_table(table, actor)
        outcome = start_match(table, challenger)
        _answer(challenge, Challenge.Status.ACCEPTED, table=outcome.table)
        return Outcome(outcome.table, outcome.table.seat_of(actor))


def decline(challenge_id: int, actor: Player) -> Challenge:
    return _close(challenge_id, actor, "challenged_id", "Only the challenged player can decline.", "declined")


def withdraw(challenge_id: int, actor: Player) -> Challenge:
    refusal = "Only the player who made the offer can withdraw it."
    return _close(challenge_id, actor, "challenger_id", refusal, "withdrawn")


def _close(challenge_id: int, actor: Player, role: str, refusal: str, status: str) -> Challenge:
    """The open offer ends unanswered: declined by the challenged player (``role``
    challenged_id) or withdrawn by the one who made it (challenger_id)."""
    with transaction.atomic():
        challenge = _lock(challenge_id, actor)
        if getattr(challenge, role) != actor.pk:
            raise Forbidden(refusal)
        _require_open(challenge)
        _answer(challenge, Challenge.Status(status))
    return challenge


def _lock(challenge_id: int, actor: Player) -> Challenge:
    """The offer, locked; one the actor may not see is as good as missing (404)."""
    challenge = (
        Challenge.objects.select_for_update(of=("self",))
        .select_related("challenger", "challenged")
        .filter(pk=challenge_id)
        .first()
    )
    visible = challenge is not None and (
        challenge.is_seek or actor.pk in (challenge.challenger_id, challenge.challenged_id)
    )
    if challenge is None or not visible:
        raise NotFound("There is no such challenge.")
    return challenge


def _require_open(challenge: Challenge) -> None:
    if challenge.status != Challenge.Status.OPEN:
        raise Conflict(f"This offer is no longer open: it was {challenge.get_status_display().lower()}.")
    if challenge.expires_at <= timezone.now():
        raise Conflict("This offer has lapsed.")


def _require_in_range(challenge: Challenge, taker: Player) -> None:
    """A seek with a rating range admits only takers rated within it at its pace. The rating row
    is read locked, in this transaction, so a match ending at that moment cannot slip past."""
    if not challenge.has_rating_range:
        return
    row = Rating.objects.select_for_update().filter(player=taker, pace=challenge.pace).first()
    rating = glicko2.INITIAL_RATING if row is None else row.rating
    if not challenge.admits(rating):
        low = challenge.min_rating if challenge.min_rating is not None else "…"
        high = challenge.max_rating if challenge.max_rating is not None else "…"
        raise Conflict(
            gettext("This seek is for players rated %(low)s to %(high)s at its pace; yours is %(rating)d.")
            % {"low": low, "high": high, "rating": round(rating)}
        )


def _require_account(player: Player, message: str) -> None:
    if player.user_id is None or player.is_bot:
        raise Forbidden(message)


def _answer(challenge: Challenge, status: str, **fields: Any) -> None:
    challenge.status = status
    challenge.answered_at = timezone.now()
    for name, value in fields.items():
        setattr(challenge, name, value)
    challenge.save(update_fields=["status", "answered_at", *fields])
    if not challenge.is_seek or status == Challenge.Status.ACCEPTED:  # a seeker hears it was taken
        if str(status) in challenge_texts.EVENTS:
            _tell(challenge, str(status))
        announce_challenge_on_commit(ChallengeChange(challenge.pk, str(status)))
