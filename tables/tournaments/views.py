"""Pages of tournaments: the list at /tournaments/ and each tournament's page."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone

from tables.accounts import identity
from tables.core.errors import NotFound
from tables.tournaments import payloads, selectors
from tables.tournaments.models import Tournament


def tournament_page(request: HttpRequest, token: str) -> HttpResponse:
    tournament = Tournament.objects.filter(invite_token=token).select_related("creator", "winner").first()
    if tournament is None:
        raise NotFound("No such tournament.")
    player = identity.player_for_request(request)
    context = {"tournament": payloads.tournament_detail(tournament, player, timezone.now()), "player": player}
    return render(request, "tournaments/tournament.html", context)


def tournaments_list(request: HttpRequest) -> HttpResponse:
    player = identity.player_for_request(request)
    listed = selectors.listed(request.GET.get("status", "registering"), request.GET)
    context = {"rows": [payloads.tournament_summary(row) for row in listed], "player": player}
    return render(request, "tournaments/list.html", context)
