"""The new-table form's challenge or seek: the same form opens a plain table, challenges an
account (``?opponent=<player id>``) or posts a seek to the lobby."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _

from tables.accounts.models import Player
from tables.challenges import services as challenge_services
from tables.core.errors import BadRequest


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
        challenge_services.challenge_player(player, opponent, options)
        messages.success(request, _("Challenge sent to %(name)s.") % {"name": opponent.display_name})
        return redirect("challenges")
    low, high = (_whole_number(request.POST.get(name, "")) for name in ("min_rating", "max_rating"))
    challenge_services.post_seek(player, options, low, high)
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
