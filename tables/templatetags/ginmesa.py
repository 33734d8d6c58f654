"""Template helpers of the site's pages."""

from __future__ import annotations

from django import template
from django.utils.translation import gettext, ngettext

from tables.accounts import identity
from tables.accounts.models import Player
from tables.live.routing import websocket_urlpatterns

register = template.Library()


@register.simple_tag
def socket_routes() -> str:
    """The websocket paths the server answers ("tables me"), so that a page never dials a socket
    that is not there (each refused dial is a console error) and polls instead."""
    found = []
    for pattern in websocket_urlpatterns:
        text = str(pattern.pattern)
        if "tables" in text:
            found.append("tables")
        elif "me" in text:
            found.append("me")
    return " ".join(sorted(set(found)))


@register.simple_tag(takes_context=True)
def current_player(context: template.Context) -> Player | None:
    """The visitor's player (account or guest), or None: the header's pending-moves badge needs it."""
    request = context.get("request")
    return identity.player_for_request(request) if request is not None else None


@register.filter
def clock_label(seconds: int | None) -> str:
    """A turn clock as people say it: "45 s", "1 min 30 s", "10 min", "12 h", "3 days"."""

    if not seconds:
        return "—"
    if seconds < 60:
        return gettext("%(count)s s") % {"count": seconds}
    if seconds < 3600:
        minutes, rest = divmod(seconds, 60)
        if rest:
            return gettext("%(minutes)s min %(seconds)s s") % {"minutes": minutes, "seconds": rest}
        return gettext("%(count)s min") % {"count": minutes}
    if seconds < 86400:
        return gettext("%(count)s h") % {"count": seconds // 3600}
    days = seconds // 86400
    return ngettext("%(count)s day", "%(count)s days", days) % {"count": days}


@register.filter
def status_label(status: str) -> str:
    labels = {
        "waiting": gettext("waiting for a player"),
        "ready": gettext("ready to start"),
        "playing": gettext("playing"),
        "between_deals": gettext("between deals"),
        "match_over": gettext("match over"),
    }
    return labels.get(status, status)
