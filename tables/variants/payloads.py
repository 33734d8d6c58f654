"""A game table as the page and the API show it: seats, sides, the boards of the round (each a
link to its table, whose own page keeps every hand hidden), and the score sheet. Everything here
is public to whoever holds the invite link: no card is in it."""

from __future__ import annotations

from typing import Any

from django.urls import reverse

from tables.accounts.models import Player
from tables.play import engine as play_engine
from tables.play import payloads as table_payloads
from tables.play.models import Deal, Match
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
        "visibility": game.visibility,
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


def board_view(board: Board, names: dict[int, str]) -> dict[str, Any]:
    """A board as a spectator of its table sees it, built from the engine's view for a spectator
    (``view(None)``, as tables.play.payloads does): whose turn, the discard pile's top, the
    stock's and each hand's count, and the deal's result once it ends; never a card of a hand.
    Seats are the game's; ``names`` by game seat."""
    table = board.table
    deal = table.current_deal
    view = None if deal is None else play_engine.load_deal(deal).view(None)
    top = None if view is None else view.top_discard
    return {
        "round": board.round,
        "number": board.number,
        "table": table.invite_token,
        "path": reverse("table", args=[table.invite_token]),
        "table_version": table.version,
        "players": list(board.players),
        "names": [names.get(seat, "?") for seat in board.players],
        "status": table_payloads.table_status(table),
        "over": board.recorded_at is not None,
        "to_play": None if view is None or view.to_play is None else board.players[view.to_play],
        "discard_top": None if top is None else str(top),
        "discard_count": 0 if view is None else view.discard_count,
        "stock_count": None if view is None else view.stock_count,
        "hand_counts": [0, 0] if view is None else list(view.hand_counts),
        "result": None if deal is None else _deal_result(board, deal),
    }


def _deal_result(board: Board, deal: Deal) -> dict[str, Any] | None:
    """How the board's deal in view ended (in game seats), once it has: scored, dead, or its
    match resigned or forfeited."""
    match = deal.match
    if match.outcome in (Match.Outcome.RESIGNED, Match.Outcome.FORFEIT):
        loser = None if match.winner is None else board.players[1 - match.winner]
        return {"outcome": match.outcome, "winner": None, "loser": loser, "points": 0}
    if deal.status != Deal.Status.OVER:
        return None
    results = engine.board_results(play_engine.load_match(match), (board.players[0], board.players[1]))
    if not results:
        return None
    last = results[-1]
    return {"outcome": last.outcome, "winner": last.winner, "loser": None, "points": last.points}


def boards_payload(game: GameTable, boards: list[Board]) -> dict[str, Any]:
    """The API's spectator view of a round's boards (GET /api/games/{token}/boards)."""
    names = {seat.number: seat.player.name for seat in selectors.seats(game)}
    return {
        "token": game.invite_token,
        "version": game.version,
        "status": game.status,
        "round": boards[0].round if boards else None,
        "boards": [board_view(board, names) for board in boards],
    }


def board_panel(game: GameTable, detail: dict[str, Any], at: Board | None) -> dict[str, Any] | None:
    """The game's panel on a page. At a board's table page (``at``): the other board of its
    round (four players), the score sheet, and the round's netting once both deals are in. On
    the game page (``at`` None), while the game is on: the boards of the newest round the
    viewer does not play (the running deal, for the player waiting in winner stays)."""
    if at is None and detail["status"] != GameTable.Status.PLAYING:
        return None
    boards = selectors.round_boards(game, None if at is None else at.round)
    if at is None:
        shown = [board for board in boards if detail["you"] not in board.players]
    else:
        shown = [board for board in boards if board.pk != at.pk]
    if at is None and not shown:
        return None
    names = {seat["number"]: seat["name"] for seat in detail["seats"]}
    views = [_for_page(board_view(board, names), names) for board in shown]
    rows = page_rows(detail) if at is not None else []
    round_number = at.round if at is not None else (boards[0].round if boards else 0)
    partnership = game.variant == GameTable.Variant.PARTNERSHIP
    return {
        "game": detail,
        "at": None if at is None else at.table.invite_token,
        "round": round_number,
        "boards": views,
        "rows": rows,
        "teams": _teams_named(detail) if at is not None else [],
        "netting": rows[round_number - 1] if partnership and len(rows) >= round_number > 0 else None,
        "settled": detail["status"] == GameTable.Status.OVER
        or (at is not None and all(board.recorded_at is not None for board in boards)),
        "mark": "/".join(
            [str(game.version), *(f"{view['table']}:{view['table_version']}" for view in views)]
        ),
    }


def _teams_named(detail: dict[str, Any]) -> list[list[str]]:
    """Each team's players by name (four players); none for three, where each plays alone."""
    if detail["teams"] is None:
        return []
    names = {seat["number"]: seat["name"] for seat in detail["seats"]}
    return [[names.get(seat, "?") for seat in team] for team in detail["teams"]]


SUIT_SIGNS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def _for_page(view: dict[str, Any], names: dict[int, str]) -> dict[str, Any]:
    """A board's view with what the page prints: names instead of seats, the pile's top as a card."""
    result = view["result"]
    top = view["discard_top"]
    return {
        **view,
        "to_play_name": None if view["to_play"] is None else names.get(view["to_play"], "?"),
        "counts": list(zip(view["names"], view["hand_counts"], strict=True)),
        "discard_label": None if top is None else top[:-1].replace("T", "10") + SUIT_SIGNS[top[-1]],
        "winner_name": _name_of(result, "winner", names),
        "loser_name": _name_of(result, "loser", names),
    }


def _name_of(result: dict[str, Any] | None, role: str, names: dict[int, str]) -> str | None:
    seat = None if result is None else result[role]
    return None if seat is None else names.get(seat, "?")


def lobby_game_row(game: GameTable) -> dict[str, Any]:
    """A public game waiting for players, as the lobby lists it (its seats prefetched)."""
    return {
        "token": game.invite_token,
        "variant": game.variant,
        "ruleset": game.ruleset_name,
        "target": game.target,
        "turn_seconds": game.turn_seconds,
        "owner": game.owner.name,
        "taken": len(game.seats.all()),
        "seat_count": game.seat_count,
    }
