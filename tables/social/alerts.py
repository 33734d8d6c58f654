"""The inbox lines that follow staff's actions (tables.social.services.moderation), written once
the actions are committed (tables.social.announcements): the warned player reads why, and the
reporter of a report closed as handled reads that it was. In the player's language; one line per
action (its occasion), so an announcement heard twice keeps one line."""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from django.utils import translation

from tables.accounts.models import Player
from tables.alerts import inbox, texts
from tables.social.models import ModerationAction


def on_moderated(sender: Any, action_ids: list[int], **kwargs: Any) -> None:
    """Receiver of tables.social.announcements.moderated."""
    rows = ModerationAction.objects.filter(pk__in=action_ids).select_related(
        "player", "report__reporter", "report__reported"
    )
    for action in rows:
        report = action.report
        if action.kind == ModerationAction.Kind.WARN:
            with translation.override(texts.language(action.player.language)):
                reason = str(report.get_reason_display()) if report is not None else action.reason
            _tell(action.player, "warning", f"warning:{action.pk}", reverse("help"), reason=reason)
        elif action.kind == ModerationAction.Kind.HANDLE and report is not None:
            path = reverse("player", args=[report.reported_id])
            _tell(report.reporter, "report_handled", f"report:{report.pk}", path, name=report.reported.name)


def _tell(player: Player, kind: str, occasion: str, path: str, **context: object) -> None:
    title, body = texts.render(kind, player.language, **context)
    inbox.keep(player, kind, occasion, title, body, path)  # the bell counts again once it is committed
