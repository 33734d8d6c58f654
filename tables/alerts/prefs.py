"""Alert preferences, stored as ``Player.alert_prefs``::

    {"your_move": ["site", "push", "email"], "reminder": [...], "chat": [...],
     "rematch_offer": [...], "match_over": [...], "challenge": [...], "auto_vacation": [...],
     "tournament_match": [...],
     "quiet_hours": {"start": "22:00", "end": "08:00"} or null,   # in Player.time_zone
     "digest": false,                                              # one daily email instead
     "every_challenge_email": false,   # else one challenge email a day per challenger
     "reminder_at": "80%"}   # the "your turn" reminder of a slow turn: "50%", "80%" or "90%"
                             # of the turn gone, "6h" (1 to 168 hours) before the deadline, "off"

A kind missing from the stored dict takes its default, so new kinds reach old accounts.
"""

from __future__ import annotations

import datetime as dt
import zoneinfo
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext

from tables.core.errors import BadRequest

KINDS = (
    "your_move",
    "reminder",
    "chat",
    "rematch_offer",
    "match_over",
    "challenge",
    "auto_vacation",
    "tournament_match",
)
CHANNELS = ("site", "push", "email")
SWITCHES = ("quiet_hours", "digest", "every_challenge_email", "reminder_at")  # the keys besides the kinds
DEFAULT_CHANNELS = {
    "your_move": ("site", "push", "email"),
    "reminder": ("site", "push", "email"),
    "chat": ("site", "push"),
    "rematch_offer": ("site", "push", "email"),
    "match_over": ("site", "push"),
    "challenge": ("site", "push", "email"),  # a challenge received, or yours answered
    "auto_vacation": ("site", "push", "email"),  # a turn that would time out started a vacation day
    "tournament_match": ("site", "push", "email"),  # an event's new round opened the player's match
}


SUGGESTED_QUIET_HOURS = {"start": "22:00", "end": "08:00"}  # what the page offers while they are off
# When the "your turn" reminder of a slow turn comes: a share of the turn's time gone, some hours
# before the deadline, or never. 80% is a day-long turn's last 4.8 hours: time to move after work.
REMINDER_SHARES = ("50%", "80%", "90%")
DEFAULT_REMINDER_AT = "80%"
REMINDER_OFF = "off"
REMINDER_HOURS = range(1, 169)  # "Nh": up to a week before the deadline
SUGGESTED_REMINDER_HOURS = 6  # what the page offers while the reminder is not set in hours


def defaults_for_page() -> dict[str, list[str]]:
    """Each kind's default channels, for the profile page's script (json_script "alert-defaults"):
    a kind the player never set shows ticked as it is served."""
    return {kind: list(DEFAULT_CHANNELS[kind]) for kind in KINDS}


@dataclass(frozen=True)
class Prefs:
    channels: dict[str, frozenset[str]]
    quiet_start: dt.time | None
    quiet_end: dt.time | None
    digest: bool
    time_zone: str
    every_challenge_email: bool = False
    reminder_at: str = DEFAULT_REMINDER_AT

    def reminder_due(self, deadline: dt.datetime, turn_seconds: int) -> dt.datetime | None:
        """When the reminder of a turn due at ``deadline`` comes; None: never (off, or set
        more hours before the deadline than the turn lasts: "your move" has just said it)."""
        if self.reminder_at == REMINDER_OFF:
            return None
        started = deadline - dt.timedelta(seconds=turn_seconds)
        if self.reminder_at in REMINDER_SHARES:
            gone = int(self.reminder_at.removesuffix("%")) / 100
            return started + dt.timedelta(seconds=turn_seconds * gone)
        due = deadline - dt.timedelta(hours=int(self.reminder_at.removesuffix("h")))
        return due if due > started else None

    def wants(self, kind: str, channel: str) -> bool:
        return channel in self.channels.get(kind, frozenset())

    def quiet_until(self, now: dt.datetime) -> dt.datetime | None:
        """When the quiet hours around ``now`` end, or None outside quiet hours."""
        if self.quiet_start is None or self.quiet_end is None or self.quiet_start == self.quiet_end:
            return None
        local = now.astimezone(_zone(self.time_zone))
        start, end, clock = self.quiet_start, self.quiet_end, local.time()
        inside = start <= clock < end if start < end else clock >= start or clock < end
        if not inside:
            return None
        end_day = local.date() if clock < end else local.date() + dt.timedelta(days=1)
        return dt.datetime.combine(end_day, end, tzinfo=local.tzinfo).astimezone(dt.UTC)


def _zone(name: str) -> dt.tzinfo:
    try:
        return zoneinfo.ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return dt.UTC


def _parse_time(value: Any, field: str) -> dt.time:
    try:
        return dt.time.fromisoformat(value)
    except (TypeError, ValueError):
        raise BadRequest(f"{field} must be a time such as 22:30.", field=field) from None


def clean(raw: Any) -> dict[str, Any]:
    """Checked, complete preferences from what a client sent; raises BadRequest."""
    if not isinstance(raw, dict):
        raise BadRequest("alert_prefs must be an object.", field="alert_prefs")
    unknown = set(raw) - {*KINDS, *SWITCHES}
    if unknown:
        raise BadRequest(f"Unknown alert preference {sorted(unknown)[0]!r}.", field="alert_prefs")
    cleaned: dict[str, Any] = {}
    for kind in KINDS:
        channels = raw.get(kind, list(DEFAULT_CHANNELS[kind]))
        if not isinstance(channels, list) or not set(channels) <= set(CHANNELS):
            raise BadRequest(f"alert_prefs.{kind} must list some of {', '.join(CHANNELS)}.", field=kind)
        cleaned[kind] = [channel for channel in CHANNELS if channel in channels]
    cleaned["quiet_hours"] = _clean_quiet_hours(raw.get("quiet_hours"))
    for switch in ("digest", "every_challenge_email"):
        value = raw.get(switch, False)
        if not isinstance(value, bool):
            raise BadRequest(f"alert_prefs.{switch} must be true or false.", field=switch)
        cleaned[switch] = value
    cleaned["reminder_at"] = _clean_reminder_at(raw.get("reminder_at", DEFAULT_REMINDER_AT))
    return cleaned


def _clean_reminder_at(value: Any) -> str:
    if value in (*REMINDER_SHARES, REMINDER_OFF):
        return str(value)
    hours = value.removesuffix("h") if isinstance(value, str) and value.endswith("h") else ""
    if not hours.isdigit() or int(hours) not in REMINDER_HOURS:
        choices = ", ".join(f'"{choice}"' for choice in (*REMINDER_SHARES, REMINDER_OFF))
        raise BadRequest(
            f"alert_prefs.reminder_at must be {choices} or hours before the deadline, "
            f'"1h" to "{REMINDER_HOURS[-1]}h".',
            field="reminder_at",
        )
    return f"{int(hours)}h"


def _clean_quiet_hours(value: Any) -> dict[str, str] | None:
    if value is None:
        return None
    if not isinstance(value, dict) or set(value) != {"start", "end"}:
        raise BadRequest("quiet_hours must be null or {start, end}.", field="quiet_hours")
    start = _parse_time(value["start"], "quiet_hours.start")
    end = _parse_time(value["end"], "quiet_hours.end")
    return {"start": start.strftime("%H:%M"), "end": end.strftime("%H:%M")}


def of(player: Any) -> Prefs:
    """The player's effective preferences (defaults filled in; bad stored values ignored)."""
    data = of_stored(player.alert_prefs)
    quiet = data["quiet_hours"]
    return Prefs(
        channels={kind: frozenset(data[kind]) for kind in KINDS},
        quiet_start=dt.time.fromisoformat(quiet["start"]) if quiet else None,
        quiet_end=dt.time.fromisoformat(quiet["end"]) if quiet else None,
        digest=data["digest"],
        time_zone=player.time_zone or "UTC",
        every_challenge_email=data["every_challenge_email"],
        reminder_at=data["reminder_at"],
    )


def without_email(stored: Any, kind: str | None) -> dict[str, Any]:
    """The preferences after a one-click unsubscribe from ``kind`` emails (None: every email)."""
    data = clean(stored if isinstance(stored, dict) else {})
    for name in KINDS if kind is None else (kind,):
        data[name] = [channel for channel in data[name] if channel != "email"]
    if kind is None:
        data["digest"] = False
    return data


def quiet_hours_for_page(stored: Any) -> dict[str, Any]:
    """The profile's quiet hours form: whether they are on, and the times it shows (the stored
    ones, else the server's suggestion)."""
    quiet = of_stored(stored)["quiet_hours"]
    return {"on": quiet is not None, **(quiet or SUGGESTED_QUIET_HOURS)}


def of_stored(stored: Any) -> dict[str, Any]:
    """Checked, complete preferences from what is stored (defaults for a bad stored value)."""
    data = stored if isinstance(stored, dict) else {}
    try:
        return clean({key: value for key, value in data.items() if key in {*KINDS, *SWITCHES}})
    except BadRequest:
        return clean({})


def with_quiet_hours(stored: Any, on: bool, start: str, end: str) -> dict[str, Any]:
    """The preferences after the profile's quiet hours form: off, or from ``start`` to ``end``
    (times such as 22:30 in the account's time zone). Raises BadRequest in the page's language."""
    data = of_stored(stored)
    if not on:
        data["quiet_hours"] = None
        return data
    times = []
    for value, field in ((start, "quiet_start"), (end, "quiet_end")):
        try:
            times.append(dt.time.fromisoformat(value))
        except ValueError:
            raise BadRequest(gettext("Give the quiet hours as times such as 22:30."), field=field) from None
    if times[0] == times[1]:
        raise BadRequest(gettext("Quiet hours must start and end at different times."), field="quiet_end")
    data["quiet_hours"] = {"start": times[0].strftime("%H:%M"), "end": times[1].strftime("%H:%M")}
    return data


def reminder_for_page(stored: Any) -> dict[str, Any]:
    """The profile's reminder form: the choices in the page's language, the one made (the
    server's default unless set) and the hours it offers."""
    at = of_stored(stored)["reminder_at"]
    in_hours = at.endswith("h")
    choices = [
        ("50%", gettext("When half the turn's time has gone")),
        ("80%", gettext("When 80% of the turn's time has gone")),
        ("90%", gettext("When 90% of the turn's time has gone")),
        ("hours", gettext("Some hours before the deadline")),
        (REMINDER_OFF, gettext("Never")),
    ]
    return {
        "choices": choices,
        "chosen": "hours" if in_hours else at,
        "hours": int(at.removesuffix("h")) if in_hours else SUGGESTED_REMINDER_HOURS,
        "max_hours": REMINDER_HOURS[-1],
    }


def with_reminder_at(stored: Any, chosen: str, hours: str) -> dict[str, Any]:
    """The preferences after the profile's reminder form: one of its choices, "hours" with
    ``hours`` before the deadline. Raises BadRequest in the page's language."""
    data = of_stored(stored)
    if chosen in (*REMINDER_SHARES, REMINDER_OFF):
        data["reminder_at"] = chosen
        return data
    if chosen != "hours":
        raise BadRequest(gettext("Choose when the reminder comes."), field="reminder_at")
    if not hours.strip().isdigit() or int(hours) not in REMINDER_HOURS:
        message = gettext("Give the hours before the deadline as a whole number from 1 to %(most)d.")
        raise BadRequest(message % {"most": REMINDER_HOURS[-1]}, field="reminder_hours")
    data["reminder_at"] = f"{int(hours)}h"
    return data
