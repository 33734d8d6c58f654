"""Translation between rows and the engine's values: the only module of tables/ that knows
how a `rules.Deal` or `rules.Match` is stored. No rule is decided here."""

from __future__ import annotations

import dataclasses
from typing import Any

import rules
from rules import RULESETS, Ruleset
from tables.core.errors import BadRequest
from tables.play.models import Deal, Match

# The engine's own bounds of a match target (rules.ruleset).
MIN_TARGET, MAX_TARGET = 1, 10000


def build_ruleset(
    name: str, target: Any = None, custom: dict[str, Any] | None = None, hollywood: bool = False
) -> Ruleset:
    """A preset, optionally with a match target (any score the engine takes), Hollywood scoring or custom values
    the engine validates."""
    preset = RULESETS.get(name)
    if preset is None:
        raise BadRequest(f"Unknown rule set {name!r}; choose one of {', '.join(RULESETS)}.", field="ruleset")
    if target is not None and (type(target) is not int or not MIN_TARGET <= target <= MAX_TARGET):
        raise BadRequest(
            f"target must be a whole number of points from {MIN_TARGET} to {MAX_TARGET} "
            "(e.g. 50, 100, 150, 250), or empty for the rule set's own length.",
            field="target",
        )
    options = dict(custom or {})
    if target is not None:
        options["target"] = target
    if hollywood:
        if options.get("target", preset.target) is None:
            raise BadRequest(
                "Hollywood scoring plays three games to a target: a single deal cannot have it"
                " (playgridia: play to 100).",
                field="hollywood",
            )
        options["hollywood"] = True
    if "name" in options:
        raise BadRequest("The rule set's name is set by 'ruleset'.", field="custom")
    if not options:
        return preset
    try:
        return Ruleset.from_dict({**preset.to_dict(), **options})
    except rules.InvalidRuleset as error:
        raise BadRequest(f"Invalid rule set option: {error}", field="custom") from None


def ruleset_of(data: dict[str, Any]) -> Ruleset:
    return Ruleset.from_dict(data)


def load_deal(row: Deal) -> rules.Deal:
    """The row's state, parsed once per snapshot: a rules.Deal is immutable, so every reader
    of the same row (the answer, each seat's view) can share it."""
    cached: tuple[Any, rules.Deal] | None = getattr(row, "_parsed", None)
    if cached is not None and cached[0] is row.snapshot:
        return cached[1]
    deal = rules.Deal.from_dict(row.snapshot)
    row._parsed = (row.snapshot, deal)
    return deal


def store_deal(row: Deal, deal: rules.Deal) -> None:
    """Copy the engine's state onto the row (the caller saves it)."""
    row.snapshot = deal.to_dict()
    row._parsed = (row.snapshot, deal)
    row.version = deal.version
    row.phase = deal.phase
    row.to_play = deal.to_play
    if deal.is_over:
        row.status = Deal.Status.OVER
        row.outcome = deal.outcome or ""
        row.winner = deal.winner
        row.points = deal.points
        row.knocker = deal.knocker
        result = deal.result
        row.knocker_deadwood = result.knocker_deadwood if isinstance(result, rules.Showdown) else None


def new_deal_row(match: Match, number: int, dealer: int) -> tuple[Deal, rules.Deal]:
    ruleset = ruleset_of(match.ruleset)
    deck = rules.new_deck()
    deal = rules.Deal.new(ruleset, dealer, deck)
    row = Deal(
        match=match,
        number=number,
        ruleset=ruleset.to_dict(),
        dealer=dealer,
        deck=" ".join(str(card) for card in deck),
    )
    store_deal(row, deal)
    return row, deal


def replay_row(row: Deal, actions: list[str]) -> rules.Deal:
    return rules.replay(ruleset_of(row.ruleset), row.dealer, row.deck.split(), actions)


def load_match(row: Match) -> rules.Match:
    return rules.Match.from_dict(row.record)


def new_match(ruleset: Ruleset, first_dealer: int | None = None, board: str | None = None) -> rules.Match:
    """A match whose first dealer is ``first_dealer``, or drawn at random by the engine;
    ``board``: one deal of a game of three or four (rules.Match's board kinds)."""
    return rules.Match.new(ruleset, first_dealer, board=board)


def final_scores(match: rules.Match) -> list[dict[str, int]] | None:
    scores = match.final_scores
    return None if scores is None else [score.to_dict() for score in scores]


def with_target(ruleset: Ruleset, target: int | None) -> Ruleset:
    return dataclasses.replace(ruleset, target=target)
