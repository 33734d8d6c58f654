"""Admin: review tables, matches, deals and their move logs; hide chat; export replays. The
queue of players' reports and staff's moderation are the social room's (tables/social/admin.py),
registered from here."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from django import forms
from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.urls import URLPattern, path, reverse
from django.utils.html import format_html

from tables.accounts.models import ApiToken, Player, Vacation
from tables.fairplay import admin as fairplay_admin  # noqa: F401  (registers the fair-play list)
from tables.play import payloads
from tables.play.models import ChatMessage, Deal, Match, Move, Table
from tables.social import admin as social_admin  # noqa: F401  (registers the reports and moderation)

PLAYER_SEARCH = ("display_name", "user__email")

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
    list_display = ("display_name", "user", "is_bot", "bot_level", "language", "created_at", "suspended")
    list_filter = ("is_bot", "language", "deck_design", "user__is_active")
    list_select_related = ("user",)
    search_fields = PLAYER_SEARCH
    readonly_fields = ("guest_key", "created_at", "vacation_started_at", "vacation_until")

    @admin.display(description="suspended", boolean=True)
    def suspended(self, player: Player) -> bool:
        """Suspended by staff (its user inactive: tables.social.services.moderation)."""
        return player.user is not None and not player.user.is_active


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
