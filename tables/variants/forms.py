"""The new-table form's choice of three or four players: a game table instead of a table."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect

from tables.accounts import identity
from tables.accounts.models import Player
from tables.variants import services
from tables.variants.models import GameTable


def post_game(request: HttpRequest, player: Player | None, options: dict[str, Any]) -> HttpResponse | None:
    """A table of three or four from the form (inside its transaction); None for two players."""
    variant = GameTable.variant_for(request.POST.get("players", "2"))
    if variant is None:
        return None
    owner = player or identity.become_guest(request, request.POST.get("name"))
    game = services.create_game(
        owner, variant, request.POST.get("partners", GameTable.Partners.FIXED), **options
    )
    return redirect("game", token=game.invite_token)
