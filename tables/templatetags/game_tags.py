"""Tables of three and four (tables.variants) on other rooms' pages: the table page's link to its
game when the table is one of its boards (and, above its chat, that the chat is the game's), the
game's panel beside its deal, and the player's game tables on "My tables". Read where the page is
built, never on the path of a move."""

from __future__ import annotations

from typing import Any

from django import template
from django.urls import reverse
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext

from tables.accounts.models import Player
from tables.play.models import Table
from tables.play.payloads import player_url
from tables.social.selectors import blocked_either_way
from tables.variants import payloads, selectors
from tables.variants.models import GameSeat, GameTable

register = template.Library()


@register.simple_tag
def game_of_table(table: Table) -> SafeString | str:
    board = selectors.board_at(table)
    if board is None:
        return ""
    if board.game.variant == GameTable.Variant.PARTNERSHIP:
        label = gettext("Table of four · round %(number)s") % {"number": board.round}
    else:
        label = gettext("Table of three · deal %(number)s") % {"number": board.round}
    path = reverse("game", args=[board.game.invite_token])
    return format_html('<a class="pill" id="game-pill" href="{}">{}</a>', path, label)


@register.simple_tag
def game_chat_note(table: Table, player: Player | None) -> SafeString | str:
    """Above a board's chat: the chat is the game's, shared by every deal's table and its page;
    for the page's script, whether the viewer is a player of the game (one writes and reads as
    a player at every board) and their page (their own messages are not theirs to report)."""
    board = selectors.board_at(table)  # the pill's lookup, kept on the table
    if board is None:
        return ""
    path = reverse("game", args=[board.game.invite_token])
    note = gettext("One chat for the whole table: every deal's table and the game's page show it.")
    plays = player is not None and GameSeat.objects.filter(game_id=board.game_id, player=player).exists()
    return format_html(
        '<p class="muted" id="game-chat-note" data-game-player="{}" data-me="{}"><a href="{}">{}</a></p>',
        "1" if plays else "",
        player_url(player) or "",
        path,
        note,
    )


@register.inclusion_tag("variants/_board_game.html")
def board_game_panel(table: Table, player: Player | None) -> dict[str, Any]:
    """Beside a board's deal: the other deal of its round as a spectator sees it, the game's
    score sheet and the round's netting. Nothing at a two-player table, for no query more (the
    board lookup is the pill's)."""
    board = selectors.board_at(table)
    if board is None:
        return {"panel": None}
    detail = payloads.game_detail(board.game, player)
    return {"panel": payloads.board_panel(board.game, detail, board), "script": True}


@register.inclusion_tag("variants/_my_games.html")
def my_game_tables(player: Player | None) -> dict[str, Any]:
    """The game tables the player sits at, each with the table of their deal in play, if any."""
    if player is None:
        return {"games": []}
    games = selectors.games_of(player.pk)
    seats = dict(GameSeat.objects.filter(game__in=games, player=player).values_list("game_id", "number"))
    boards = selectors.open_board_tokens([game.pk for game in games], seats)
    return {"games": [{"game": game, "board": boards.get(game.pk)} for game in games]}


@register.inclusion_tag("variants/_lobby_games.html")
def lobby_game_tables(player: Player | None) -> dict[str, Any]:
    """The lobby's public tables of three and four with a seat free (none where ``player`` could
    not sit for a block)."""
    games = selectors.lobby_games(blocked_either_way(player))
    return {"games": [payloads.lobby_game_row(game) for game in games]}
