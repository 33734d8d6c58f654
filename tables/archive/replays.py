"""The archive's answers: a finished match with its deals, and a deal replayed step by step.

Every position is the engine's: the deal is rebuilt from its deck and its move log with
``rules`` (one ``apply`` per logged action), and each step shows what the engine holds after
it: both hands (grouped by the engine's best melding), the stock's size, the discard pile and
the move just made. The stock's cards are never listed (nobody ever saw them), not even at
the end; the showdown is the engine's result. Which rows a caller may ask for is
tables.archive.selectors's business, not this module's.
"""

from __future__ import annotations

from typing import Any

import rules
from tables.play import engine, payloads
from tables.play.models import Deal, Match, Table


def _cards(cards: tuple[rules.Card, ...]) -> list[str]:
    return [str(card) for card in cards]


def _hand(cards: tuple[rules.Card, ...]) -> dict[str, Any]:
    melding = rules.best_melding(cards)
    return {
        "cards": _cards(cards),
        "melds": [_cards(meld) for meld in melding.melds],
        "deadwood_cards": _cards(melding.deadwood),
        "deadwood": melding.points,
    }


def _step(state: rules.Deal, move: rules.Event | None) -> dict[str, Any]:
    return {
        "version": state.version,
        "move": None if move is None else {"seat": move.seat, "kind": move.kind, "card": _card(move.card)},
        "hands": [_hand(state.hand(seat)) for seat in (0, 1)],
        "stock_count": state.stock_count,
        "discard_pile": _cards(state.discard_pile),
        "phase": state.phase,
        "to_play": state.to_play,
    }


def _card(card: rules.Card | None) -> str | None:
    return None if card is None else str(card)


def replay_steps(deal: Deal, actions: list[str]) -> tuple[list[dict[str, Any]], rules.Deal]:
    """Step 0 (the deal as dealt) and one step per action, with the engine's last state."""
    state = engine.replay_row(deal, [])
    steps = [_step(state, None)]
    for action in actions:
        state, events = state.apply(action)
        steps.append(_step(state, events[0]))  # the move itself; a deal's end follows it
    return steps, state


def _showdown(match: Match, deal: Deal, state: rules.Deal) -> dict[str, Any] | None:
    """The end of the deal as the table's summary box draws it (static/js/summary.js)."""
    if state.result is None:
        return None
    sheet = engine.load_match(match).score_sheet[: deal.number]
    return {
        "result": state.result.to_dict(),
        "knocker": state.knocker,
        "knock_face_down": state.ruleset.knock_face_down,  # the summary box names that knock so
        "dead_hands": payloads.dead_hands(state.view(None)),
        "score_sheet": [row.to_dict() for row in sheet],
    }


def match_head(match: Match) -> dict[str, Any]:
    """Who played, under which rules, and how the match ended."""
    table: Table = match.table
    scores = match.final_scores
    return {
        "id": match.pk,
        "number": match.number,
        "table_public": table.visibility == Table.Visibility.PUBLIC,
        "ruleset": match.ruleset.get("name", table.ruleset_name),
        "target": match.ruleset.get("target"),
        "players": [payloads.player_summary(player) for player in table.seats],
        "status": match.status,
        "outcome": match.outcome or None,
        "winner": match.winner,
        "score": [score["total"] for score in scores] if scores else list(engine.load_match(match).totals),
        "final_scores": scores,
        "started_at": match.started_at.isoformat(),
        "ended_at": match.ended_at.isoformat() if match.ended_at else None,
    }


def deal_row(deal: Deal, replayable: bool, totals: list[int] | None = None) -> dict[str, Any]:
    return {
        "number": deal.number,
        "status": deal.status,
        "outcome": deal.outcome or None,
        "winner": deal.winner,
        "points": deal.points,
        "totals": totals,
        "replayable": replayable,
    }


def match_archive(match: Match, deals: list[Deal], replayable: list[bool]) -> dict[str, Any]:
    """The match and its deals, each with the running totals after it (the score sheet's)."""
    sheet = engine.load_match(match).score_sheet
    rows = [
        deal_row(deal, can, list(sheet[deal.number - 1].totals) if deal.number <= len(sheet) else None)
        for deal, can in zip(deals, replayable, strict=True)
    ]
    return {**match_head(match), "deals": rows}


def deal_replay(match: Match, deal: Deal, actions: list[str]) -> dict[str, Any]:
    """A deal of ``match`` replayed from its log: every step and, when it is over, the showdown."""
    steps, state = replay_steps(deal, actions)
    return {
        "match": match_head(match),
        "deal": {**deal_row(deal, True), "dealer": deal.dealer},
        "steps": steps,
        "showdown": _showdown(match, deal, state),
    }
