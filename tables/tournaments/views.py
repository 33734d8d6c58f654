"""Pages of tournaments: the list at /tournaments/ (with its filters), the form that creates
one, each tournament's page, and its buttons (join, withdraw, cancel, enter a robot). Like every
page they call the services and let them refuse: a refusal is shown as a message."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from rules import RULESETS
from tables.accounts import identity
from tables.accounts.models import Player
from tables.core.errors import BadRequest, ServiceError
from tables.play.models import Table
from tables.tournaments import payloads, selectors, services
from tables.tournaments.models import Tournament

STATUSES = ("registering", "running", "finished")
NUMBERS = (
    "target",
    "turn_seconds",
    "max_players",
    "swiss_rounds",
    "group_size",
    "advance_per_group",
    "runners_up",
    "min_rating",
    "max_rating",
    "min_rated_matches",
    "max_timeout_percent",
)
SWITCHES = ("hollywood", "rated", "home_and_away", "vacation_allowed", "accounts_only")


def tournaments_list(request: HttpRequest) -> HttpResponse:
    player = identity.player_for_request(request)
    status = request.GET.get("status", "registering")
    status = status if status in STATUSES else "registering"
    rows = selectors.listed(status, request.GET)
    if request.GET.get("can_join") == "1":
        rows = selectors.joinable(rows, player, timezone.now())
    context = {
        "rows": [payloads.tournament_summary(row) for row in rows],
        "status": status,
        "statuses": STATUSES,
        "rulesets": list(RULESETS),
        "filters": request.GET,
        "player": player,
    }
    return render(request, "tournaments/list.html", context)


def new_tournament(request: HttpRequest) -> HttpResponse:
    player = identity.player_for_request(request)
    if request.method == "POST":
        if player is None:
            messages.error(request, _("Sign up or log in to create a tournament."))
            return redirect("account_login")
        try:
            tournament = services.create_tournament(player, **_settings_from(request.POST))
        except ServiceError as error:
            messages.error(request, error.message)
        else:
            return redirect("tournament", token=tournament.invite_token)
    context = {
        "player": player,
        "rulesets": list(RULESETS),
        "clocks": Table.TURN_CLOCKS,
        "form": request.POST,
    }
    return render(request, "tournaments/new.html", context)


def _settings_from(form: Any) -> dict[str, Any]:
    settings: dict[str, Any] = {
        "name": form.get("name", ""),
        "format": form.get("format", "swiss"),
        "ruleset": form.get("ruleset", "playgridia"),
        "visibility": form.get("visibility", "public"),
    }
    for key in NUMBERS:
        raw = form.get(key, "").strip()
        if raw:
            if not raw.isdigit():
                raise BadRequest(_("%(name)s must be a whole number.") % {"name": key}, field=key)
            settings[key] = int(raw)
    for key in SWITCHES:
        settings[key] = form.get(key) == "on"
    if form.get("starts_at"):
        settings["starts_at"] = _date(form["starts_at"])
    return settings


def _date(raw: str) -> dt.datetime:
    try:
        moment = dt.datetime.fromisoformat(raw)
    except ValueError as error:
        raise BadRequest(_("starts_at must be a date and time in the future."), field="starts_at") from error
    return timezone.make_aware(moment) if timezone.is_naive(moment) else moment


def tournament_page(request: HttpRequest, token: str) -> HttpResponse:
    tournament = Tournament.objects.filter(invite_token=token).select_related("creator", "winner").first()
    if tournament is None:
        raise Http404(_("No such tournament."))
    player = identity.player_for_request(request)
    detail = payloads.tournament_detail(tournament, player, timezone.now())
    context = {
        "tournament": detail,
        "player": player,
        "organiser": player is not None and (player.pk == tournament.creator_id or _staff(player)),
        "crosstable": payloads.crosstable(detail),
    }
    return render(request, "tournaments/tournament.html", context)


def _staff(player: Player) -> bool:
    return player.user is not None and player.user.is_staff


ACTIONS: dict[str, Callable[[str, Player, HttpRequest], object]] = {
    "join": lambda token, player, request: services.join(token, player),
    "withdraw": lambda token, player, request: services.withdraw(token, player),
    "cancel": lambda token, player, request: services.cancel(token, player),
    "robot": lambda token, player, request: services.add_robot(token, player, request.POST.get("level", "")),
}


@require_POST
def tournament_action(request: HttpRequest, token: str, action: str) -> HttpResponse:
    act = ACTIONS.get(action)
    if act is None:
        raise Http404(_("There is no such action."))
    player = identity.player_for_request(request)
    if player is None:
        messages.error(request, _("Sign up or log in to take part in tournaments."))
        return redirect("account_login")
    try:
        act(token, player, request)
    except ServiceError as error:
        messages.error(request, error.message)
    return redirect("tournament", token=token)
