"""The account's bodies in the JSON API: profile, vacation, API tokens, sessions (/api/openapi.json)."""

from __future__ import annotations

import datetime as dt
from typing import Any, Literal

from ninja import Schema
from pydantic import Field


class TokenIn(Schema):
    name: str = Field("", max_length=60)
    scope: Literal["read", "play"] = Field(
        "play", description='"read": reads only (GET, watching); "play": also plays, chats and changes things'
    )
    expires_at: dt.datetime | None = Field(
        None, description="when it stops working (in the future); none: until revoked"
    )


ALERT_PREFS = (
    "per kind of alert (your_move, reminder, chat, rematch_offer, match_over, challenge, auto_vacation, "
    'tournament_match) the channels, some of "site", "push", "email"; quiet_hours {start, end} (times of time_zone) or '
    'null; digest and every_challenge_email (bool); reminder_at: when the "your turn" reminder of a '
    'slow turn comes, "50%", "80%" or "90%" of the turn gone, "1h" to "168h" before the deadline, or '
    '"off". A key left out takes the server\'s default ("80%" for reminder_at)'
)


class ProfileIn(Schema):
    display_name: str | None = Field(None, max_length=40)
    deck_design: str | None = None
    language: str | None = None
    time_zone: str | None = Field(None, max_length=64)
    alert_prefs: dict[str, Any] | None = Field(None, description=ALERT_PREFS)


class VacationOut(Schema):
    until: str | None = Field(description="while on vacation: when it ends")
    last_day: str | None = Field(description="while on vacation: its last day, in the account's time zone")
    allowance_days: int = Field(description="vacation days per calendar year")
    year: int = Field(description="the current year, in the account's time zone")
    days_left: int = Field(description="days of this year's allowance not yet used")
    automatic: bool = Field(
        description="automatic vacation: a slow turn that would time out starts a day of vacation instead"
    )


class ProfileOut(Schema):
    display_name: str
    is_guest: bool
    deck_design: str
    language: str
    time_zone: str
    alert_prefs: dict[str, Any] = Field(description=ALERT_PREFS)
    vacation: VacationOut
    bot_account_at: str | None = Field(
        description="when the account declared itself a bot account (POST /api/me/bot); null: a person"
    )


class VacationIn(Schema):
    until: dt.date = Field(description="the vacation's last day, in the account's time zone")


class AutomaticVacationIn(Schema):
    automatic: bool = Field(description="opt in to automatic vacation (true) or out (false)")


class TokenOut(Schema):
    id: int
    name: str
    prefix: str
    scope: str = Field(description='"read" or "play"')
    created_at: str
    expires_at: str | None = Field(description="when it stops working; null: until revoked")
    last_used_at: str | None = Field(description="its last use, to within five minutes")


class NewTokenOut(TokenOut):
    token: str = Field(description="the token itself: shown this once, never again")


class TokensOut(Schema):
    tokens: list[TokenOut]


class RevokedOut(Schema):
    revoked: int


class SessionOut(Schema):
    id: int
    browser: str = Field(description="the browser and system, from its User-Agent")
    user_agent: str
    address: str = Field(description="the address of its last request")
    created_at: str = Field(description="when it logged in")
    last_seen_at: str = Field(description="its last request, to within a minute")
    current: bool = Field(description="the session making this call")


class SessionsOut(Schema):
    sessions: list[SessionOut]


class EndedOut(Schema):
    ended: int = Field(description="how many sessions were ended")


class DeleteAccountIn(Schema):
    password: str | None = Field(
        None,
        description="the account's password; may be left out within 5 minutes of a login or reauthentication",
    )
    confirm: bool = Field(description="true: delete the account for good")


class DeletedOut(Schema):
    deleted: bool


class DataExportOut(Schema):
    status: str = Field(description='"pending" (being built), "ready" or "failed"; "none" before any')
    created_at: str | None
    ready_at: str | None
    expires_at: str | None = Field(description="when the link stops working (7 days after it is ready)")
    url: str | None = Field(description="the signed download link, once ready (a logged-in browser)")
