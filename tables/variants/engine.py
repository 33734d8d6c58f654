"""Translation between a game table's rows and the variants of the rules library
(rules.WinnerStays, rules.Partnership): the only module of tables.variants that knows how a
game's record is stored or how a board's match maps to it. No rule is decided here."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

import rules
from rules import DealResult, Partnership, WinnerStays
from tables.core.errors import BadRequest
from tables.play import engine as play_engine
from tables.variants.models import GameTable

GameRecord = WinnerStays | Partnership


@dataclass(frozen=True)
class BoardPlan:
    """A board to open: its round and number, the game seats at board seats 0 and 1, the dealer."""

    round: int
    number: int
    players: tuple[int, int]
    dealer: int


def board_kind(variant: str) -> str:
    """The board match of a variant's deals: partnership deals are never dealt again (a dead
    deal counts nothing); in winner stays the same two deal again until a deal is scored."""
    if variant == GameTable.Variant.PARTNERSHIP:
        return rules.BOARD_ONE_DEAL
    return rules.BOARD_UNTIL_SCORED


def new_record(variant: str, ruleset: rules.Ruleset, target: int | None, drawn: bool) -> GameRecord:
    """The game's record before its first deal (UnsupportedVariant, e.g. with Hollywood scoring,
    is a BadRequest). ``drawn``: the partners are drawn, else seats 1+3 against 2+4."""
    try:
        if variant == GameTable.Variant.PARTNERSHIP:
            return Partnership.new(ruleset, _teams(drawn), target=target)
        return WinnerStays.new(ruleset, target=target)
    except rules.UnsupportedVariant as error:
        raise BadRequest(str(error), field="hollywood") from None
    except rules.RulesError as error:  # the target: the engine's bounds
        raise BadRequest(str(error), field="target") from None


def _teams(drawn: bool) -> tuple[tuple[int, int], tuple[int, int]]:
    if not drawn:
        return rules.TEAMS
    seats = [0, 1, 2, 3]
    random.SystemRandom().shuffle(seats)
    first, second = sorted(seats[:2]), sorted(seats[2:])
    return (first[0], first[1]), (second[0], second[1])


def load_record(game: GameTable) -> GameRecord:
    data: Any = game.record
    if game.variant == GameTable.Variant.PARTNERSHIP:
        return Partnership.from_dict(data)
    return WinnerStays.from_dict(data)


def boards_due(record: GameRecord, opened: set[tuple[int, int]]) -> list[BoardPlan]:
    """The boards the record waits for that are not opened yet (``opened``: (round, number))."""
    if record.is_over:
        return []
    if isinstance(record, Partnership):
        plans = [
            BoardPlan(record.round_number, board.number, board.players, board.dealer)
            for board in record.boards
            if board.number in record.open_boards
        ]
    else:
        plans = [BoardPlan(len(record.records) + 1, 0, record.who_plays, record.dealer)]
    return [plan for plan in plans if (plan.round, plan.number) not in opened]


def board_results(board_match: rules.Match, players: tuple[int, int]) -> list[DealResult]:
    """A finished board match's deals as the variant records them, in game seats."""

    def seat(deal_seat: int | None) -> int | None:
        return None if deal_seat is None else players[deal_seat]

    return [
        DealResult(row.outcome, seat(row.winner), row.points, seat(row.knocker))
        for row in board_match.score_sheet
    ]


def record_board(record: GameRecord, number: int, results: list[DealResult]) -> GameRecord:
    """The record with a board's deals in it."""
    if isinstance(record, Partnership):
        (result,) = results  # a partnership board is one deal
        return record.record_score(number, result)
    return record.record_all(results)


def side_of(record: GameRecord, seat: int) -> int:
    """The side a seat plays for: its team (four players), or itself (three)."""
    return record.team_of(seat) if isinstance(record, Partnership) else seat


def final_scores(record: GameRecord) -> list[dict[str, int]] | None:
    scores = record.final_scores
    return None if scores is None else [score.to_dict() for score in scores]


def deal_ruleset(options: dict[str, Any]) -> rules.Ruleset:
    """The rule set of the game's deals, from its boards' table options."""
    return play_engine.build_ruleset(
        options.get("ruleset", "playgridia"), None, options.get("custom"), bool(options.get("hollywood"))
    )
