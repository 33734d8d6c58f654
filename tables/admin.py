"""Admin: review tables, matches, deals and their move logs; hide chat; export replays; the
queue of players' reports."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from django import forms
from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.urls import URLPattern, path, reverse
from django.utils.html import format_html, format_html_join

from tables.accounts.models import ApiToken, Player, Vacation
from tables.play import payloads
from tables.play.models import ChatMessage, Deal, Match, Move, Table
from tables.social import services as social_services
from tables.social.models import Report

PLAYER_SEARCH = ("display_name", "user__email")
CHAT_AROUND = 6  # messages shown before and after a reported one

if TYPE_CHECKING:  # django-stubs' admin classes are generic; Django's are not subscriptable
    ModelAdmin = admin.ModelAdmin[Any]
    TabularInline = admin.TabularInline[Any, Any]
    ModelForm = forms.ModelForm[Any]
else:
    ModelAdmin, TabularInline, ModelForm = admin.ModelAdmin, admin.TabularInline, forms.ModelForm


def _json_download(data: dict[str, Any], filename: str) -> HttpResponse:
    response = HttpResponse(json.dumps(data, indent=2), content_type="application/json")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


class ReadOnlyInline(TabularInline):
    extra = 0
    can_delete = False
    show_change_link = True

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class MoveInline(ReadOnlyInline):
    model = Move
    fields = ("seq", "seat", "action", "card", "source", "actor", "table_version", "created_at")
    readonly_fields = fields


class DealInline(ReadOnlyInline):
    model = Deal
    fields = ("number", "dealer", "status", "outcome", "winner", "points", "decided_by_timeout")
    readonly_fields = fields


class ReadOnlyAdmin(ModelAdmin):
    """Game records are written by tables.play.services only: the admin reviews them."""

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Player)
class PlayerAdmin(ModelAdmin):
    list_display = ("display_name", "user", "is_bot", "bot_level", "language", "created_at")
    list_filter = ("is_bot", "language", "deck_design")
    search_fields = PLAYER_SEARCH
    readonly_fields = ("guest_key", "created_at", "vacation_started_at", "vacation_until")


@admin.register(Vacation)
class VacationAdmin(ReadOnlyAdmin):
    """Vacations are declared and ended by their players (tables.accounts.services.vacation)."""

    list_display = ("player", "first_day", "last_day", "starts_at", "ends_at")
    search_fields = tuple(f"player__{field}" for field in PLAYER_SEARCH)


@admin.register(Table)
class TableAdmin(ReadOnlyAdmin):
    list_display = (
        "pk",
        "ruleset_name",
        "seat0",
        "seat1",
        "turn_seconds",
        "visibility",
        "version",
        "updated_at",
    )
    list_filter = ("ruleset_name", "visibility", "turn_seconds", "created_at")
    search_fields = tuple(f"{seat}__{field}" for seat in ("seat0", "seat1") for field in PLAYER_SEARCH)
    exclude = ("invite_token",)  # the link is a secret: only its seats and viewers hold it


@admin.register(Match)
class MatchAdmin(ReadOnlyAdmin):
    list_display = (
        "pk",
        "table",
        "number",
        "ruleset_name",
        "status",
        "outcome",
        "winner",
        "started_at",
        "replay",
    )
    list_filter = ("table__ruleset_name", "status", "outcome", "decided_by_timeout", "started_at")
    search_fields = tuple(f"table__{seat}__{field}" for seat in ("seat0", "seat1") for field in PLAYER_SEARCH)
    inlines = [DealInline]
    actions = ["export"]

    @admin.display(description="rule set")
    def ruleset_name(self, match: Match) -> str:
        return match.table.ruleset_name

    @admin.display(description="export")
    def replay(self, match: Match) -> str:
        return format_html('<a href="{}">JSON</a>', reverse("admin:tables_match_export", args=[match.pk]))

    def get_urls(self) -> list[URLPattern]:
        export = self.admin_site.admin_view(self.export_view)
        return [path("<int:match_id>/export/", export, name="tables_match_export"), *super().get_urls()]

    def export_view(self, request: HttpRequest, match_id: int) -> HttpResponse:
        match = get_object_or_404(Match, pk=match_id)
        return _json_download(payloads.match_export(match), f"match-{match.pk}.json")

    @admin.action(description="Export the selected matches as JSON")
    def export(self, request: HttpRequest, queryset: QuerySet[Match]) -> HttpResponse:
        data = {"matches": [payloads.match_export(match) for match in queryset]}
        return _json_download(data, "matches.json")


@admin.register(Deal)
class DealAdmin(ReadOnlyAdmin):
    list_display = ("pk", "match", "number", "dealer", "status", "outcome", "winner", "points", "replay_link")
    list_filter = ("match__table__ruleset_name", "status", "outcome", "decided_by_timeout", "started_at")
    search_fields = tuple(
        f"match__table__{seat}__{field}" for seat in ("seat0", "seat1") for field in PLAYER_SEARCH
    )
    exclude = ("deck", "snapshot")
    inlines = [MoveInline]

    @admin.display(description="replay")
    def replay_link(self, deal: Deal) -> str:
        return format_html(
            '<a href="{}">replay</a> · <a href="{}">JSON</a>',
            reverse("replay", args=[deal.pk]),
            reverse("admin:tables_deal_export", args=[deal.pk]),
        )

    def get_urls(self) -> list[URLPattern]:
        export = self.admin_site.admin_view(self.export_view)
        return [path("<int:deal_id>/export/", export, name="tables_deal_export"), *super().get_urls()]

    def export_view(self, request: HttpRequest, deal_id: int) -> HttpResponse:
        deal = get_object_or_404(Deal, pk=deal_id)
        return _json_download(payloads.deal_export(deal), f"deal-{deal.pk}.json")


@admin.register(Move)
class MoveAdmin(ReadOnlyAdmin):
    list_display = ("deal", "seq", "seat", "action", "source", "actor", "created_at")
    list_filter = ("source", "deal__match__table__ruleset_name", "created_at")
    search_fields = ("actor__display_name", "actor__user__email", "action")


@admin.register(ChatMessage)
class ChatMessageAdmin(ModelAdmin):
    list_display = ("table", "author", "channel", "text", "hidden", "created_at")
    list_filter = ("hidden", "channel", "created_at")
    search_fields = ("author__display_name", "author__user__email", "text")
    readonly_fields = ("table", "author", "channel", "text", "created_at")
    actions = ["hide", "unhide"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    @admin.action(description="Hide the selected messages")
    def hide(self, request: HttpRequest, queryset: QuerySet[ChatMessage]) -> None:
        queryset.update(hidden=True)

    @admin.action(description="Show the selected messages again")
    def unhide(self, request: HttpRequest, queryset: QuerySet[ChatMessage]) -> None:
        queryset.update(hidden=False)


@admin.register(ApiToken)
class ApiTokenAdmin(ModelAdmin):
    list_display = ("prefix", "name", "user", "created_at", "last_used_at", "revoked_at")
    search_fields = ("user__email", "name", "prefix")
    readonly_fields = ("prefix", "token_hash", "created_at", "last_used_at")


class ReportForm(ModelForm):
    """Staff close a report by choosing dismissed or handled and saying what was done and why."""

    mute_days = forms.IntegerField(
        required=False,
        min_value=1,
        max_value=social_services.MAX_MUTE_DAYS,
        help_text="Handled by muting the reported player's chat at every table for this many days.",
    )

    class Meta:
        model = Report
        fields = ("status", "staff_note")

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("status") != Report.Status.OPEN and not (data.get("staff_note") or "").strip():
            raise forms.ValidationError("Say what was done and why before closing the report.")
        if data.get("mute_days") and data.get("status") != Report.Status.HANDLED:
            raise forms.ValidationError("A mute closes the report as handled.")
        return data


@admin.register(Report)
class ReportAdmin(ModelAdmin):
    """The staff queue: open reports first (filter by status), each with the reported message and
    the chat around it, the table's matches (move logs, replays) and earlier reports of the account."""

    form = ReportForm
    list_display = ("created_at", "reported", "reporter", "reason", "status", "excerpt", "earlier_count")
    list_filter = ("status", "reason", "created_at")
    search_fields = tuple(f"{who}__{field}" for who in ("reported", "reporter") for field in PLAYER_SEARCH)
    list_select_related = ("reported", "reporter", "chat_message")
    ordering = ("-created_at",)
    readonly_fields = (
        "reporter",
        "reported",
        "reason",
        "text",
        "created_at",
        "chat_around",
        "reported_match",
        "matches",
        "earlier",
        "handled_by",
        "handled_at",
        "muted_until",
    )
    fields = (*readonly_fields, "status", "staff_note", "mute_days")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # players report; staff handle

    @admin.display(description="message")
    def excerpt(self, report: Report) -> str:
        return report.chat_message.text[:80] if report.chat_message else report.text[:80]

    @admin.display(description="earlier reports")
    def earlier_count(self, report: Report) -> int:
        return Report.objects.filter(reported_id=report.reported_id, created_at__lt=report.created_at).count()

    @admin.display(description="the chat around the message")
    def chat_around(self, report: Report) -> str:
        message = report.chat_message
        if message is None:
            return "—"
        rows = ChatMessage.objects.filter(table_id=message.table_id).select_related("author")
        before = list(rows.filter(id__lte=message.id).order_by("-id")[:CHAT_AROUND])[::-1]
        after = list(rows.filter(id__gt=message.id).order_by("id")[:CHAT_AROUND])
        lines = [
            format_html(
                "<li{}>{} · {} [{}]: {}</li>",
                format_html(' style="font-weight:bold"') if row.id == message.id else "",
                row.created_at.strftime("%Y-%m-%d %H:%M"),
                row.author.display_name,
                row.channel,
                row.text,
            )
            for row in [*before, *after]
        ]
        return format_html("<ul>{}</ul>", format_html_join("", "{}", ((line,) for line in lines)))

    @admin.display(description="the reported match")
    def reported_match(self, report: Report) -> str:
        """The match reported: its archive page, and each deal's move log and staff replay."""
        if report.match_id is None:
            return "—"
        deals = Deal.objects.filter(match_id=report.match_id).order_by("number")
        return format_html(
            '<a href="{}">match (archive)</a> · <a href="{}">admin</a><ul>{}</ul>',
            reverse("match_archive", args=[report.match_id]),
            reverse("admin:tables_match_change", args=[report.match_id]),
            format_html_join(
                "",
                '<li>deal {}: <a href="{}">move log</a> · <a href="{}">replay</a></li>',
                (
                    (
                        deal.number,
                        reverse("admin:tables_deal_change", args=[deal.pk]),
                        reverse("replay", args=[deal.pk]),
                    )
                    for deal in deals
                ),
            ),
        )

    @admin.display(description="the table's matches")
    def matches(self, report: Report) -> str:
        if report.table_id is None:
            return "—"
        found = Match.objects.filter(table_id=report.table_id).order_by("-number")[:5]
        return (
            format_html_join(
                " · ",
                '<a href="{}">match {} (move log)</a> <a href="{}">archive</a>',
                (
                    (
                        reverse("admin:tables_match_change", args=[match.pk]),
                        match.number,
                        reverse("match_archive", args=[match.pk]),
                    )
                    for match in found
                ),
            )
            or "—"
        )

    @admin.display(description="earlier reports of this account")
    def earlier(self, report: Report) -> str:
        rows = (
            Report.objects.filter(reported_id=report.reported_id)
            .exclude(pk=report.pk)
            .order_by("-created_at")
        )
        return (
            format_html_join(
                "<br>",
                '<a href="{}">{} · {} · {}</a>',
                (
                    (
                        reverse("admin:tables_report_change", args=[row.pk]),
                        row.created_at.strftime("%Y-%m-%d"),
                        row.reason,
                        row.status,
                    )
                    for row in rows[:20]
                ),
            )
            or "—"
        )

    def save_model(self, request: HttpRequest, obj: Report, form: Any, change: bool) -> None:
        if obj.status == Report.Status.OPEN:
            obj.save(update_fields=["staff_note"])
        else:
            mute_days = form.cleaned_data.get("mute_days") or 0
            social_services.handle_report(obj, request.user, obj.status, obj.staff_note, mute_days)
