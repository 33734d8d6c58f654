"""Tables of three and four (tables.variants) on other rooms' pages: the table page's link to its
game when the table is one of its boards, and the player's game tables on "My tables". Read where
the page is built, never on the path of a move."""

from __future__ import annotations

from typing import Any

from django import template
from django.urls import reverse
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext

from tables.accounts.models import Player
from tables.play.models import Table
from tables.variants import selectors
from tables.variants.models import GameSeat, GameTable

register = template.Library()


@register.simple_tag
def game_of_table(table: Table) -> SafeString | str:
    board = selectors.board_of_table(table.pk)
    if board is None:
        return ""
    if board.game.variant == GameTable.Variant.PARTNERSHIP:
        label = gettext("Table of four · round %(number)s") % {"number": board.round}
    else:
        label = gettext("Table of three · deal %(number)s") % {"number": board.round}
    path = reverse("game", args=[board.game.invite_token])
    return format_html('<a class="pill" id="game-pill" href="{}">{}</a>', path, label)


@register.inclusion_tag("variants/_my_games.html")
def my_game_tables(player: Player | None) -> dict[str, Any]:
    """The game tables the player sits at, each with the table of their deal in play, if any."""
    if player is None:
        return {"games": []}
    games = selectors.games_of(player.pk)
    seats = dict(GameSeat.objects.filter(game__in=games, player=player).values_list("game_id", "number"))
    boards = selectors.open_board_tokens([game.pk for game in games], seats)
    return {"games": [{"game": game, "board": boards.get(game.pk)} for game in games]}
