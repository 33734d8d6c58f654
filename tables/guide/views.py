"""The rules and help pages. Every number a rules page shows is read from the rule set itself
(rules.RULESETS) and every worked example is scored by the engine (rules.showdown), so the
pages cannot drift from what the tables play."""

from __future__ import annotations

from dataclasses import dataclass

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

import rules
from rules import RULESETS, Card, Ruleset, Showdown, scoring
from tables.bank import engine as bank
from tables.challenges.models import Challenge
from tables.challenges.services import MAX_OPEN_CHALLENGES, MAX_OPEN_SEEKS
from tables.play.models import Table
from tables.templatetags.ginmesa import clock_label

RANKS = {1: "A", 11: "J", 12: "Q", 13: "K"}
SUITS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}

# The worked examples: hands of ten cards (eleven for big gin), as the engine takes them.
KNOCK = ("7S 7H 7D 4C 5C 6C JH QH KH 3D", "9S 9H 9D 2H 3H 4H 7C 3C QS 5D")  # two layoffs (seed 004)
GIN = ("AS 2S 3S 5H 6H 7H 8C 8D 8S 8H", KNOCK[1])
UNDERCUT = ("7S 7H 7D 4C 5C 6C JH QH KH TD", "9S 9H 9D 3H 4H 5H JC QC KC 2D")
BIG_GIN = ("AS 2S 3S 4S 5H 6H 7H 8C 8D 8S 8H", KNOCK[1])
OKLAHOMA_UPCARD = rules.parse_cards("7S")[0]  # Oklahoma: knock limit 7, and a spade doubles
EXAMPLE_DEALS_WON = (4, 2)  # the match-end example: the winner won 4 deals, the loser 2


@dataclass(frozen=True)
class ShownCard:
    text: str
    red: bool


@dataclass(frozen=True)
class Example:
    title: str
    showdown: Showdown
    knocker_melds: list[list[ShownCard]]
    knocker_deadwood: list[ShownCard]
    defender_melds: list[list[ShownCard]]
    defender_deadwood: list[ShownCard]
    layoffs: list[ShownCard]
    sum: str  # how the points add up


def shown(cards: tuple[Card, ...] | list[Card]) -> list[ShownCard]:
    return [
        ShownCard(RANKS.get(card.rank, str(card.rank)) + SUITS[card.suit], card.suit in "HD")
        for card in cards
    ]


def example(
    title: str, ruleset: Ruleset, hands: tuple[str, str], knock_limit: int | None = None, multiplier: int = 1
) -> Example:
    knocker, defender = rules.parse_cards(hands[0]), rules.parse_cards(hands[1])
    result = rules.showdown(ruleset, knocker, defender, knock_limit=knock_limit, multiplier=multiplier)
    k, d = result.knocker_deadwood, result.defender_deadwood
    sums = {  # the sum rules.scoring.deal_points makes, written out
        scoring.KNOCK: f"{d} − {k}",
        scoring.GIN: f"{ruleset.gin_bonus} + {d}",
        scoring.BIG_GIN: f"{ruleset.big_gin_bonus} + {d}",
        scoring.UNDERCUT: f"({k} − {d}) + {ruleset.undercut_bonus}",
    }
    total = sums[result.outcome] if multiplier == 1 else f"({sums[result.outcome]}) × {multiplier}"
    return Example(
        title=title,
        showdown=result,
        knocker_melds=[shown(meld) for meld in result.knocker_melds],
        knocker_deadwood=shown(result.knocker_deadwood_cards),
        defender_melds=[shown(meld) for meld in result.defender_melds],
        defender_deadwood=shown(result.defender_deadwood_cards),
        layoffs=shown([layoff.card for layoff in result.layoffs]),
        sum=f"{total} = {result.points}",
    )


def examples(ruleset: Ruleset) -> list[Example]:
    found = [
        example(_("A knock, with two cards laid off"), ruleset, KNOCK),
        example(_("Gin"), ruleset, GIN),
        example(_("An undercut"), ruleset, UNDERCUT),
    ]
    if ruleset.has_big_gin:
        found.append(example(_("Big gin"), ruleset, BIG_GIN))
    if ruleset.oklahoma:
        limit, multiplier = deal_terms(ruleset, OKLAHOMA_UPCARD)
        title = _("Gin with %(card)s turned up: knock limit %(limit)s, the deal counts %(times)s times") % {
            "card": shown([OKLAHOMA_UPCARD])[0].text,
            "limit": limit,
            "times": multiplier,
        }
        found.append(example(title, ruleset, GIN, knock_limit=limit, multiplier=multiplier))
    return found


def deal_terms(ruleset: Ruleset, upcard: Card) -> tuple[int, int]:
    """(knock limit, score multiplier) of a deal of ``ruleset`` with ``upcard`` turned up, as
    the engine sets them (Oklahoma takes both from the upcard)."""
    others = [card for card in rules.CARDS if card != upcard]
    upcard_at = 2 * 10  # dealt after both hands of ten
    deal = rules.Deal.new(ruleset, 0, [*others[:upcard_at], upcard, *others[upcard_at:]])
    return deal.knock_limit, deal.multiplier


def match_end(ruleset: Ruleset) -> dict[str, int] | None:
    """The bonuses at the end of a match the winner took by EXAMPLE_DEALS_WON deals."""
    if ruleset.single_deal:
        return None
    won, lost = EXAMPLE_DEALS_WON
    return {
        "won": won,
        "lost": lost,
        "winner": ruleset.game_bonus + won * ruleset.per_deal_bonus,
        "loser": lost * ruleset.per_deal_bonus,
    }


# -- the table of values ----------------------------------------------------------------------

ROWS = (
    ("knock_limit", gettext_lazy("Knock limit (deadwood at most)")),
    ("oklahoma", gettext_lazy("Oklahoma: the first upcard")),
    ("gin_bonus", gettext_lazy("Gin bonus")),
    ("big_gin", gettext_lazy("Big gin (eleven cards melded, no discard)")),
    ("undercut_bonus", gettext_lazy("Undercut bonus (a tie is an undercut)")),
    ("upcard", gettext_lazy("First upcard")),
    ("next_dealer", gettext_lazy("Next dealer after a scored deal")),
    ("length", gettext_lazy("Match length")),
    ("game_bonus", gettext_lazy("Game bonus at match end")),
    ("per_deal", gettext_lazy("Bonus per deal won, at match end")),
    ("knock_shown", gettext_lazy("A knock is shown")),
    ("dead_deal", gettext_lazy("Dead deal")),
)


def value(ruleset: Ruleset, row: str) -> str:
    """One cell of the table of values, in words, from the rule set's own numbers."""
    if row == "knock_limit":
        if ruleset.oklahoma:
            return _("the first upcard's value (an ace: gin only)")
        return str(ruleset.knock_limit)
    if row == "oklahoma":
        if ruleset.oklahoma:
            return _("sets the knock limit; a spade doubles the deal's score")
        return _("not played")
    if row == "gin_bonus":
        return _("%(bonus)s + the defender's deadwood") % {"bonus": ruleset.gin_bonus}
    if row == "big_gin":
        if ruleset.big_gin_bonus is None:
            return _("not played")
        return _("%(bonus)s + the defender's deadwood") % {"bonus": ruleset.big_gin_bonus}
    if row == "undercut_bonus":
        return _("%(bonus)s + the difference") % {"bonus": ruleset.undercut_bonus}
    if row == "upcard":
        if ruleset.offer_round:
            return _("offer round: the non-dealer, then the dealer, may take it or pass")
        return _("no offer round: the first player may take it or draw from the stock")
    if row == "next_dealer":
        return _("the winner of the deal") if ruleset.next_dealer == "winner" else _("the other player")
    if row == "length":
        if ruleset.single_deal:
            return _("one deal (a table may play to 100)")
        return _("to %(target)s points") % {"target": ruleset.target}
    if row == "game_bonus":
        if not ruleset.game_bonus and not ruleset.shutout_bonus:
            return _("none")
        return _("%(bonus)s to the winner; %(shutout)s if the loser scored nothing") % {
            "bonus": ruleset.game_bonus,
            "shutout": ruleset.shutout_bonus,
        }
    if row == "per_deal":
        if not ruleset.per_deal_bonus:
            return _("none")
        return _("%(bonus)s to each player per deal won") % {"bonus": ruleset.per_deal_bonus}
    if row == "knock_shown":
        return _("face down, then spread") if ruleset.knock_face_down else _("face up")
    if row == "dead_deal":
        return _("a plain discard leaves %(cards)s or fewer cards in the stock") % {
            "cards": ruleset.dead_stock
        }
    raise ValueError(row)


def table_of_values(rulesets: list[Ruleset]) -> list[tuple[str, list[str]]]:
    return [(str(label), [value(ruleset, row) for ruleset in rulesets]) for row, label in ROWS]


# -- the pages ----------------------------------------------------------------------------------


def rules_index(request: HttpRequest) -> HttpResponse:
    rulesets = list(RULESETS.values())
    context = {"rulesets": rulesets, "values": table_of_values(rulesets)}
    return render(request, "guide/rules_index.html", context)


def rules_page(request: HttpRequest, name: str) -> HttpResponse:
    ruleset = RULESETS.get(name)
    if ruleset is None:
        raise Http404("There is no such rule set.")
    context = {
        "ruleset": ruleset,
        "rulesets": list(RULESETS.values()),
        "values": table_of_values([ruleset]),
        "examples": examples(ruleset),
        "match_end": match_end(ruleset),
    }
    return render(request, "guide/rules.html", context)


def help_page(request: HttpRequest) -> HttpResponse:
    context = {
        "clocks": [clock_label(seconds) for seconds in Table.TURN_CLOCKS],
        "default_clock": clock_label(Table.DEFAULT_TURN_SECONDS),
        "bank": bank.slow_days(),
        "forfeit_after": Table._meta.get_field("forfeit_after").default,
        "default_ruleset": RULESETS["playgridia"],
        "challenge_days": Challenge.LIFETIME.days,
        "max_challenges": MAX_OPEN_CHALLENGES,
        "max_seeks": MAX_OPEN_SEEKS,
    }
    return render(request, "guide/help.html", context)
