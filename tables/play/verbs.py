"""The table's verbs: one list for the API, the page's forms, the table socket and the page's
script (sent to it as JSON), so a new verb is added here and nowhere else.

A move, a chat message and joining have answers and inputs of their own; every other verb is
a writer called with the table, the player and what its ``body`` names.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from tables.play import services
from tables.play.selectors import TableRef

# What a verb's request carries besides the table: nothing, the version the client acts on,
# or a bot's level.
NO_BODY, VERSION, BOT_LEVEL = "none", "version", "bot"


@dataclass(frozen=True)
class TableVerb:
    name: str  # the socket's action and the page form's verb
    path: str  # under the API's /tables/{token}/
    summary: str
    tag: str  # its group in the API's reference
    body: str  # NO_BODY, VERSION or BOT_LEVEL
    socket: bool  # a seated player may also send it over the table socket
    write: Callable[..., services.Outcome]

    def run(
        self, table: TableRef, player: Any, expected_version: int | None = None, level: str = ""
    ) -> services.Outcome:
        if self.body == BOT_LEVEL:
            return self.write(table, player, level, expected_version)
        if self.body == VERSION:
            return self.write(table, player, expected_version)
        return self.write(table, player)


VERBS = (
    TableVerb(
        "add_bot",
        "bot",
        "The owner adds a bot to the free seat",
        "tables",
        BOT_LEVEL,
        False,
        services.add_bot,
    ),
    TableVerb(
        "leave", "leave", "Stand up before the match starts", "tables", NO_BODY, False, services.leave_seat
    ),
    TableVerb("start", "start", "The owner starts the match", "tables", VERSION, False, services.start_match),
    TableVerb(
        "next_deal", "next-deal", "Deal the next deal of the match", "play", VERSION, True, services.next_deal
    ),
    TableVerb("resign", "resign", "Give up the match", "play", VERSION, True, services.resign),
    TableVerb(
        "more_time",
        "more-time",
        "Give the opponent one more turn clock on their turn",
        "play",
        VERSION,
        True,
        services.give_more_time,
    ),
    TableVerb(
        "rematch_offer", "rematch/offer", "Offer a rematch", "play", NO_BODY, True, services.offer_rematch
    ),
    TableVerb(
        "rematch_accept",
        "rematch/accept",
        "Accept the opponent's rematch offer",
        "play",
        NO_BODY,
        True,
        services.accept_rematch,
    ),
    TableVerb(
        "rematch_decline",
        "rematch/decline",
        "Decline the opponent's rematch offer",
        "play",
        NO_BODY,
        True,
        services.decline_rematch,
    ),
)

BY_NAME = {verb.name: verb for verb in VERBS}
SOCKET_VERBS = {verb.name: verb for verb in VERBS if verb.socket}


def for_page() -> list[dict[str, Any]]:
    """What the table page's script needs: each verb's name, HTTP path and socket form."""
    return [{"name": verb.name, "path": verb.path, "socket": verb.socket} for verb in VERBS]
