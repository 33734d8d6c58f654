"""The writers: the only way a change reaches a table. Every HTTP view, socket, bot and timeout
calls these; each locks the table, checks the actor and the expected version, applies the
engine, logs the move, bumps the version and, after commit, announces the change
(tables/changes.py). One module per subject; the reads are in tables/selectors.py."""

from . import challenges
from .chat import post_chat, set_mute
from .clocks import apply_timeout, sweep_overdue
from .common import Outcome
from .matches import next_deal, resign, start_match
from .more_time import give_more_time
from .play import apply_move, parse_action
from .profile import adopt_guest, update_profile
from .rematch import (
    accept_rematch,
    decline_rematch,
    expire_rematch_offer,
    offer_rematch,
    sweep_rematch_offers,
)
from .seats import add_bot, bot_player, check_table_options, create_table, join_table, leave_seat
from .vacation import declare_vacation, end_vacation, expire_vacation, sweep_vacations

__all__ = [
    "Outcome",
    "accept_rematch",
    "add_bot",
    "adopt_guest",
    "apply_move",
    "apply_timeout",
    "bot_player",
    "challenges",
    "check_table_options",
    "create_table",
    "declare_vacation",
    "decline_rematch",
    "end_vacation",
    "expire_rematch_offer",
    "expire_vacation",
    "give_more_time",
    "join_table",
    "leave_seat",
    "next_deal",
    "offer_rematch",
    "parse_action",
    "post_chat",
    "resign",
    "set_mute",
    "start_match",
    "sweep_overdue",
    "sweep_rematch_offers",
    "sweep_vacations",
    "update_profile",
]
