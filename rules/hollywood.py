"""Hollywood scoring: three games to the target scored at once on one score sheet.

The classic rules seed names it ("three games at once"); the scoring is the standard one of
Hoyle's "Hollywood Gin" (Morehead & Mott-Smith, Hoyle's Rules of Games; the same on pagat.com
and rummy-games.com/rules/hollywood-gin.html):

- a seat's first won deal is entered in game 1, its second in games 1 and 2, every later one
  in all three;
- a game closes when a seat reaches the target in it, and is scored with its own bonuses
  (game bonus, shutout, a per-deal "box" bonus for each deal it counted) as a plain match is;
- after a game closes, deals count only in the games still open; a seat shut out of a closed
  game enters its next won deal as its first score in the next open game.

As one rule: a won deal counts in every open game where the seat has already scored, and in
the first open game where it has not (one new game per won deal). Entries go in order, so a
seat's total in a game never exceeds its total in an earlier open game, and games close in
order (several may close on the same deal). A dead deal counts nowhere.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

GAME_COUNT = 3


@dataclass(frozen=True, slots=True)
class Game:
    """One of the three games: its running totals and the deals it counted, by seat."""

    number: int  # 1, 2 or 3
    totals: tuple[int, int] = (0, 0)
    deals_won: tuple[int, int] = (0, 0)  # the won deals entered in this game (its boxes)
    winner: int | None = None  # the seat that reached the target: the game is closed

    @property
    def is_closed(self) -> bool:
        return self.winner is not None

    def scored(self, seat: int, points: int, target: int) -> Game:
        """The game with ``seat``'s won deal entered; it closes if the seat reaches ``target``."""
        totals = [*self.totals]
        won = [*self.deals_won]
        totals[seat] += points
        won[seat] += 1
        winner = seat if totals[seat] >= target else None
        return Game(self.number, (totals[0], totals[1]), (won[0], won[1]), winner)

    def to_dict(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "totals": list(self.totals),
            "deals_won": list(self.deals_won),
            "closed": self.is_closed,
            "winner": self.winner,
        }


def new_games() -> tuple[Game, ...]:
    return tuple(Game(number) for number in range(1, GAME_COUNT + 1))


def counting_games(games: tuple[Game, ...], seat: int) -> tuple[int, ...]:
    """The numbers of the games a deal won by ``seat`` would count in now."""
    counting = []
    opened = False
    for game in games:
        if game.is_closed:
            continue
        if game.deals_won[seat] > 0:
            counting.append(game.number)
        elif not opened:  # the seat's next game: this won deal is its first score there
            counting.append(game.number)
            opened = True
    return tuple(counting)


def score_win(games: tuple[Game, ...], seat: int, points: int, target: int) -> tuple[Game, ...]:
    """The games after ``seat`` won a deal worth ``points``."""
    counting = counting_games(games, seat)
    return tuple(game.scored(seat, points, target) if game.number in counting else game for game in games)


def all_closed(games: tuple[Game, ...]) -> bool:
    return all(game.is_closed for game in games)


def game_in_play(games: tuple[Game, ...]) -> Game:
    """The first open game (the one nearest its target); the last game once all are closed."""
    return next((game for game in games if not game.is_closed), games[-1])
