"""The table page's link to its game, when the table is a board of a table of three or four
(tables.variants): read where the page is built, never on the path of a move."""

from __future__ import annotations

from django import template
from django.urls import reverse
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext

from tables.play.models import Table
from tables.variants import selectors
from tables.variants.models import GameTable

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
