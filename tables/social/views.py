"""The social room's pages: the following list (/me/following/), the buttons of a player page
(follow, unfollow, block, unblock), the presence setting of the profile, and the matches between
the visitor and another account (/players/<id>/versus/), reporting a player, a chat message or a match to staff, and the table's notes form. Writes go through
tables.social.services."""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import messages
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from tables.accounts import identity
from tables.accounts.models import Player
from tables.core.errors import ServiceError
from tables.play import selectors as play_selectors
from tables.social import payloads, selectors, services
from tables.social.models import Report

VERSUS_PAGE_SIZE = 20
FOLLOWING_PAGE_SIZE = 100

ACTIONS: dict[str, tuple[Callable[[Player, Player], object], object]] = {
    "follow": (services.follow, gettext_lazy("You follow %(name)s.")),
    "unfollow": (services.unfollow, gettext_lazy("You no longer follow %(name)s.")),
    "block": (services.block, gettext_lazy("You block %(name)s.")),
    "unblock": (services.unblock, gettext_lazy("You no longer block %(name)s.")),
}


def _account_or_404(player_id: int) -> Player:
    found = selectors.account(player_id)
    if found is None:
        raise Http404("There is no such player.")
    return found


def following_page(request: HttpRequest) -> HttpResponse:
    """Who the visitor follows, those around first (selectors.following_around_first), a page at
    a time: one query for the page's rows and their presence, one to count them."""
    player = identity.player_for_request(request)
    page = None
    rows: list[dict[str, object]] = []
    if player is not None and player.user_id is not None:
        now = timezone.now()
        paginator = Paginator(selectors.following_around_first(player), FOLLOWING_PAGE_SIZE)
        paginator.count = selectors.following_count(player)  # not the COUNT of the joined rows
        page = paginator.get_page(request.GET.get("page"))
        rows = [payloads.following_row(row, selectors.presence_from_row(row, now), now) for row in page]
    context = {"player": player, "rows": rows, "page": page, "limit": services.MAX_FOLLOWED}
    return render(request, "social/following.html", context)


@require_POST
def player_action(request: HttpRequest, player_id: int, action: str) -> HttpResponse:
    """A button of a player page, the following list or the profile; back where it was pressed."""
    if action not in ACTIONS:
        raise Http404("There is no such action.")
    other = _account_or_404(player_id)
    player = identity.player_for_request(request)
    if player is None or player.user_id is None:
        messages.error(request, _("Log in to follow or block players."))
        return redirect("account_login")
    act, done = ACTIONS[action]
    try:
        act(player, other)
    except ServiceError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, str(done) % {"name": other.display_name})
    return redirect(_back(request, other))


def _back(request: HttpRequest, other: Player) -> str:
    wanted = request.POST.get("next", "")
    if wanted and url_has_allowed_host_and_scheme(wanted, {request.get_host()}, request.is_secure()):
        return wanted
    return reverse("player", args=[other.pk])


@require_POST
def presence_setting(request: HttpRequest) -> HttpResponse:
    player = identity.player_for_request(request)
    if player is None:
        return redirect("account_login")
    try:
        services.hide_presence(player, request.POST.get("hide_presence") == "1")
    except ServiceError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, _("Saved."))
    return redirect("profile")


def versus_page(request: HttpRequest, player_id: int) -> HttpResponse:
    """The finished matches between the visitor and another account (or a deleted one, named
    "deleted player"), linking to the archive."""
    other = selectors.past_opponent(player_id)
    if other is None:
        raise Http404("There is no such player.")
    viewer = identity.player_for_request(request)
    if viewer is None or viewer.user_id is None or viewer.pk == other.pk:
        raise Http404("There is no such list.")
    record = selectors.head_to_head(viewer, other)
    page = Paginator(selectors.versus_matches(viewer, other), VERSUS_PAGE_SIZE)
    page.count = record.matches  # known already: spares the COUNT query
    shown = page.get_page(request.GET.get("page"))
    rows = []
    for match in shown:
        seat = 0 if match.table.seat0_id == viewer.pk else 1
        scores = match.final_scores or [{"total": 0}, {"total": 0}]
        rows.append(
            {
                "match": match,
                "won": match.winner == seat,
                "score": (scores[seat]["total"], scores[1 - seat]["total"]),
            }
        )
    context = {
        "other": other,
        "record": record,
        "summary": payloads.head_to_head_text(record, other),
        "page": shown,
        "rows": rows,
    }
    return render(request, "social/versus.html", context)


def report_page(request: HttpRequest, player_id: int) -> HttpResponse:
    """Report a player to staff (from their page), one chat message of theirs (from the table's
    chat: ``?message=<id>``) or one of their matches (from its archive page: ``?match=<id>``).
    The message or match is quoted only to someone who may see it."""
    other = _account_or_404(player_id)
    player = identity.player_for_request(request)
    if player is None or player.user_id is None:
        messages.error(request, _("Log in to report players."))
        return redirect("account_login")
    message_id, match_id = _number(request, "message"), _number(request, "match")
    if request.method == "POST":
        try:
            services.report(
                player,
                other,
                request.POST.get("reason", ""),
                request.POST.get("text", ""),
                message_id,
                match_id,
            )
        except ServiceError as error:
            messages.error(request, error.message)
        else:
            messages.success(request, _("Thank you: staff will look at your report."))
            return redirect("player", player_id=other.pk)
    quoted = quoted_match = None
    try:
        quoted = None if message_id is None else services.readable_message(player, other, message_id)
    except ServiceError:
        message_id = None
    try:
        quoted_match = None if match_id is None else services.reportable_match(player, other, match_id)
    except ServiceError:
        match_id = None
    context = {
        "other": other,
        "reasons": Report.Reason.choices,
        "quoted": quoted,
        "message_id": message_id,
        "quoted_match": quoted_match,
        "match_id": match_id,
    }
    return render(request, "social/report.html", context)


def _number(request: HttpRequest, name: str) -> int | None:
    raw = request.POST.get(name) or request.GET.get(name) or ""
    return int(raw) if raw.isascii() and raw.isdigit() and len(raw) < 19 else None


@require_POST
def table_note(request: HttpRequest, token: str) -> HttpResponse:
    """The notes form of the table page without JavaScript: saved, back to the table."""
    player = identity.player_for_request(request)
    try:
        table = play_selectors.get_table(token)
    except ServiceError:
        raise Http404("There is no such table.") from None
    try:
        if player is None:
            raise Http404("There is no such table.")
        services.save_note(player, table, request.POST.get("text", ""))
        messages.success(request, _("Notes saved."))
    except ServiceError as error:
        messages.error(request, error.message)
    return redirect("table", token)
