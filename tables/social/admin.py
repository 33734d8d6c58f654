"""The admin of the social room: the queue of players' reports and staff's moderation log,
registered by tables/admin.py. Every action goes through tables.social.services.moderation, which
logs it (who, what, why, when, until)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django import forms
from django.contrib import admin, messages
from django.http import HttpRequest
from django.urls import reverse
from django.utils.html import format_html, format_html_join

from tables.core.errors import ServiceError
from tables.play.models import ChatMessage, Deal, Match
from tables.social.models import ModerationAction, Report
from tables.social.services import moderation

PLAYER_SEARCH = ("display_name", "user__email")
CHAT_AROUND = 6  # messages shown before and after a reported one

if TYPE_CHECKING:  # django-stubs' admin classes are generic; Django's are not subscriptable
    ModelAdmin = admin.ModelAdmin[Any]
    ModelForm = forms.ModelForm[Any]
else:
    ModelAdmin, ModelForm = admin.ModelAdmin, forms.ModelForm


class ReportForm(ModelForm):
    """Staff close a report as dismissed or handled, saying what was done and why; handled, with
    a warning, a chat mute and a suspension as they choose (each logged on its own)."""

    warn = forms.BooleanField(
        required=False, help_text="Handled with a warning: the player reads it in the inbox."
    )
    mute_days = forms.IntegerField(
        required=False,
        min_value=1,
        max_value=moderation.MAX_MUTE_DAYS,
        help_text="Handled by muting the reported player's chat at every table for this many days.",
    )
    suspend = forms.BooleanField(
        required=False,
        help_text="Handled by suspending the account: logged out at once, refused at login, its "
        "challenges and seeks closed, its running matches resigned. Undone in Moderation actions.",
    )

    class Meta:
        model = Report
        fields = ("status", "staff_note")

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("status") != Report.Status.OPEN and not (data.get("staff_note") or "").strip():
            raise forms.ValidationError("Say what was done and why before closing the report.")
        acting = data.get("warn") or data.get("mute_days") or data.get("suspend")
        if acting and data.get("status") != Report.Status.HANDLED:
            raise forms.ValidationError("A warning, a mute or a suspension closes the report as handled.")
        if data.get("suspend") and self.instance.pk:
            _checked(self.instance.reported, ModerationAction.Kind.SUSPEND)
        return data


def _checked(player: Any, kind: str, days: int = 0) -> None:
    try:
        moderation.check(player, kind, days)
    except ServiceError as error:
        raise forms.ValidationError(error.message) from None


@admin.register(Report)
class ReportAdmin(ModelAdmin):
    """The staff queue: open reports first (filter by status), each with the reported message and
    the chat around it, the reported match and the table's matches (move logs, replays), earlier
    reports of the account and staff's actions on it; closed with actions, each one logged."""

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
        "actions_on_account",
        "handled_by",
        "handled_at",
        "muted_until",
    )
    fields = (*readonly_fields, "status", "staff_note", "warn", "mute_days", "suspend")

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
                format_html(' style="{}"', "font-weight:bold") if row.id == message.id else "",
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

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> tuple[str, ...]:
        closed = obj is not None and obj.status != Report.Status.OPEN
        return (*self.readonly_fields, "status", "staff_note") if closed else self.readonly_fields

    def get_fields(self, request: HttpRequest, obj: Any = None) -> tuple[str, ...]:
        closed = obj is not None and obj.status != Report.Status.OPEN
        return (*self.readonly_fields, "status", "staff_note") if closed else self.fields

    @admin.display(description="staff's actions on this account")
    def actions_on_account(self, report: Report) -> str:
        rows = ModerationAction.objects.filter(player_id=report.reported_id).order_by("-created_at")
        return (
            format_html_join(
                "<br>",
                "{} · {} · {}{}",
                (
                    (
                        row.created_at.strftime("%Y-%m-%d %H:%M"),
                        row.get_kind_display(),
                        row.reason,
                        f" (until {row.until:%Y-%m-%d})" if row.until else "",
                    )
                    for row in rows[:20]
                ),
            )
            or "—"
        )

    def save_model(self, request: HttpRequest, obj: Report, form: Any, change: bool) -> None:
        if not Report.objects.filter(pk=obj.pk, status=Report.Status.OPEN).exists():
            return  # closed already: nothing here changes it
        if obj.status == Report.Status.OPEN:
            obj.save(update_fields=["staff_note"])
            return
        data = form.cleaned_data
        try:
            moderation.handle_report(
                obj,
                request.user,
                obj.status,
                obj.staff_note,
                mute_days=data.get("mute_days") or 0,
                warn=bool(data.get("warn")),
                suspend=bool(data.get("suspend")),
            )
        except ServiceError as error:
            self.message_user(request, error.message, messages.ERROR)


class ModerationForm(ModelForm):
    """An action on an account outside a report: warn, mute, suspend, or lift a suspension."""

    ACTIONS = [
        (kind.value, kind.label)
        for kind in ModerationAction.Kind
        if kind not in (ModerationAction.Kind.DISMISS, ModerationAction.Kind.HANDLE)
    ]
    kind = forms.ChoiceField(choices=ACTIONS)
    days = forms.IntegerField(
        required=False, min_value=1, max_value=moderation.MAX_MUTE_DAYS, help_text="A mute's length."
    )

    class Meta:
        model = ModerationAction
        fields = ("player", "kind", "reason")

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("player") is not None and data.get("kind"):
            _checked(data["player"], data["kind"], data.get("days") or 0)
        return data


@admin.register(ModerationAction)
class ModerationActionAdmin(ModelAdmin):
    """Staff's actions one by one (who, what, why, when, until), newest first; adding one acts on
    the account through tables.social.services.moderation. Kept as they were: never changed."""

    form = ModerationForm
    list_display = ("created_at", "player", "kind", "staff", "reason", "until", "report")
    list_filter = ("kind", "created_at")
    search_fields = tuple(f"player__{field}" for field in PLAYER_SEARCH)
    list_select_related = ("player", "staff", "report")
    raw_id_fields = ("player",)
    ordering = ("-created_at",)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return obj is None and super().has_change_permission(request)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def save_model(self, request: HttpRequest, obj: ModerationAction, form: Any, change: bool) -> None:
        data = form.cleaned_data
        done = moderation.act(
            data["player"], request.user, data["kind"], data["reason"], data.get("days") or 0
        )
        obj.pk, obj.staff, obj.created_at, obj.until = done.pk, done.staff, done.created_at, done.until
