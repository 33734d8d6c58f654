"""Template helpers of the archive: outcome names, and the table page's list of its finished
matches and link to a match that ends while it is open (shown only to whom may see them: the
players, anyone at a public table, staff)."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.translation import gettext

from tables.accounts import identity
from tables.accounts.models import Player
from tables.archive import selectors as archive
from tables.play import texts
from tables.play.models import Table

register = template.Library()


@register.filter
def match_outcome_label(outcome: str | None) -> str:
    labels = {
        "completed": gettext("played to the end"),
        "resigned": gettext("resigned"),
        "forfeit": gettext("forfeit on time"),
    }
    return labels.get(outcome or "", gettext("in play"))


@register.filter
def deal_outcome_label(outcome: str | None) -> str:
    return texts.outcome_labels().get(outcome or "", outcome or "")


@register.filter
def deal_status_label(status: str) -> str:
    labels = {
        "playing": gettext("in play"),
        "over": gettext("played out"),
        "abandoned": gettext("cut short: its hands stay hidden"),
    }
    return labels.get(status, status)


@register.inclusion_tag("tables/_table_archive.html", takes_context=True)
def table_archive(context: template.Context, table: Table) -> dict[str, Any]:
    """The table's latest finished matches, each linking to its archive page."""
    viewer, staff = _viewer(context)
    return {"matches": archive.finished_matches_at(table, viewer, staff)}


@register.simple_tag(takes_context=True)
def matches_open_to_viewer(context: template.Context, table: Table) -> str:
    """Return "1" when the viewer may see the table's finished matches as the page is served. The page
    also links them once the viewer takes a seat there (a seat opens them), with no reload."""
    viewer, staff = _viewer(context)
    return "1" if archive.may_view_matches_at(table, viewer, staff) else ""


def _viewer(context: template.Context) -> tuple[Player | None, bool]:
    request = context.get("request")
    viewer = identity.player_for_request(request) if request is not None else None
    user = getattr(request, "user", None)
    return viewer, bool(user is not None and user.is_staff)
