"""Alert preferences, stored as ``Player.alert_prefs``::

    {"your_move": ["site", "push", "email"], "reminder": [...], "chat": [...],
     "rematch_offer": [...], "match_over": [...], "challenge": [...],
     "quiet_hours": {"start": "22:00", "end": "08:00"} or null,   # in Player.time_zone
     "digest": false,                                              # one daily email instead
     "every_challenge_email": false}   # else one challenge email a day per challenger

A kind missing from the stored dict takes its default, so new kinds reach old accounts.
"""

from __future__ import annotations

import datetime as dt
import zoneinfo
from dataclasses import dataclass
from typing import Any

from tables.core.errors import BadRequest

KINDS = ("your_move", "reminder", "chat", "rematch_offer", "match_over", "challenge")
CHANNELS = ("site", "push", "email")
SWITCHES = ("quiet_hours", "digest", "every_challenge_email")  # the keys besides the kinds
DEFAULT_CHANNELS = {
    "your_move": ("site", "push", "email"),
    "reminder": ("site", "push", "email"),
    "chat": ("site", "push"),
    "rematch_offer": ("site", "push", "email"),
    "match_over": ("site", "push"),
    "challenge": ("site", "push", "email"),  # a challenge received, or yours answered
}


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
    return cleaned


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
    stored = player.alert_prefs if isinstance(player.alert_prefs, dict) else {}
    try:
        data = clean({key: value for key, value in stored.items() if key in {*KINDS, *SWITCHES}})
    except BadRequest:
        data = clean({})
    quiet = data["quiet_hours"]
    return Prefs(
        channels={kind: frozenset(data[kind]) for kind in KINDS},
        quiet_start=dt.time.fromisoformat(quiet["start"]) if quiet else None,
        quiet_end=dt.time.fromisoformat(quiet["end"]) if quiet else None,
        digest=data["digest"],
        time_zone=player.time_zone or "UTC",
        every_challenge_email=data["every_challenge_email"],
    )


def without_email(stored: Any, kind: str | None) -> dict[str, Any]:
    """The preferences after a one-click unsubscribe from ``kind`` emails (None: every email)."""
    data = clean(stored if isinstance(stored, dict) else {})
    for name in KINDS if kind is None else (kind,):
        data[name] = [channel for channel in data[name] if channel != "email"]
    if kind is None:
        data["digest"] = False
    return data
