"""Ginmesa's robots: TITO (easy), CARMEN (medium) and LUNA (hard).

Each is a class built with no arguments whose ``choose(view, rng, match=None)``
returns a legal `rules.Action` from a seat's `rules.DealView` alone (``match``,
optional, gives the match score). ``SimpleBot`` is the arena's reference opponent.
LUNA plays with a `LunaSettings` value, ``LUNA_SETTINGS`` unless given another.
"""

from .base import Bot, MatchContext
from .carmen import Carmen
from .luna import Luna
from .luna_settings import LUNA_SETTINGS, LunaSettings
from .simple import SimpleBot
from .tito import Tito

BOTS: dict[str, type[Tito] | type[Carmen] | type[Luna]] = {"tito": Tito, "carmen": Carmen, "luna": Luna}
ARENA_BOTS: dict[str, type[Tito] | type[Carmen] | type[Luna] | type[SimpleBot]] = {
    **BOTS,
    "simple": SimpleBot,
}

__all__ = [
    "ARENA_BOTS",
    "BOTS",
    "LUNA_SETTINGS",
    "Bot",
    "Carmen",
    "Luna",
    "LunaSettings",
    "MatchContext",
    "SimpleBot",
    "Tito",
]
