"""What an account's owner sees of it, as JSON-able dicts: profile, vacation, API tokens, sessions."""

from __future__ import annotations

import datetime as dt
from typing import Any

from allauth.usersessions.models import UserSession
from django.utils import timezone

from tables.accounts import selectors as account_selectors
from tables.accounts import vacation_days
from tables.accounts.models import ApiToken, Player
from tables.alerts import prefs


def profile(player: Player) -> dict[str, Any]:
    return {
        "display_name": player.display_name,
        "is_guest": player.is_guest,
        "deck_design": player.deck_design,
        "language": player.language,
        "time_zone": player.time_zone,
        "alert_prefs": prefs.of_stored(player.alert_prefs),  # complete: the server's defaults filled in
        "vacation": vacation(player),
        "bot_account_at": player.bot_account_at.isoformat() if player.bot_account_at else None,
    }


def vacation(player: Player) -> dict[str, Any]:
    """The player's vacation under way and what is left of this year's allowance (their year)."""
    year = vacation_days.local_day(timezone.now(), player.time_zone).year
    last_day = away_until(player)
    return {
        "until": vacation_until(player),
        "last_day": last_day.isoformat() if last_day else None,
        "allowance_days": vacation_days.ALLOWANCE_DAYS,
        "year": year,
        "days_left": vacation_days.days_left(account_selectors.vacation_days_of(player), year),
        "automatic": player.auto_vacation,
    }


def token_row(token: ApiToken) -> dict[str, Any]:
    """An API token as its account sees it: never its value."""
    return {
        "id": token.id,
        "name": token.name,
        "prefix": token.prefix,
        "scope": token.scope,
        "created_at": token.created_at.isoformat(),
        "expires_at": token.expires_at.isoformat() if token.expires_at else None,
        "last_used_at": token.last_used_at.isoformat() if token.last_used_at else None,
    }


def vacation_until(player: Player) -> str | None:
    """When the player's vacation ends, while it is under way."""
    if player.vacation_until is None or not player.on_vacation(timezone.now()):
        return None
    return player.vacation_until.isoformat()


def away_until(player: Player) -> dt.date | None:
    """The last day (the player's own) of the vacation under way, for the pages; None when none is."""
    if player.vacation_until is None or not player.on_vacation(timezone.now()):
        return None
    return vacation_days.last_day(player.vacation_until, player.time_zone)


_BROWSERS = (("Edg/", "Edge"), ("OPR/", "Opera"), ("SamsungBrowser", "Samsung Internet"), ("Firefox", "Firefox"),
             ("Chrome", "Chrome"), ("Chromium", "Chromium"), ("Safari", "Safari"))  # fmt: skip
_SYSTEMS = (("Android", "Android"), ("iPhone", "iPhone"), ("iPad", "iPad"), ("Windows", "Windows"),
            ("Mac OS X", "macOS"), ("CrOS", "ChromeOS"), ("Linux", "Linux"))  # fmt: skip


def browser_of(user_agent: str) -> str:
    """A browser's User-Agent as a person names it: "Firefox on Windows", or the raw text's start."""
    browser = next((name for mark, name in _BROWSERS if mark in user_agent), None)
    system = next((name for mark, name in _SYSTEMS if mark in user_agent), None)
    if browser and system:
        return f"{browser} · {system}"
    return browser or system or user_agent[:60] or "?"


def session_row(row: UserSession, current_key: str | None) -> dict[str, Any]:
    """One place the account is logged in, as its owner sees it (never the session's key)."""
    return {
        "id": row.pk,
        "browser": browser_of(row.user_agent),
        "user_agent": row.user_agent,
        "address": row.ip,
        "created_at": row.created_at.isoformat(),
        "last_seen_at": row.last_seen_at.isoformat(),
        "current": row.session_key == current_key,
    }
