"""The one-click unsubscribe page: the signed link works without logging in."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import translation
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods

from tables.accounts.models import Player
from tables.alerts import emails, prefs
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
