"""Ginmesa's Gin Rummy engine: pure Python, standard library only.

Everything a caller needs is importable from ``rules`` directly::

    from rules import RULESETS, Deal, Match

    match = Match.new(RULESETS["classic"])
    deal = match.next_deal()
    deal, events = deal.apply("pass")

``BUILD`` says which build of it runs: "compiled" (with mypyc, ``make engine``) or "pure"
(rules/build.py chooses).
"""

from .build import choose

BUILD = choose(__path__)  # before the engine's modules are imported: it decides where they come from

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
    UnsupportedVariant,
)
from .hollywood import Game
from .match import BOARD_ONE_DEAL, BOARD_UNTIL_SCORED, BOARDS, DealRecord, Match, SeatScore
from .melding import DiscardChoice, Melding, best_discard, best_melding, deadwood_after_each_discard
from .moves import ACTION_KINDS, Action, DeadDeal, Event
from .partnership import TEAMS, Board, Partnership, RoundRecord, round_nets
from .ruleset import RULESETS, Ruleset
from .scoring import ALL_OUTCOMES, OUTCOMES, deal_points
from .showdown import Layoff, Showdown, showdown
from .variants import PARTNERSHIP_TARGET, WINNER_STAYS_TARGET, DealResult
from .view import DealView
from .winner_stays import WinnerStays, WinnerStaysRecord

__all__ = [
    "ACTION_KINDS",
    "ALL_OUTCOMES",
    "BOARDS",
    "BOARD_ONE_DEAL",
    "BOARD_UNTIL_SCORED",
    "BUILD",
    "CARDS",
    "OUTCOMES",
    "PARTNERSHIP_TARGET",
    "RULESETS",
    "TEAMS",
    "WINNER_STAYS_TARGET",
    "Action",
    "Board",
    "Card",
    "DeadDeal",
    "Deal",
    "DealRecord",
    "DealResult",
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
    "Partnership",
    "RoundRecord",
    "RulesError",
    "Ruleset",
    "SeatScore",
    "Showdown",
    "UnsupportedVariant",
    "WinnerStays",
    "WinnerStaysRecord",
    "best_discard",
    "best_melding",
    "deadwood_after_each_discard",
    "deal_points",
    "new_deck",
    "parse_cards",
    "replay",
    "round_nets",
    "showdown",
    "timeout_action",
]
