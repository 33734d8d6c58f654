"""The staff list of fair play (registered by tables/admin.py): every screened account ranked by
its signal, those with enough decisions first, the lowest mean loss against LUNA first, each with
its place among the accounts with enough decisions and links to its last matches (archive, move
log) and their deals' staff replays. Read only: nothing here decides anything, and players never
see it. The screenings are listed too, failed ones among them."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.contrib import admin
from django.db.models import F, QuerySet, Window
from django.db.models.functions import PercentRank
from django.http import HttpRequest
from django.urls import reverse
from django.utils.html import format_html, format_html_join

from bots.fairplay import ENOUGH, WINDOW
from tables.fairplay.models import FairPlaySignal, Screening

if TYPE_CHECKING:  # django-stubs' admin classes are generic; Django's are not subscriptable
    ModelAdmin = admin.ModelAdmin[Any]
else:
    ModelAdmin = admin.ModelAdmin


class ReadOnlyAdmin(ModelAdmin):
    """Rows the screening writes; staff only read them."""

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(FairPlaySignal)
class FairPlaySignalAdmin(ReadOnlyAdmin):
    list_display = ("account", "decisions", "best", "within_five", "loss", "place", "matches", "updated_at")
    list_filter = ("enough",)
    search_fields = ("player__display_name", "player__user__email")
    list_select_related = ("player",)
    list_per_page = 50

    def get_queryset(self, request: HttpRequest) -> QuerySet[FairPlaySignal]:
        # the place among accounts alike (enough decisions or not) by mean loss, in the same query
        place = Window(PercentRank(), partition_by=[F("enough")], order_by=F("mean_loss").asc())
        rows: QuerySet[FairPlaySignal] = super().get_queryset(request).annotate(place=place)
        return rows.order_by("-enough", "mean_loss", "-best_share", "pk")

    def get_ordering(self, request: HttpRequest) -> tuple[str, ...]:
        return ("-enough", "mean_loss", "-best_share", "pk")

    @admin.display(description="account")
    def account(self, row: FairPlaySignal) -> str:
        return format_html('<a href="{}">{}</a>', reverse("player", args=[row.player_id]), row.player)

    @admin.display(description=f"LUNA's best (last {WINDOW} decisions)")
    def best(self, row: FairPlaySignal) -> str:
        return f"{row.best_share:.1%}"

    @admin.display(description="within 5 % of LUNA's best")
    def within_five(self, row: FairPlaySignal) -> str:
        return f"{row.good_share:.1%}"

    @admin.display(description="mean loss")
    def loss(self, row: FairPlaySignal) -> str:
        return f"{row.mean_loss:.4f}"

    @admin.display(description=f"place by mean loss (lowest first; under {ENOUGH} decisions: too few)")
    def place(self, row: Any) -> str:
        where = f"lower than {1 - row.place:.0%} of the others" if row.place else "the lowest"
        return where if row.enough else f"too few decisions ({where} of those)"

    @admin.display(description="last matches: archive, move log, replays")
    def matches(self, row: FairPlaySignal) -> str:
        return format_html_join(
            format_html("<br>"),
            '<a href="{}">match {}</a> · <a href="{}">move log</a> · {}',
            (
                (
                    reverse("match_archive", args=[recent["match"]]),
                    recent["match"],
                    reverse("admin:tables_match_change", args=[recent["match"]]),
                    _replays(recent["deals"]),
                )
                for recent in row.recent
            ),
        )


def _replays(deal_ids: list[int]) -> str:
    return format_html_join(
        " ",
        '<a href="{}">deal {}</a>',
        ((reverse("replay", args=[deal_id]), number) for number, deal_id in enumerate(deal_ids, start=1)),
    )


@admin.register(Screening)
class ScreeningAdmin(ReadOnlyAdmin):
    """Each rated match's screening: pending, running, done or failed (its reviews kept failing)."""

    list_display = ("match", "status", "attempts", "created_at", "finished_at")
    list_filter = ("status",)
    list_select_related = ("match",)
    ordering = ("-created_at",)
