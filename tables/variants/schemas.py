"""Tables of three and four in the JSON API: what each endpoint takes and answers."""

from __future__ import annotations

from typing import Any

from ninja import Schema
from pydantic import Field


class GameIn(Schema):
    """A table of three or four: the game's options and its deals' (the new-table form's)."""

    players: int = Field(strict=True, description="3 (winner stays) or 4 (partnership gin)")
    partners: str = Field(
        "fixed", description="four players: fixed (seats 1+3 against 2+4) or drawn at the start"
    )
    target: int | None = Field(
        None,
        strict=True,
        description="points that win the game, for a player (three) or a team (four); null: 125 for "
        "four players; for three the rule set's target, or 100 where it plays a single deal",
    )
    ruleset: str = Field("playgridia", description="playgridia, classic, reino or oklahoma")
    hollywood: bool = Field(False, description="refused: Hollywood scoring does not combine with these games")
    custom: dict[str, Any] | None = Field(None, description="Other rules.Ruleset options to override")
    turn_seconds: int = Field(86400, description="each deal's turn clock: 30, 45, 60, 90, 600, 43200, ...")
    spectator_chat: bool = True
    forfeit_after: int = Field(3, description="consecutive timed-out turns that forfeit the game")
    move_log: bool | None = None
    time_bank: bool | None = Field(None, strict=True)
    rated: bool = Field(False, description="refused: tables of three and four are unrated")
    visibility: str = Field("invite", description="invite (by its link only) or public (listed in the lobby)")
    name: str | None = Field(None, description="a guest's name, for a browser with no identity yet")


class JoinIn(Schema):
    name: str | None = Field(None, description="a guest's name, for a browser with no identity yet")


class RobotIn(Schema):
    level: str = Field(description="tito, carmen or luna")


class LeaveIn(Schema):
    seat: int | None = Field(
        None, strict=True, description="the owner clears this seat (0 to 3); null: your own"
    )


class SeatOut(Schema):
    number: int
    player_id: int
    name: str
    robot: bool
    team: int | None


class BoardOut(Schema):
    round: int = Field(description="the partnership round, or the deal in winner stays, from 1")
    number: int = Field(description="the round's board: 0 or 1 (always 0 in winner stays)")
    players: list[int] = Field(description="the seats at the board's table: its seats 0 and 1")
    dealer: int
    table: str = Field(description="the board's table token (/api/tables/{token}): the deal is played there")
    path: str
    yours: bool
    over: bool


class GameHeadOut(Schema):
    """What names a game table in a list (the lobby) and heads its whole answer."""

    token: str
    variant: str = Field(description="winner_stays or partnership")
    ruleset: str
    target: int
    turn_seconds: int


class GameOut(GameHeadOut):
    partners: str
    visibility: str = Field(description="invite (by its link only) or public (listed in the lobby)")
    status: str = Field(description="waiting, playing or over")
    version: int
    seat_count: int
    owner_id: int
    you: int | None = Field(description="your seat, if you sit here")
    is_owner: bool
    seats: list[SeatOut]
    teams: list[list[int]] | None
    totals: list[int] | None = Field(description="points by seat (three) or team (four)")
    waiting: int | None = Field(description="winner stays: the seat sitting out the next deal")
    score_sheet: list[dict[str, Any]] = Field(description="a row per deal (three) or netted round (four)")
    boards: list[BoardOut]
    your_board: BoardOut | None
    winner: int | None = Field(description="the winning seat (three) or team (four)")
    ended_by: str = Field(description="resign or forfeit when a player left the game; else empty")
    final_scores: list[dict[str, int]] | None
    next_game: str | None = Field(
        description="the token of the next game at this table (PLAY AGAIN), once opened"
    )


class BoardResultOut(Schema):
    outcome: str = Field(description="knock, gin, big_gin, undercut or dead; resigned or forfeit")
    winner: int | None = Field(description="the seat that scored (none for a dead, resigned or forfeit deal)")
    loser: int | None = Field(description="the seat that resigned or forfeited, if one did")
    points: int


class BoardViewOut(Schema):
    """A board as a spectator of its table sees it: counts and the discard pile's top, never a
    card of a hand. Seats are the game's."""

    round: int
    number: int
    table: str = Field(description="the board's table token (/api/tables/{token})")
    path: str
    table_version: int = Field(description="the board's table version: it moves with every move")
    players: list[int] = Field(description="the game seats at the board's seats 0 and 1")
    names: list[str]
    status: str = Field(description="the table's: playing, between_deals or match_over")
    over: bool = Field(description="its result is in the game's record")
    to_play: int | None = Field(description="the game seat whose turn it is, while the deal is on")
    discard_top: str | None = Field(description='the discard pile\'s top card, such as "7H"')
    discard_count: int
    stock_count: int | None
    hand_counts: list[int] = Field(description="cards held, by board seat (as players)")
    result: BoardResultOut | None = Field(description="how the deal in view ended, once it has")


class BoardsOut(Schema):
    token: str
    version: int = Field(description="the game's version: it moves when a board's result reaches the game")
    status: str
    round: int | None = Field(description="the round (four) or deal (three) shown; none before the start")
    boards: list[BoardViewOut]


class LobbyGameOut(GameHeadOut):
    owner: str
    taken: int = Field(description="seats taken")
    seat_count: int


class LobbyGamesOut(Schema):
    games: list[LobbyGameOut]
