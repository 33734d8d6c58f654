"""The one-click unsubscribe page (the signed link works without logging in) and the inbox page
(/me/inbox/: its lines, newest first; opening a line marks it read; a button marks all read)."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.utils import translation
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods

from tables.accounts import identity
from tables.accounts.models import Player
from tables.alerts import emails, inbox, prefs
from tables.alerts.models import InboxItem
from tables.alerts.texts import language


@csrf_exempt  # mail clients POST "List-Unsubscribe=One-Click" without a CSRF token (RFC 8058)
@require_http_methods(["GET", "POST"])
def unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    """GET (the link in the email) and POST (the mail client's one-click button) both
    unsubscribe at once; the page says what stopped and how to choose again."""
    found = emails.read_unsubscribe_token(token)
    player = Player.objects.filter(pk=found[0]).first() if found else None
    if found is None or player is None:
        return render(request, "alerts/unsubscribe_invalid.html", status=400)
    kind = found[1]
    if kind is not None and kind not in prefs.KINDS:
        return render(request, "alerts/unsubscribe_invalid.html", status=400)
    player.alert_prefs = prefs.without_email(player.alert_prefs, kind)
    player.save(update_fields=["alert_prefs"])
    with translation.override(language(player.language)):
        return render(request, "alerts/unsubscribed.html", {"player": player, "kind": kind})


@require_http_methods(["GET", "POST"])
def inbox_page(request: HttpRequest) -> HttpResponse:
    """The visitor's inbox; POST marks every line read."""
    player = identity.player_for_request(request)
    if request.method == "POST":
        if player is not None:
            inbox.mark_read(player, None)
        return redirect("inbox")
    rows = inbox.lines(player) if player is not None else []
    context = {"player": player, "rows": rows, "kept_days": inbox.INBOX_DAYS}
    return render(request, "alerts/inbox.html", context)


def inbox_open(request: HttpRequest, line_id: int) -> HttpResponseRedirect:
    """Open a line: it is read from now on, and the page it is about opens."""
    player = identity.player_for_request(request)
    line = InboxItem.objects.filter(pk=line_id, player=player).first() if player is not None else None
    if line is None or player is None:
        raise Http404
    inbox.mark_read(player, [line.pk])
    return HttpResponseRedirect(line.path if line.path.startswith("/") else "/")
