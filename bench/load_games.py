"""Tables of four in the live load (bench/load.py --four-seat-share; docs/games.md).

A table of four is a partnership game (POST /api/games, three joins, start) whose deals are
played at boards: ordinary two-seat tables, two at a time (one a round), each one deal. Each
board takes a place of the load's rotation and is played on its sockets exactly as a two-player
table is, so its moves count in the same latency and lost/duplicated figures. When a board's
match is over the client reads the game (GET /api/games/{token}) until the next round's two
boards are open, connects to them and puts them in the board's places. A game that ends is
played again (POST .../again by the four, start by the first to ask), so its places keep moving.

Opponents are always of different teams; a team's two players use one server process and the
other team another, so every board's events cross Redis, as the two-player tables' do.
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bench.load import Load, Move, Table

# bench.load.report, and the figures of it the tables of four show on their own.
Report = Callable[["Load", list["Table"], float, list["Move"]], dict[str, Any]]
SHOWN = ("moves", "moves_per_second", "undelivered", "lost_versions", "duplicated_events", "latency_ms")

# How long the client waits for the next round's boards after both of a round's have ended.
OPEN_TIMEOUT = 30.0
POLL_SECONDS = 0.2


@dataclass
class Game:
    token: str
    accounts: list[str]  # the four players' API tokens, by their seat in the first game
    places: tuple[int, int] = (0, 0)  # the rotation's places of its boards 0 and 1
    seats: dict[int, str] = field(default_factory=dict)  # game seat -> account token (this game)
    boards: dict[str, Table] = field(default_factory=dict)  # every board's table, by its token
    ended: set[str] = field(default_factory=set)  # boards whose match the client saw end
    rounds_netted: int = 0  # of the games before this one at the table
    games_over: int = 0
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)


class Games:
    """The load's tables of four: their places in ``slots`` (the load's rotation, in which their
    boards are swapped as rounds open) and every board each has played."""

    def __init__(self, load: Load, make_table: Callable[..., Table], slots: list[Table]):
        self.load, self.make_table, self.slots = load, make_table, slots
        self.games: list[Game] = []
        self.stalled = 0  # a round's boards that did not open within OPEN_TIMEOUT

    async def open(self, accounts: list[str], count: int, turn_seconds: int) -> None:
        """``count`` games of four started from ``accounts`` (four each), 20 at a time; their
        first boards' tables are appended to the rotation (connect them as its other tables)."""
        gate = asyncio.Semaphore(20)

        async def one(number: int) -> tuple[Game, list[Table]]:
            async with gate:
                players = accounts[4 * number : 4 * number + 4]
                game = Game(await self.start(players, turn_seconds), players)
                await self.take_seats(game, number)
                opened = sorted(self.new_boards(game, await self.read(game)), key=lambda pair: pair[0])
                assert [board for board, _ in opened] == [0, 1], f"game {game.token}: {opened}"
                return game, [table for _, table in opened]

        for game, tables in await asyncio.gather(*(one(number) for number in range(count))):
            game.places = (len(self.slots), len(self.slots) + 1)
            self.slots.extend(tables)
            self.games.append(game)

    async def start(self, players: list[str], turn_seconds: int) -> str:
        """A partnership game (fixed partners, 125 points) opened, joined and started."""
        owner = players[0]
        status, created = await self.load.post(
            owner, "/api/games", {"players": 4, "turn_seconds": turn_seconds}
        )
        assert status == 201, created
        token: str = created["token"]
        for player in players[1:]:
            status, joined = await self.load.post(player, f"/api/games/{token}/join", {})
            assert status == 200, joined
        status, started = await self.load.post(owner, f"/api/games/{token}/start", {})
        assert status == 200, started
        return token

    async def take_seats(self, game: Game, number: int) -> None:
        """Each player's seat, and their server process: one per team (``number`` alternates which)."""
        bases = self.load.bases
        for account in game.accounts:
            async with self.load.http.get(
                f"{self.load.base(account)}/api/games/{game.token}", headers=self.load.headers(account)
            ) as response:
                detail = await response.json()
            game.seats[detail["you"]] = account
        for team_number, team in enumerate(detail["teams"]):
            for seat in team:
                self.load.home[game.seats[seat]] = bases[(number + team_number) % len(bases)]

    async def read(self, game: Game) -> dict[str, Any]:
        account = game.seats[0]
        async with self.load.http.get(
            f"{self.load.base(account)}/api/games/{game.token}", headers=self.load.headers(account)
        ) as response:
            assert response.status == 200, await response.text()
            detail: dict[str, Any] = await response.json()
            return detail

    def new_boards(self, game: Game, detail: dict[str, Any]) -> list[tuple[int, Table]]:
        """The game's boards in play that the client had no table for, with their numbers (0 or 1)."""
        opened = []
        for board in detail["boards"]:
            if board["over"] or board["table"] in game.boards:
                continue
            first, second = board["players"]  # the board table's seats 0 and 1
            table = self.make_table(
                board["table"],
                {0: game.seats[first], 1: game.seats[second]},
                on_match_over=functools.partial(self.board_over, game),
            )
            game.boards[table.token] = table
            opened.append((board["number"], table))
        return opened

    def board_over(self, game: Game, table: Table) -> None:
        """The rotation reached a board whose match is over (once per board, the client reads
        the game: the next round opens once both of a round's boards have ended)."""
        if table.token in game.ended:
            return
        game.ended.add(table.token)
        asyncio.get_running_loop().create_task(self.follow(game))

    async def follow(self, game: Game) -> None:
        async with game.lock:
            if all(token in game.ended for token in game.boards):
                await self.next_round(game)

    async def next_round(self, game: Game) -> None:
        """Wait for the next round's boards (or the game's end, then play again) and connect them."""
        waited = 0.0
        while waited < OPEN_TIMEOUT:
            detail = await self.read(game)
            if detail["status"] == "over":
                await self.play_again(game, detail)
                detail = await self.read(game)
            opened = self.new_boards(game, detail)
            if opened:
                for number, table in opened:
                    await self.load.connect(table)  # before the rotation reaches it
                    self.slots[game.places[number]] = table
                return
            await asyncio.sleep(POLL_SECONDS)
            waited += POLL_SECONDS
        self.stalled += 1

    async def play_again(self, game: Game, detail: dict[str, Any]) -> None:
        """The four ask to play again; the first to ask opens and starts the next game."""
        game.rounds_netted += len(detail["score_sheet"])
        game.games_over += 1
        first = game.seats[0]
        status, following = await self.load.post(first, f"/api/games/{game.token}/again", {})
        assert status == 200, following
        for seat in (1, 2, 3):
            status, answer = await self.load.post(game.seats[seat], f"/api/games/{game.token}/again", {})
            assert status == 200, answer
        game.token = following["token"]
        status, started = await self.load.post(first, f"/api/games/{game.token}/start", {})
        assert status == 200, started

    def tables(self) -> list[Table]:
        """Every board played, the ones the rotation has left included."""
        return [table for game in self.games for table in game.boards.values()]

    async def report(self, report: Report, elapsed: float) -> dict[str, Any]:
        """The tables of four alone (``report``: bench/load.py's, on their boards' moves, which
        its whole figures count too) and their progress: rounds netted (a partnership round: both
        boards' deals scored and netted), boards opened, games finished, rounds never opened."""
        boards = self.tables()
        played = {id(table) for table in boards}
        moves = [move for move in self.load.moves if id(move.table) in played]
        figures = report(self.load, boards, elapsed, moves)
        netted = 0
        for game in self.games:
            netted += game.rounds_netted + len((await self.read(game))["score_sheet"])
        return {
            "games": len(self.games),
            "boards": len(boards),
            "rounds_netted": netted,
            "games_over": sum(game.games_over for game in self.games),
            "rounds_stalled": self.stalled,
            **{name: figures[name] for name in SHOWN},
        }
