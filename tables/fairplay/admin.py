"""The staff list of fair play (registered by tables/admin.py): every screened account ranked by
its signal, those with enough decisions first, the lowest mean loss against LUNA first, each with
its place among the accounts with enough decisions and among those of its rating band (its most
played pace's rating, in bands of RATING_BAND points), and links to its last matches (archive,
move log) and their deals' staff replays. An account whose mean loss lies FAR_SIGMAS standard
deviations or more below its band's mean (a band of at least BAND_MIN accounts with enough
decisions) is marked far beyond its rating's usual figures, and the list can show those alone. Read only: nothing here decides anything, and players never
see it. The screenings are listed too, failed ones among them."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from django.contrib import admin
from django.db.models import (
    Avg,
    Count,
    ExpressionWrapper,
    F,
    FloatField,
    OuterRef,
    Q,
    QuerySet,
    Subquery,
    Value,
    Window,
)
from django.db.models.functions import Coalesce, Floor, PercentRank
from django.http import HttpRequest
from django.urls import reverse
from django.utils.html import format_html, format_html_join

from bots.fairplay import ENOUGH, WINDOW
from tables.fairplay.models import FairPlaySignal, Screening
from tables.ratings.models import Rating

RATING_BAND = 200  # points: accounts of one band are compared with each other
BAND_MIN = 10  # accounts with enough decisions a band needs before its figures say anything
FAR_SIGMAS = 2.5  # standard deviations below its band's mean loss that stand out

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


def with_bands(rows: QuerySet[FairPlaySignal]) -> QuerySet[FairPlaySignal]:
    """Each row's rating band, its place by mean loss among the accounts alike of that band, how
    many they are, and how far its mean loss lies below theirs in standard deviations (0 when
    they all play alike): in the list's one query."""
    most_played = Rating.objects.filter(player=OuterRef("player")).order_by("-games", "pk")
    rating = Coalesce(Subquery(most_played.values("rating")[:1]), Value(1500.0), output_field=FloatField())
    rows = rows.annotate(band=Floor(rating / RATING_BAND) * RATING_BAND)
    alike = [F("enough"), F("band")]
    return rows.annotate(
        band_place=Window(PercentRank(), partition_by=alike, order_by=F("mean_loss").asc()),
        band_size=Window(Count("pk"), partition_by=alike),
        band_mean=Window(Avg("mean_loss"), partition_by=alike),
        band_square=Window(Avg(F("mean_loss") * F("mean_loss")), partition_by=alike),
    ).annotate(
        # the spread as a variance, mean of squares less square of mean: SQLite has no standard
        # deviation usable over a window, and squares compare without a square root
        gap=F("band_mean") - F("mean_loss"),
        spread_squared=F("band_square") - F("band_mean") * F("band_mean"),
    )


def sigmas_below(row: Any) -> float:
    """How many standard deviations the row's mean loss lies below its band's (0: all alike)."""
    spread_squared = float(row.spread_squared)
    return float(row.gap) / math.sqrt(spread_squared) if spread_squared > 1e-12 else 0.0


def far_beyond(row: Any) -> bool:
    return bool(row.enough and row.band_size >= BAND_MIN and sigmas_below(row) >= FAR_SIGMAS)


class FarBeyondFilter(admin.SimpleListFilter):
    title = "far beyond its rating band"
    parameter_name = "far_beyond"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [("yes", "yes")]

    def queryset(self, request: HttpRequest, queryset: QuerySet[FairPlaySignal]) -> QuerySet[FairPlaySignal]:
        if self.value() != "yes":
            return queryset
        # window values filtered by Django in an outer query, over every row's band
        far = Q(enough=True, band_size__gte=BAND_MIN, gap__gt=0, spread_squared__gt=1e-12)
        gap_squared = ExpressionWrapper(F("gap") * F("gap"), output_field=FloatField())
        rows = queryset.annotate(gap_squared=gap_squared).filter(far)
        return rows.filter(Q(gap_squared__gte=F("spread_squared") * FAR_SIGMAS**2))


@admin.register(FairPlaySignal)
class FairPlaySignalAdmin(ReadOnlyAdmin):
    list_display = (
        "account", "decisions", "best", "within_five", "loss", "place", "in_band", "matches", "updated_at",
    )  # fmt: skip
    list_filter = ("enough", FarBeyondFilter)
    search_fields = ("player__display_name", "player__user__email")
    list_select_related = ("player",)
    list_per_page = 50

    def get_queryset(self, request: HttpRequest) -> QuerySet[FairPlaySignal]:
        # the place among accounts alike (enough decisions or not) by mean loss, in the same query
        place = Window(PercentRank(), partition_by=[F("enough")], order_by=F("mean_loss").asc())
        rows: QuerySet[FairPlaySignal] = with_bands(super().get_queryset(request)).annotate(place=place)
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

    @admin.display(description=f"place in its rating band ({RATING_BAND} points, its most played pace)")
    def in_band(self, row: Any) -> str:
        band = f"{row.band:.0f}–{row.band + RATING_BAND - 1:.0f}"
        if not row.enough or row.band_size < BAND_MIN:
            return f"{band}: too few accounts to compare"
        where = f"lower than {1 - row.band_place:.0%} of its {row.band_size}, {-sigmas_below(row):+.1f} σ"
        return f"FAR BEYOND ({band}): {where}" if far_beyond(row) else f"{band}: {where}"

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
