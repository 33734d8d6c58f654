"""Ginmesa's Gin Rummy engine: pure Python, standard library only.

Everything a caller needs is importable from ``rules`` directly::

    from rules import RULESETS, Deal, Match

    match = Match.new(RULESETS["classic"])
    deal = match.next_deal()
    deal, events = deal.apply("pass")
"""

from .cards import CARDS, Card, new_deck, parse_cards
from .deal import Deal, replay, timeout_action
from .errors import (
    IllegalMove,
    InvalidCard,
    InvalidDeck,
    InvalidHand,
    InvalidRuleset,
    InvalidState,
    RulesError,
)
from .hollywood import Game
from .match import DealRecord, Match, SeatScore
from .melding import DiscardChoice, Melding, best_discard, best_melding
from .moves import Action, DeadDeal, Event
from .ruleset import RULESETS, Ruleset
from .showdown import Layoff, Showdown, showdown
from .view import DealView

__all__ = [
    "CARDS",
    "RULESETS",
    "Action",
    "Card",
    "DeadDeal",
    "Deal",
    "DealRecord",
    "DealView",
    "DiscardChoice",
    "Event",
    "Game",
    "IllegalMove",
    "InvalidCard",
    "InvalidDeck",
    "InvalidHand",
    "InvalidRuleset",
    "InvalidState",
    "Layoff",
    "Match",
    "Melding",
    "RulesError",
    "Ruleset",
    "SeatScore",
    "Showdown",
    "best_discard",
    "best_melding",
    "new_deck",
    "parse_cards",
    "replay",
    "showdown",
    "timeout_action",
]
