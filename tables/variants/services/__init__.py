"""The writers of game tables (three and four players): every change of a game's rows is here."""

from tables.variants.services.boards import record_board_end, resign_game, sweep_boards
from tables.variants.services.chat import post_game_chat
from tables.variants.services.setup import (
    add_robot,
    create_game,
    join_game,
    leave_everywhere,
    leave_game,
    play_again,
    start_game,
)

__all__ = [
    "add_robot",
    "create_game",
    "join_game",
    "leave_everywhere",
    "leave_game",
    "play_again",
    "post_game_chat",
    "record_board_end",
    "resign_game",
    "start_game",
    "sweep_boards",
]
