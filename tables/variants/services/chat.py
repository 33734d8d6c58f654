"""The game's one chat: the game page writes in it as every board's table page does.

The conversation is kept as the boards' table chat (tables.play.selectors.shared_chat): a
message written on the game page is kept at the newest board's table and goes through the
table's own writer, so it meets exactly the table chat's checks (its text, length, rate, the
staff's chat mute, the spectators' option) and tells every board's sockets.
"""

from __future__ import annotations

from django.utils.translation import gettext

from tables.accounts.models import Player
from tables.core.errors import Conflict
from tables.play.models import ChatMessage
from tables.play.services.chat import post_chat
from tables.variants import selectors


def post_game_chat(token: str, author: Player, text: object) -> ChatMessage:
    """The game's players write in the players' channel, anyone else in the spectators' (if the
    game's option allows it); refused before the start, when the game has no board yet."""
    table_id = selectors.chat_table(selectors.game_by_token(token))
    if table_id is None:
        raise Conflict(gettext("The table's chat opens when the game starts."))
    return post_chat(table_id, author, text)
