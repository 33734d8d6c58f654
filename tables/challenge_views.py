"""Pages of challenges and seeks: the challenges page (received, sent, find a player, recent
opponents), answering a challenge or taking a seek, and posting either from the new-table form.
Like every page they call tables.services and let it refuse."""

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

from . import identity, payloads, selectors, services
from .errors import BadRequest, NotFound, ServiceError
from .models import Challenge, Player

ANSWERS = {
    "accept": services.challenges.accept,
    "decline": services.challenges.decline,
    "withdraw": services.challenges.withdraw,
}


def challenges_page(request: HttpRequest) -> HttpResponse:
    player = identity.player_for_request(request)
    context: dict[str, Any] = {
        "player": player,
        "lifetime_days": Challenge.LIFETIME.days,
        "max_challenges": services.challenges.MAX_OPEN_CHALLENGES,
        "max_seeks": services.challenges.MAX_OPEN_SEEKS,
    }
    if player is not None and player.user_id is not None:
        received, sent = selectors.open_challenges(player)
        now = timezone.now()
        name = request.GET.get("name", "").strip()[:40]
        context |= {
            "received": [payloads.challenge_row(row, now) for row in received],
            "sent": [payloads.challenge_row(row, now) for row in sent],
            "name": name,
            "found": _with_vacations(row for row in selectors.accounts_named(name) if row.pk != player.pk)
            if name
            else [],
            "recent": _with_vacations(selectors.recent_opponents(player)),
        }
    return render(request, "tables/challenges.html", context)


def _with_vacations(players: Iterable[Player]) -> list[tuple[Player, dt.date | None]]:
    """Each player and the last day of their vacation under way (None: not away)."""
    return [(player, payloads.away_until(player)) for player in players]


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


def opponent_for_form(request: HttpRequest) -> Player | None:
    """The account the new-table form challenges (``?opponent=<player id>``), if any."""
    raw = request.POST.get("opponent") or request.GET.get("opponent")
    if not raw or not raw.isdigit():
        return None
    return Player.objects.filter(pk=int(raw), user__isnull=False, is_bot=False).first()


def post_offer(request: HttpRequest, player: Player | None, options: dict[str, Any]) -> HttpResponse | None:
    """From the new-table form: a challenge to ``opponent`` or a seek; None for a plain table."""
    opponent = opponent_for_form(request)
    seek = request.POST.get("kind") == "seek"
    if opponent is None and not seek:
        return None
    if player is None:
        messages.error(request, _("Sign up to challenge players and post seeks."))
        return redirect("account_signup")
    options.pop("visibility", None)  # a challenged table is private; a seek's is listed as a seek
    if opponent is not None:
        services.challenges.challenge_player(player, opponent, options)
        messages.success(request, _("Challenge sent to %(name)s.") % {"name": opponent.display_name})
        return redirect("challenges")
    low, high = (_whole_number(request.POST.get(name, "")) for name in ("min_rating", "max_rating"))
    services.challenges.post_seek(player, options, low, high)
    messages.success(request, _("Your seek is in the lobby."))
    return redirect("lobby")


def _whole_number(raw: str) -> int | None:
    """An optional number field of the form: empty is None; anything else must be whole."""
    if not raw.strip():
        return None
    try:
        return int(raw)
    except ValueError:
        raise BadRequest(_("A rating must be a whole number."), field="rating") from None
