"""The writers of play: the only way a change reaches a table. Every HTTP view, socket, bot and
timeout calls these; each locks the table, checks the actor and the expected version, applies
the engine, logs the move, bumps the version and, after commit, announces the change
(tables.core.announcements). One module per part of play; the reads are in tables.play.selectors.
Other rooms keep their writers in their own ``services``."""

from tables.play.services.chat import post_chat, set_mute
from tables.play.services.clocks import apply_timeout, sweep_overdue
from tables.play.services.common import Outcome
from tables.play.services.matches import next_deal, resign, start_match
from tables.play.services.more_time import give_more_time
from tables.play.services.play import apply_move, parse_action
from tables.play.services.rematch import (
    accept_rematch,
    decline_rematch,
    expire_rematch_offer,
    offer_rematch,
    sweep_rematch_offers,
    withdraw_rematch,
)
from tables.play.services.seats import (
    add_bot,
    bot_player,
    check_table_options,
    create_table,
    join_table,
    leave_for_good,
    leave_seat,
)

__all__ = [
    "Outcome",
    "accept_rematch",
    "add_bot",
    "apply_move",
    "apply_timeout",
    "bot_player",
    "check_table_options",
    "create_table",
    "decline_rematch",
    "expire_rematch_offer",
    "give_more_time",
    "join_table",
    "leave_for_good",
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
    "withdraw_rematch",
]
