"""Pages of challenges and seeks: the challenges page (received, sent, find a player, recent
opponents), answering a challenge or taking a seek, and posting either from the new-table form.
Like every page they call tables.play.services and let it refuse."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tables.accounts import identity
from tables.accounts import payloads as account_payloads
from tables.accounts.models import Player
from tables.challenges import payloads as challenge_payloads
from tables.challenges import selectors as challenge_selectors
from tables.challenges import services as challenge_services
from tables.challenges.models import Challenge
from tables.core.errors import NotFound, ServiceError
from tables.play import services

ANSWERS = {
    "accept": challenge_services.accept,
    "decline": challenge_services.decline,
    "withdraw": challenge_services.withdraw,
}


def challenges_page(request: HttpRequest) -> HttpResponse:
    player = identity.player_for_request(request)
    context: dict[str, Any] = {
        "player": player,
        "lifetime_days": Challenge.LIFETIME.days,
        "max_challenges": challenge_services.MAX_OPEN_CHALLENGES,
        "max_seeks": challenge_services.MAX_OPEN_SEEKS,
    }
    if player is not None and player.user_id is not None:
        received, sent = challenge_selectors.open_challenges(player)
        now = timezone.now()
        name = request.GET.get("name", "").strip()[:40]
        context |= {
            "received": [challenge_payloads.challenge_row(row, now) for row in received],
            "sent": [challenge_payloads.challenge_row(row, now) for row in sent],
            "name": name,
            "found": _with_vacations(
                row for row in challenge_selectors.accounts_named(name) if row.pk != player.pk
            )
            if name
            else [],
            "recent": _with_vacations(challenge_selectors.recent_opponents(player)),
        }
    return render(request, "tables/challenges.html", context)


def _with_vacations(players: Iterable[Player]) -> list[tuple[Player, dt.date | None]]:
    """Each player and the last day of their vacation under way (None: not away)."""
    return [(player, account_payloads.away_until(player)) for player in players]


@require_POST
def answer_challenge(request: HttpRequest, challenge_id: int, answer: str) -> HttpResponse:
    player = identity.player_for_request(request)
    act = ANSWERS.get(answer)
    if act is None:
        raise NotFound("There is no such answer.")
    if player is None:
        messages.error(request, _("Log in to answer challenges."))
        return redirect("account_login")
    try:
        outcome = act(challenge_id, player)
    except ServiceError as error:
        messages.error(request, error.message)
        return redirect(_back(request))
    if isinstance(outcome, services.Outcome):
        return redirect("table", token=outcome.table.invite_token)
    return redirect(_back(request))


def _back(request: HttpRequest) -> str:
    return "lobby" if request.POST.get("back") == "lobby" else "challenges"
