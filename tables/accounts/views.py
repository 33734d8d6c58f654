"""The accounts' own pages: where the account is logged in (/me/sessions/), ending one session
or every other one; a new API token (/me/tokens/new/); declaring a bot account (/me/bot/); deleting the account (/me/delete/); downloading its data (/me/export/). The profile itself, with the list of
tokens, is served with the tables' pages (tables/play/views.py)."""

from __future__ import annotations

import datetime as dt
import zoneinfo

from allauth.account.decorators import reauthentication_required
from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import translation
from django.views.decorators.http import require_POST

from tables.accounts import export_links, identity
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


@login_required
@require_POST
def declare_bot_account(request: HttpRequest) -> HttpResponse:
    """The profile's MAKE THIS A BOT ACCOUNT form, with its box ticked: for good."""
    assert isinstance(request.user, User)  # login_required
    if request.POST.get("confirm") != "yes":
        messages.error(request, translation.gettext("Tick the box to make this a bot account."))
        return redirect("profile")
    try:
        account_services.declare_bot_account(identity.player_for_user(request.user))
    except ServiceError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, translation.gettext("This account is a bot account now."))
    return redirect("profile")


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


@login_required
@reauthentication_required  # type: ignore[untyped-decorator]
def delete_account(request: HttpRequest) -> HttpResponse:
    """After allauth's reauthentication (the password, or a second factor, within 5 minutes):
    GET asks to confirm, POST with ``confirm`` deletes the account and logs this browser out."""
    assert isinstance(request.user, User)  # login_required
    if request.method != "POST":
        return render(request, "tables/delete_account.html")
    if request.POST.get("confirm") != "yes":
        messages.error(
            request, translation.gettext("Tick the box to confirm that the account is to be deleted.")
        )
        return redirect("delete_account")
    try:
        account_services.delete_account(request.user)
    except ServiceError as error:
        messages.error(request, error.message)
        return redirect("profile")
    logout(request)
    messages.success(
        request, translation.gettext("Your account is deleted. Goodbye, and thank you for playing.")
    )
    return redirect(reverse("home"))


@login_required
def data_export_page(request: HttpRequest) -> HttpResponse:
    """GET: the archive's state and link; POST: ask for a new one (built in the background)."""
    assert isinstance(request.user, User)  # login_required
    player = identity.player_for_user(request.user)
    if request.method == "POST":
        export_links.ask_for_export(player)
        messages.success(
            request, translation.gettext("Your archive is being made: this page offers it when ready.")
        )
        return redirect("data_export")
    export = export_links.export_row(account_services.latest_export(player))
    return render(request, "tables/data_export.html", {"export": export})


@login_required
def data_export_download(request: HttpRequest, key: str) -> HttpResponse:
    """The archive itself, to its own account only, while its signed link lasts (7 days)."""
    assert isinstance(request.user, User)  # login_required
    export = account_services.export_by_key(key, identity.player_for_user(request.user))
    if export is None:
        raise Http404("That link has expired or is not yours: ask for a new archive.")
    response = HttpResponse(export.content, content_type="application/json; charset=utf-8")
    day = export.created_at.date().isoformat()
    response["Content-Disposition"] = f'attachment; filename="ginmesa-data-{day}.json"'
    response["Cache-Control"] = "private, no-store"
    return response
