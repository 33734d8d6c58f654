"""The accounts' own pages: where the account is logged in (/me/sessions/), ending one session
or every other one. The profile itself is served with the tables' pages (tables/play/views.py)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import translation

from tables.accounts import payloads as account_payloads
from tables.accounts import services as account_services


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
