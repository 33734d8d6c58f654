"""A game table as the page and the API show it: seats, sides, the boards of the round (each a
link to its table, whose own page keeps every hand hidden), and the score sheet. Everything here
is public to whoever holds the invite link: no card is in it."""

from __future__ import annotations

from typing import Any

from django.urls import reverse

from tables.accounts.models import Player
from tables.variants import engine, selectors
from tables.variants.engine import GameRecord
from tables.variants.models import Board, GameTable


def game_detail(game: GameTable, viewer: Player | None) -> dict[str, Any]:
    seats = selectors.seats(game)
    record = engine.load_record(game) if game.record is not None else None
    teams = _teams(record)
    you = next((seat.number for seat in seats if viewer is not None and seat.player_id == viewer.pk), None)
    boards = [_board(board, you) for board in selectors.boards(game)]
    return {
        "token": game.invite_token,
        "variant": game.variant,
        "partners": game.partners,
        "ruleset": game.ruleset_name,
        "target": game.target,
        "turn_seconds": game.turn_seconds,
        "status": game.status,
        "version": game.version,
        "seat_count": game.seat_count,
        "owner_id": game.owner_id,
        "you": you,
        "is_owner": viewer is not None and viewer.pk == game.owner_id,
        "seats": [
            {
                "number": seat.number,
                "player_id": seat.player_id,
                "name": seat.player.name,
                "robot": seat.player.is_bot,
                "team": None if teams is None else _team_of(teams, seat.number),
            }
            for seat in seats
        ],
        "teams": None if teams is None else [list(team) for team in teams],
        "totals": None if record is None else list(record.totals),
        "waiting": _waiting(record),
        "score_sheet": _sheet(record),
        "boards": boards,
        "your_board": next((b for b in boards if b["yours"] and not b["over"]), None),
        "winner": game.winner,
        "ended_by": game.ended_by,
        "final_scores": None if record is None else engine.final_scores(record),
        "next_game": None if game.next_game is None else game.next_game.invite_token,
    }


def _teams(record: GameRecord | None) -> tuple[tuple[int, int], tuple[int, int]] | None:
    teams = getattr(record, "teams", None)
    return None if teams is None else (tuple(teams[0]), tuple(teams[1]))


def _team_of(teams: tuple[tuple[int, int], tuple[int, int]], seat: int) -> int:
    return 0 if seat in teams[0] else 1


def _waiting(record: GameRecord | None) -> int | None:
    if record is None or record.is_over or not hasattr(record, "who_waits"):
        return None
    return int(record.who_waits)


def _sheet(record: GameRecord | None) -> list[dict[str, Any]]:
    if record is None:
        return []
    rows = record.to_dict()
    return list(rows.get("rounds", rows.get("deals", [])))


def _board(board: Board, you: int | None) -> dict[str, Any]:
    return {
        "round": board.round,
        "number": board.number,
        "players": list(board.players),
        "dealer": board.dealer,
        "table": board.table.invite_token,
        "path": reverse("table", args=[board.table.invite_token]),
        "yours": you is not None and you in board.players,
        "over": board.recorded_at is not None,  # its result is in the game (at its match's end)
    }


def page_rows(detail: dict[str, Any]) -> list[dict[str, Any]]:
    """The score sheet as the page shows it: names instead of seats, a row per deal (three) or
    per netted round (four)."""
    names = {seat["number"]: seat["name"] for seat in detail["seats"]}

    def named(seat: int | None) -> str:
        return "—" if seat is None else names.get(seat, "?")

    rows = []
    for index, row in enumerate(detail["score_sheet"], start=1):
        if detail["variant"] == GameTable.Variant.PARTNERSHIP:
            deals = [
                {
                    "players": " – ".join(named(seat) for seat in board["players"]),
                    "outcome": result["outcome"],
                    "winner": named(result["winner"]),
                    "points": result["points"],
                }
                for board, result in zip(row["boards"], row["results"], strict=True)
            ]
            rows.append(
                {
                    "number": index,
                    "deals": deals,
                    "nets": row["nets"],
                    "winner": row["winner"],
                    "points": row["points"],
                    "totals": row["totals"],
                }
            )
        else:
            rows.append(
                {
                    "number": index,
                    "deals": [
                        {
                            "players": " – ".join(named(seat) for seat in row["players"]),
                            "outcome": row["outcome"],
                            "winner": named(row["winner"]),
                            "points": row["points"],
                        }
                    ],
                    "waiting": named(row["waiting"]),
                    "totals": row["totals"],
                }
            )
    return rows


def board_names(detail: dict[str, Any]) -> list[dict[str, Any]]:
    """The boards with their players' and dealer's names, newest round first."""
    names = {seat["number"]: seat["name"] for seat in detail["seats"]}
    return [
        {
            **board,
            "names": [names.get(seat, "?") for seat in board["players"]],
            "dealer_name": names.get(board["dealer"], "?"),
        }
        for board in reversed(detail["boards"])
    ]
