"""Deciding who is told what after a table changes, and telling them on the channels they chose.

Rules (docs/live.md): on-site alerts always follow the preferences; push and email never go
to a player who is looking at that table right now, wait for the end of quiet hours, and
email waits until the player has been away ALERT_EMAIL_AWAY_SECONDS; a player who chose the
daily digest (tables.alerts.digest) gets no per-move emails. Every (player, table, kind,
occasion, channel) is claimed in the database before sending, so an occasion is alerted at most
once per channel.
"""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone
from redis.exceptions import RedisError

from tables.accounts.models import Player, Vacation
from tables.accounts.selectors import vacation_day_instead
from tables.alerts import emails, prefs, presence, push
from tables.alerts import services as inbox_lines
from tables.alerts.models import SentAlert, TablePresence
from tables.alerts.texts import at_board, duration, language, reminder_then, render
from tables.background import scheduling
from tables.core.announcements import Alerts, ChangeKind
from tables.core.errors import NotFound
from tables.live import events
from tables.play import engine, payloads, selectors
from tables.play.models import ChatMessage, Deal, Match, Table
from tables.play.services.common import bank_held, clock_stopped_for
from tables.variants.models import Board
from tables.variants.selectors import board_for_alerts, opens_board

log = logging.getLogger(__name__)

REMINDER_MIN_TURN_SECONDS = 3600  # reminders are for slow clocks: live play needs none
DIGESTED_KINDS = {"your_move", "reminder"}  # what the digest email replaces


@dataclass
class Alert:
    kind: str
    player: Player
    table: Table
    occasion: str
    context: dict[str, Any] = field(default_factory=dict)

    @property
    def lang(self) -> str:
        return language(self.player.language)

    @cached_property
    def board(self) -> Board | None:
        """The board played at the table, if it is one: its alerts name the game and the deal (a
        chat message is the whole game's). Read once, and only at a table that may be a board."""
        return None if self.kind == "chat" else board_for_alerts(self.table)

    def texts(self) -> tuple[str, str]:
        opens = self.kind == "your_move" and self.board is not None and opens_board(self.table.current_deal)
        title, body = render("deal_open" if opens else self.kind, self.lang, **self.context)
        return (title, body) if self.board is None else (at_board(title, self.board, self.lang), body)

    @property
    def url(self) -> str:
        return settings.SITE_URL + reverse("table", args=[self.table.invite_token])

    def message(self) -> dict[str, Any]:
        title, body = self.texts()
        return {
            "type": "alert",
            "kind": self.kind,
            "table": self.table.invite_token,
            "title": title,
            "body": body,
            "url": self.url,
            "tag": f"table-{self.table.invite_token}",
        }


# -- what a change means --------------------------------------------------------------------


def on_table_change(table: Table, kind: ChangeKind) -> None:
    """Alert whoever the change concerns and refresh the players' pending counts, as the rules
    of its kind say (a draw, more time: neither; a chat message: its alert only)."""
    rules = kind.rules
    for alert in alerts_for(table, rules.alerts):
        deliver(alert)
    if rules.recounts_pending:
        for player in humans(table):
            events.publish_to_player(player.pk, {"type": "pending.changed"})


def humans(table: Table) -> list[Player]:
    return [player for player in table.seats if player is not None and not player.is_bot]


def turn_occasion(deal: Deal) -> str:
    """One turn: the deadline is set when the turn passes and only then."""
    stamp = int(deal.deadline.timestamp() * 1000) if deal.deadline else 0
    return f"turn:{deal.pk}:{stamp}"


def alerts_for(table: Table, alerts: Alerts | None) -> list[Alert]:
    """The alerts a change of a kind whose rules name ``alerts`` sends, the table being as it is now."""
    if alerts is None:
        return []
    if alerts is Alerts.CHAT:
        return _chat_alerts(table)
    deal = table.current_deal
    if deal is None:
        return []
    status = payloads.table_status(table)
    if status == "playing":
        to_play = deal.to_play
        assert to_play is not None  # a deal in play always has someone to play
        player = table.seats[to_play]
        if player is None or player.is_bot:
            return []
        if deal.deadline is None:  # the clock stopped for a vacation: told when it runs again,
            return _automatic_vacation(table, player, to_play)  # or now, if it began here by itself
        return [Alert("your_move", player, table, turn_occasion(deal), _names(table, to_play))]
    if status == "match_over":
        if alerts is Alerts.REMATCH and table.rematch_offered_by is not None:
            player = table.seats[1 - table.rematch_offered_by]
            offered = table.rematch_offered_at
            stamp = int(offered.timestamp()) if offered else 0  # a new offer after one lapsed is news
            occasion = f"rematch:{deal.match_id}:{stamp}"
            if player is None or player.is_bot:
                return []
            return [
                Alert("rematch_offer", player, table, occasion, _names(table, 1 - table.rematch_offered_by))
            ]
        return [_match_over(table, deal.match, seat) for seat in (0, 1) if _is_human(table, seat)]
    return []


def _automatic_vacation(table: Table, player: Player, seat: int) -> list[Alert]:
    """The automatic vacation that this table's turn started, while it lasts (one alert each)."""
    started = player.vacation_started_at
    if started is None or not player.on_vacation(timezone.now()):
        return []
    row = Vacation.objects.filter(player=player, started_at_table=table, starts_at=started)
    pk = row.values_list("pk", flat=True).first()
    return (
        [] if pk is None else [Alert("auto_vacation", player, table, f"vacation:{pk}", _names(table, seat))]
    )


def _is_human(table: Table, seat: int) -> bool:
    player = table.seats[seat]
    return player is not None and not player.is_bot


def _names(table: Table, seat: int) -> dict[str, Any]:
    opponent = table.seats[1 - seat]
    return {"opponent": opponent.name if opponent else "?"}


def _match_over(table: Table, match: Match, seat: int) -> Alert:
    player = table.seats[seat]
    assert player is not None  # only a human seat's match is over for someone
    result = inbox_lines.match_result(engine.load_match(match), seat, player.language)
    return Alert("match_over", player, table, f"match:{match.pk}", {**_names(table, seat), "result": result})


def _chat_alerts(table: Table) -> list[Alert]:
    """The newest players' message, to the other players of the table's chat (a game's boards
    share one), each at the table where they read it."""
    shared = selectors.shared_chat(table)
    tables = (table.pk,) if shared is None else shared.table_ids
    message = (
        ChatMessage.objects.filter(table_id__in=tables, channel=ChatMessage.Channel.PLAYERS, hidden=False)
        .select_related("author")
        .last()
    )
    if message is None:
        return []
    context = {"opponent": message.author.name, "text": message.text[:140]}
    return [
        Alert("chat", player, at, f"chat:{message.pk}", context)
        for player, at in selectors.chat_players(table, shared)
        if player.pk != message.author_id
    ]


# -- delivery -------------------------------------------------------------------------------


SITE_CLAIM_SECONDS = 86400  # far longer than any retry of the task that sends it


def claim(alert: Alert, channel: str) -> bool:
    """True for the first caller only: the record that this occasion went out on ``channel``.
    On-site alerts, one per turn, claim in the cache (one Redis round trip, not a transaction):
    they travel through Redis anyway, so when it is down there is nothing to send twice."""
    if channel == "site":
        key = f"alert:{alert.player.pk}:{alert.table.pk}:{alert.kind}:{alert.occasion}:site"
        try:
            return bool(cache.add(key, 1, timeout=SITE_CLAIM_SECONDS))
        except RedisError:
            return True
    try:
        with transaction.atomic():
            SentAlert.objects.create(
                player=alert.player,
                table=alert.table,
                kind=alert.kind,
                occasion=alert.occasion,
                channel=channel,
            )
    except IntegrityError:
        return False
    return True


def deliver(alert: Alert, *, now: dt.datetime | None = None, deferred: bool = False) -> set[str]:
    """Send ``alert`` on the channels its player chose and the rules allow; returns them."""
    now = now or timezone.now()
    chosen = prefs.of(alert.player)
    sent: set[str] = set()
    if chosen.wants(alert.kind, "site") and claim(alert, "site"):
        events.publish_to_player(alert.player.pk, alert.message())
        sent.add("site")
    outside = [channel for channel in ("push", "email") if chosen.wants(alert.kind, channel)]
    if "push" in outside and not push.configured():
        outside.remove("push")  # no VAPID keys: nothing can be pushed
    if chosen.digest and alert.kind in DIGESTED_KINDS and "email" in outside:
        outside.remove("email")
    if not outside or presence.is_watching(alert.player.pk, alert.table.pk, now):
        return sent
    quiet_end = chosen.quiet_until(now)
    if quiet_end is not None:
        _later(alert, quiet_end)
        return sent
    if "push" in outside and claim(alert, "push"):
        _push(alert)
        sent.add("push")
    if "email" in outside and emails.address_of(alert.player):
        sent |= _email_when_away(alert, now, deferred)
    return sent


def _push(alert: Alert) -> None:
    """Handed to the push task: the posts to push services never run inside this work."""
    scheduling.send_push(alert.player.pk, alert.message(), f"table-{alert.table.invite_token}")


def _email_when_away(alert: Alert, now: dt.datetime, deferred: bool) -> set[str]:
    if alert.kind == "your_move" and _emailed_since_last_look(alert):
        return set()  # one "your move" email per table until the player comes to look
    away = dt.timedelta(seconds=settings.ALERT_EMAIL_AWAY_SECONDS)
    last_seen = presence.last_seen_anywhere(alert.player.pk)
    if last_seen is not None and now - last_seen < away:
        if not deferred:  # look again once they would have been away long enough
            _later(alert, last_seen + away + dt.timedelta(seconds=1))
        return set()
    if not claim(alert, "email"):
        return set()
    title, body = alert.texts()
    emails.send_alert_email(alert.player, alert.kind, title, body, alert.url)
    return {"email"}


def _emailed_since_last_look(alert: Alert) -> bool:
    looked = (
        TablePresence.objects.filter(player=alert.player, table=alert.table)
        .values_list("looked_at", flat=True)
        .first()
    )
    earlier = SentAlert.objects.filter(
        player=alert.player, table=alert.table, kind="your_move", channel="email"
    )
    return (earlier.filter(created_at__gt=looked) if looked else earlier).exists()


def _later(alert: Alert, when: dt.datetime) -> None:
    scheduling.deliver_later(alert.kind, alert.player.pk, alert.table.pk, alert.occasion, when)


# Another room's alerts about a table (tables.tournaments.alerts), by kind: the alert again when
# its delivery was put off, or None once it is no longer news.
REBUILDERS: dict[str, Callable[[Player, Table, str], Alert | None]] = {}


def deliver_later(kind: str, player_id: int, table_id: int, occasion: str) -> set[str]:
    """A delivery put off (quiet hours, not away yet): sent only if it is still news."""
    alert = rebuild(kind, player_id, table_id, occasion)
    return set() if alert is None else deliver(alert, deferred=True)


def rebuild(kind: str, player_id: int, table_id: int, occasion: str) -> Alert | None:
    """The alert again, or None when the occasion has passed (the turn was played...)."""
    try:
        table = selectors.get_table(table_id)
    except NotFound:
        return None
    seat = table.seat_of(Player(pk=player_id))
    if seat is None:
        return None
    player = table.seats[seat]
    assert player is not None  # seat_of found the player there
    if kind in ("your_move", "reminder"):
        deal = table.current_deal
        if deal is None or deal.status != Deal.Status.PLAYING or deal.to_play != seat:
            return None
        if turn_occasion(deal) != occasion or clock_stopped_for(table, seat, timezone.now()):
            return None
        alert = Alert(kind, player, table, occasion, _names(table, seat))
        return _with_time_left(alert, deal, timezone.now()) if kind == "reminder" else alert
    if kind == "rematch_offer":
        return Alert(kind, player, table, occasion, _names(table, seat))
    if kind in REBUILDERS:
        return REBUILDERS[kind](player, table, occasion)
    again = Alerts.CHAT if kind == "chat" else Alerts.TURN  # a message, or the match's end
    candidates = [alert for alert in alerts_for(table, again) if alert.player.pk == player_id]
    return next((alert for alert in candidates if alert.occasion == occasion), None)


# -- reminders ------------------------------------------------------------------------------


def send_due_reminders(now: dt.datetime | None = None) -> int:
    """One reminder per slow turn once its player's reminder time came (prefs.reminder_at: 80% of
    the turn gone unless they chose otherwise), if the player has not looked. Each sweep reads the
    deadline and the setting from the database, so a change of either holds from the next sweep."""
    now = now or timezone.now()
    rows = Table.objects.filter(
        turn_seconds__gte=REMINDER_MIN_TURN_SECONDS,
        current_deal__status=Deal.Status.PLAYING,
        current_deal__match__status=Match.Status.PLAYING,
        current_deal__deadline__gt=now,
        current_deal__paused_left__isnull=True,  # a clock stopped for a vacation keeps its time
    ).select_related("seat0", "seat1", "current_deal", "current_deal__match")
    sent = 0
    for table in rows:
        deal = table.current_deal
        assert deal is not None and deal.deadline is not None and deal.to_play is not None  # the filter
        player = table.seats[deal.to_play]
        if player is None or player.is_bot:
            continue
        due = prefs.of(player).reminder_due(deal.deadline, table.turn_seconds)
        if due is None or now < due:  # the player's own timing (prefs.reminder_at), read each sweep
            continue
        if clock_stopped_for(table, deal.to_play, now):
            continue  # the vacation began this turn: the sweep stops this clock, nothing to remind
        # The turn began a turn clock and its player's bank before the deadline (the reminder
        # comes before the server would play: in the bank, when the table has one).
        held = table.turn_seconds + bank_held(table, deal, deal.to_play)
        started = deal.deadline - dt.timedelta(seconds=held)
        alert = Alert("reminder", player, table, turn_occasion(deal), _names(table, deal.to_play))
        alert = _with_time_left(alert, deal, now)
        if presence.looked_since(player.pk, table.pk, started) or not _decide_reminder(alert):
            continue
        deliver(alert, now=now)
        sent += 1
    return sent


def _with_time_left(alert: Alert, deal: Deal, now: dt.datetime) -> Alert:
    """A reminder's time left, and what happens when it runs out."""
    assert deal.deadline is not None  # a deal in play has a turn clock
    left, instead = (
        (deal.deadline - now).total_seconds(),
        vacation_day_instead(alert.player, alert.table, deal.deadline),
    )
    alert.context |= {"left": duration(left, alert.lang), "then": reminder_then(alert.lang, instead)}
    return alert


def _decide_reminder(alert: Alert) -> bool:
    """The reminder decided once, and its inbox line written, in one transaction: the sweep run
    twice, or two at once, decides and writes it once."""
    with transaction.atomic():
        if not claim(alert, "decided"):
            return False
        path = reverse("table", args=[alert.table.invite_token])
        inbox_lines.keep(alert.player, alert.kind, alert.occasion, *alert.texts(), path)
    return True


def pending_tables(player: Player) -> list[str]:
    """The tokens of the player's tables where something is up to them (their move...)."""
    return [
        row["table"]
        for row in (payloads.my_table_row(table, player) for table in selectors.tables_of(player))
        if row["your_move"]
    ]
