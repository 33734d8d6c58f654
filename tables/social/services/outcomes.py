"""The inbox lines of staff's actions, written in the transaction that logs them
(tables.social.services.moderation): the warned player reads why, and the reporter of a report
closed as handled reads that it was. In the player's language; one line per action (its
occasion), so an action's lines are written once with it, or not at all if it rolls back."""

from __future__ import annotations

from django.urls import reverse
from django.utils import translation

from tables.alerts import services as inbox_lines
from tables.alerts import texts
from tables.social.models import ModerationAction


def tell_outcomes(actions: list[ModerationAction]) -> None:
    for action in actions:
        report = action.report
        if action.kind == ModerationAction.Kind.WARN:
            with translation.override(texts.language(action.player.language)):
                reason = str(report.get_reason_display()) if report is not None else action.reason
            inbox_lines.tell(action.player, "warning", f"warning:{action.pk}", reverse("help"), reason=reason)
        elif action.kind == ModerationAction.Kind.HANDLE and report is not None:
            path = reverse("player", args=[report.reported_id])
            occasion = f"report:{report.pk}"
            inbox_lines.tell(report.reporter, "report_handled", occasion, path, name=report.reported.name)
