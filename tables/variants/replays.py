"""A game of three or four looked at again: the archive's answers (a finished game in the
player's list, a board's match as a deal of its game, the game's deals), and the staff replay of
a whole game: every board's match rebuilt from its move log by the engine, and the game's record
rebuilt from those results by the pure rules (rules.WinnerStays / rules.Partnership), to compare
with the record the site stored.

What no move log holds is read from the stored rows: the record's start (who waits or deals
first, the teams, the target: drawn when the game started), each board match's start (its rule
set, first dealer and kind) and a resignation or forfeit (no move: the board match's "leaver",
or the game record's for a player who left away from a board). Boards count in the order their
results reached the game (``recorded_at``), as the site recorded them; a board recorded after the
game was over (called off) counts nothing, as at the site, and the game's end by a resignation
away from any board is placed before it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

import rules
from tables.accounts.models import Player
from tables.archive import selectors as archive
from tables.play import engine as play_engine
from tables.play.models import Match
from tables.variants import engine, payloads, selectors
from tables.variants.engine import GameRecord
from tables.variants.models import Board, GameSeat, GameTable


@dataclass
class DealReplay:
    """One deal of a board's match as its move log replays."""

    deal_id: int
    number: int
    moves: int
    over: bool  # the engine's replay reached the deal's end
    outcome: str | None  # the engine's: gin, knock, undercut, dead... (None: not over)
    winner: int | None  # a deal seat (0 or 1)
    points: int


@dataclass
class BoardReplay:
    board: Board
    match_id: int | None
    deals: list[DealReplay] = field(default_factory=list)
    results: list[dict[str, Any]] = field(default_factory=list)  # as the game records them (game seats)
    leaver: int | None = None  # the game seat that resigned or forfeited at this board
    ended_by: str | None = None
    match_equal: bool | None = None  # the rebuilt board match equals the stored one
    counted: bool = False  # its result is in the rebuilt record
    note: str = ""


@dataclass
class GameReplay:
    game: GameTable
    boards: list[BoardReplay]
    rebuilt: dict[str, Any] | None  # the rebuilt record, as to_dict
    rows: list[dict[str, Any]]  # its score sheet as the game page shows it
    differences: list[str]  # where the rebuilt record and the stored one differ
    error: str = ""
    final_scores: list[dict[str, int]] | None = None  # the rebuilt record's, bonuses in
    winner: int | None = None  # the rebuilt record's winning seat (three) or team (four)

    @property
    def equal(self) -> bool:
        return not self.error and self.rebuilt is not None and not self.differences


def replay_game(game: GameTable) -> GameReplay:
    stored: Any = game.record
    if stored is None:
        return GameReplay(game, [], None, [], [], "The game has not started: there is no record.")
    try:
        record = _fresh_record(game.variant, stored)
    except (KeyError, TypeError, rules.RulesError) as error:
        return GameReplay(game, [], None, [], [], f"The stored record's start cannot be read: {error}")
    replayed = []
    refusal = ""
    for board in _boards_in_recorded_order(game):
        board_replay = _replay_board(board)
        replayed.append(board_replay)
        if refusal:
            continue
        if _after_the_end(board, game):  # a board called off: the game ended before, maybe at no board
            record = _resigned_away_from_a_board(record, stored)
        try:
            record = _count(record, board_replay)
        except rules.RulesError as refused:
            refusal = f"Board {board.round}.{board.number}: the rules refuse its result: {refused}"
    record = _resigned_away_from_a_board(record, stored)
    rebuilt = _plain(record.to_dict())
    rows = payloads.page_rows(_detail(game, rebuilt))
    found = differences(rebuilt, _plain(stored))
    if record.winner != game.winner:
        found.append(f"the game's winner: rebuilt {record.winner!r}, stored {game.winner!r}")
    final = engine.final_scores(record)
    return GameReplay(game, replayed, rebuilt, rows, found, refusal, final, record.winner)


def _fresh_record(variant: str, stored: dict[str, Any]) -> GameRecord:
    """The record before its first deal, from the stored record's start."""
    ruleset = rules.Ruleset.from_dict(stored["ruleset"])
    if variant == GameTable.Variant.PARTNERSHIP:
        return rules.Partnership.new(ruleset, stored["teams"], stored["first_dealer_team"], stored["target"])
    return rules.WinnerStays.new(ruleset, stored["first_waiting"], stored["first_dealer"], stored["target"])


def _boards_in_recorded_order(game: GameTable) -> list[Board]:
    boards = selectors.boards(game)
    recorded = [(b.recorded_at, b) for b in boards if b.recorded_at is not None]
    recorded.sort(key=lambda pair: pair[0])
    return [board for _, board in recorded] + [b for b in boards if b.recorded_at is None]


def _replay_board(board: Board) -> BoardReplay:
    """The board's match rebuilt deal by deal from the move logs."""
    match = Match.objects.filter(table_id=board.table_id).order_by("number").first()
    replay = BoardReplay(board, None if match is None else match.pk)
    if match is None:
        replay.note = "no match"
        return replay
    stored = match.record
    rebuilt = rules.Match.new(
        play_engine.ruleset_of(stored["ruleset"]), match.first_dealer, stored.get("board")
    )
    try:
        for deal in archive.deals_of(match):
            actions = archive.actions_of(deal)
            state = play_engine.replay_row(deal, actions)
            outcome = (state.outcome or "dead") if state.is_over else None
            replay.deals.append(
                DealReplay(
                    deal.pk, deal.number, len(actions), state.is_over, outcome, state.winner, state.points
                )
            )
            if state.is_over and not rebuilt.is_over:
                rebuilt = rebuilt.record(state)
        left = play_engine.load_match(match)
        if left.leaver is not None and not rebuilt.is_over:
            rebuilt = rebuilt.resign(left.leaver, left.ended_by or "resign")
    except rules.RulesError as error:
        replay.note = f"the engine refuses its log: {error}"
        return replay
    replay.match_equal = _plain(rebuilt.to_dict()) == _plain(stored)
    players = (board.players[0], board.players[1])
    replay.results = [result.to_dict() for result in engine.board_results(rebuilt, players)]
    if rebuilt.leaver is not None:
        replay.leaver, replay.ended_by = players[rebuilt.leaver], rebuilt.ended_by
    elif not rebuilt.is_over:
        replay.note = "its log does not end the match (in play?)"
    return replay


def _count(record: GameRecord, replay: BoardReplay) -> GameRecord:
    """The record with a board's rebuilt result in it, as the site counts a board's end."""
    if replay.board.recorded_at is None:
        replay.note = replay.note or "not recorded yet"
        return record
    if record.is_over:
        replay.note = "after the game's end: counts nothing"
        return record
    if replay.leaver is not None:
        replay.counted = True
        return record.resign(replay.leaver, replay.ended_by or "resign")
    if replay.note:
        return record
    results = [rules.DealResult.from_dict(result) for result in replay.results]
    replay.counted = True
    return engine.record_board(record, replay.board.number, results)


def _after_the_end(board: Board, game: GameTable) -> bool:
    """Was the board's result written after the game ended (called off by the game's end)? A
    board whose end ended the game was recorded just before it."""
    return game.ended_at is not None and board.recorded_at is not None and board.recorded_at > game.ended_at


def _resigned_away_from_a_board(record: GameRecord, stored: dict[str, Any]) -> GameRecord:
    """A player who resigned while at no board (waiting, or their deal done): no board holds it."""
    leaver, reason = stored.get("leaver"), stored.get("ended_by")
    if record.is_over or leaver is None or reason is None:
        return record
    try:
        return record.resign(leaver, reason)
    except rules.RulesError:
        return record  # the comparison shows the stored leaver the rebuilt record lacks


def _detail(game: GameTable, rebuilt: dict[str, Any]) -> dict[str, Any]:
    seats = [{"number": seat.number, "name": seat.player.name} for seat in selectors.seats(game)]
    rows = rebuilt.get("rounds", rebuilt.get("deals", []))
    return {"variant": game.variant, "seats": seats, "score_sheet": rows}


def _plain(data: Any) -> Any:
    """As stored in JSON (tuples become lists), so that equal records compare equal."""
    return json.loads(json.dumps(data))


def differences(rebuilt: dict[str, Any], stored: Any) -> list[str]:
    """Each place the two records differ: a key, or a row of the score sheet."""
    if not isinstance(stored, dict):
        return [f"the stored record is not an object: {stored!r}"]
    found = []
    for key in sorted(set(rebuilt) | set(stored)):
        mine, theirs = rebuilt.get(key), stored.get(key)
        if mine == theirs:
            continue
        if key in ("deals", "rounds") and isinstance(mine, list) and isinstance(theirs, list):
            for index in range(max(len(mine), len(theirs))):
                row = mine[index] if index < len(mine) else None
                kept = theirs[index] if index < len(theirs) else None
                if row != kept:
                    found.append(f"{key} row {index + 1}: rebuilt {row!r}, stored {kept!r}")
        else:
            found.append(f"{key}: rebuilt {mine!r}, stored {theirs!r}")
    return found


# -- the archive's answers: a finished game in the player's list, a board's match, the game's deals


def _names(seats: list[GameSeat]) -> dict[int, str]:
    return {seat.number: seat.player.name for seat in seats}


def archive_row(game: GameTable, viewer: Player) -> dict[str, Any]:
    """A finished game as the player's archive lists it: the variant, each side with its final
    score (the bonuses in), the player's result and how it ended. The game's seats and their
    players are prefetched (tables.archive.selectors.finished_games_of)."""
    seats = list(game.seats.all())
    names = _names(seats)
    you = next(seat.number for seat in seats if seat.player_id == viewer.pk)
    record = engine.load_record(game)
    scores = engine.final_scores(record)
    totals = [score["total"] for score in scores] if scores else list(record.totals)
    if isinstance(record, rules.Partnership):
        sides = [list(team) for team in record.teams]
    else:
        sides = [[seat] for seat in sorted(names)]
    return {
        "token": game.invite_token,
        "variant": game.variant,
        "ruleset": game.ruleset_name,
        "sides": [
            {"names": [names.get(seat, "?") for seat in side], "score": total, "yours": you in side}
            for side, total in zip(sides, totals, strict=True)
        ],
        "won": game.winner is not None and game.winner == engine.side_of(record, you),
        "ended_by": game.ended_by or None,
        "leaver": None if record.leaver is None else names.get(record.leaver, "?"),
        "you_left": record.leaver == you,
        "ended_at": game.ended_at,
    }


def board_deal(board: Board, match_ids: dict[tuple[int, int], int]) -> dict[str, Any]:
    """A board's match as a deal of its game (for the match's archive page): the variant, its
    round (or deal) and number, the game's link and, once recorded, the row of the score sheet
    it is in: a partnership round's two deals, nets and points, or the deal of winner stays
    with who waited. ``match_ids``: the game's board matches (the other deal's link)."""
    game = board.game
    names = _names(selectors.seats(game))
    detail = {"variant": game.variant, "seats": [{"number": n, "name": name} for n, name in names.items()]}
    sheet = _sheet_of(game.record)
    row = None
    if board.round <= len(sheet):
        (row,) = payloads.page_rows({**detail, "score_sheet": [sheet[board.round - 1]]})
        for number, deal in enumerate(row["deals"]):
            deal["match_id"] = match_ids.get((board.round, number))  # the deals are in board order
            deal["this"] = number == board.number
    return {
        "token": game.invite_token,
        "variant": game.variant,
        "round": board.round,
        "number": board.number,
        "row": row,
        # three players' running totals by name; four's are the two teams' (row["totals"])
        "named_totals": [] if row is None else [(names.get(s, "?"), t) for s, t in enumerate(row["totals"])],
    }


def deal_links(game: GameTable, match_ids: dict[tuple[int, int], int]) -> list[dict[str, Any]]:
    """Every deal of a game, with its board match (for its archive page), in order."""
    names = _names(selectors.seats(game))
    return [
        {
            "round": board.round,
            "number": board.number,
            "names": [names.get(seat, "?") for seat in board.players],
            "match_id": match_ids[(board.round, board.number)],
        }
        for board in game.boards.order_by("round", "number")
        if (board.round, board.number) in match_ids
    ]


def _sheet_of(record: Any) -> list[dict[str, Any]]:
    """The stored record's score sheet: a row per round (four) or per deal (three)."""
    if not isinstance(record, dict):
        return []
    rows = record.get("rounds", record.get("deals"))
    return list(rows) if isinstance(rows, list) else []
