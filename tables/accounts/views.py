"""The accounts' own pages: where the account is logged in (/me/sessions/), ending one session
or every other one; a new API token (/me/tokens/new/). The profile itself, with the list of
tokens, is served with the tables' pages (tables/play/views.py)."""

from __future__ import annotations

import datetime as dt
import zoneinfo

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import translation
from django.views.decorators.http import require_POST

from tables.accounts import identity
from tables.accounts import payloads as account_payloads
from tables.accounts import services as account_services
from tables.core.errors import BadRequest, ServiceError


@login_required
def sessions_page(request: HttpRequest) -> HttpResponse:
    """GET: the account's sessions, this one marked; POST ``end``: a session's id, or ``others``."""
    assert isinstance(request.user, User)  # login_required
    current = request.session.session_key
    if request.method == "POST":
        end = request.POST.get("end", "")
        if end == "others":
            account_services.end_other_sessions(request.user, current)
            messages.success(request, translation.gettext("Every other session is logged out."))
        elif end.isdigit() and account_services.end_session(request.user, int(end), current):
            messages.success(request, translation.gettext("That session is logged out."))
        return redirect("sessions")
    rows = [
        {**account_payloads.session_row(row, current), "seen": row.last_seen_at}
        for row in account_services.live_sessions(request.user)
    ]
    context = {"sessions": rows, "others": sum(not row["current"] for row in rows)}
    return render(request, "tables/sessions.html", context)


@login_required
@require_POST
def create_token(request: HttpRequest) -> HttpResponse:
    """The profile's NEW TOKEN form: a name, read-only or to play, an optional last day (the
    account's time zone). The token is shown on this answer only, never stored or sent again."""
    assert isinstance(request.user, User)  # login_required
    player = identity.player_for_user(request.user)
    try:
        token, raw = identity.issue_api_token(
            request.user,
            request.POST.get("name", ""),
            request.POST.get("scope", ""),
            _end_of_day(request.POST.get("last_day", ""), player.time_zone),
        )
    except ServiceError as error:
        messages.error(request, error.message)
        return redirect("profile")
    return render(request, "tables/token_created.html", {"token": token, "raw": raw})


def _end_of_day(value: str, time_zone: str) -> dt.datetime | None:
    """The end of a day ("YYYY-MM-DD") in the account's time zone; None for no day."""
    if not value:
        return None
    try:
        day = dt.date.fromisoformat(value) + dt.timedelta(days=1)
    except (ValueError, OverflowError):
        raise BadRequest(
            translation.gettext("Choose the token's last day, or none."), field="last_day"
        ) from None
    return dt.datetime.combine(day, dt.time(), tzinfo=zoneinfo.ZoneInfo(time_zone))
