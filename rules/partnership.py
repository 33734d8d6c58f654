"""Four players, partnership gin: two teams of two, each player in a two-handed deal per round.

The reading played (docs/rules.md, "Four players: partnership gin"; the sources are Bicycle's
"Partnership Rummy" rules, after Hoyle, rummy-games.com's "Partnership Gin Rummy" and
ginrummy.com's partnership page):

- fixed partners, drawn or chosen by the caller (default: seats 0 and 2 against 1 and 3);
- a round is two deals played at once, every player against a member of the other team; partners
  switch opponents every round (round 1: A0–B0 and A1–B1, round 2: A0–B1 and A1–B0, and so on);
- when both deals of the round have ended, they are netted: a deal won counts plus for the
  winner's team and minus for the other, a dead deal nothing (it is not replayed); the team
  ahead scores the difference, and nothing is scored when the nets are level;
- one team deals both deals of a round; after the first round (the caller's draw) the rule set's
  dealer rule applies to the teams: the team that won the round deals (classic, reino) or the
  team that did not deal the last round (playgridia); after a round nobody won, the same team
  deals again;
- the game ends when a round leaves the team ahead with a total at or over the target (a table
  option, 125 by default); the winning team gets the game bonus (the shutout bonus when the other
  team scored no point), and each team the per-deal bonus for each round it won (its boxes);
- a player who resigns or forfeits (`resign`) ends the game at once: the leaver's team loses and
  the other team wins. The final scores are those of a normal end on the totals so far (game
  bonus to the winning team, a box for each round won); a round not netted yet (a deal pending,
  or in progress) is not counted.

`Partnership` is immutable: `record` (a finished `Deal`) or `record_score` (a `DealResult`) for
either board of the round, in either order, returns the next state; the round nets exactly once,
when its second deal is recorded.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from .cards import Card
from .deal import Deal
from .errors import IllegalMove, InvalidState
from .match import SeatScore, closing_scores
from .ruleset import Ruleset
from .variants import (
    FORMAT,
    PARTNERSHIP_TARGET,
    DealResult,
    check_leaver,
    check_players,
    checked_result,
    ended,
    new_deal,
    read_stored,
    result_of,
    sheet_totals,
    sheet_winner,
    sheet_wins,
    variant_ruleset,
    variant_target,
)

VARIANT = "four players (partnership gin)"
Teams = tuple[tuple[int, int], tuple[int, int]]
TEAMS: Teams = ((0, 2), (1, 3))  # seats 1+3 against 2+4, counted from 1


@dataclass(frozen=True, slots=True)
class Board:
    """One of the two deals of a round."""

    number: int  # 0: the deal of the first team's first player, 1: of its second
    players: tuple[int, int]  # the two seats, in seat order (deal seats 0 and 1)
    dealer: int


@dataclass(frozen=True, slots=True)
class RoundRecord:
    """One row of the score sheet: a round's two deals and their netting."""

    dealer_team: int
    boards: tuple[Board, Board]
    results: tuple[DealResult, DealResult]  # by board
    nets: tuple[int, int]  # each team's net of the two deals (one is minus the other)
    winner: int | None  # the team ahead by the net; None when the nets are level
    points: int  # to the winning team: the difference
    totals: tuple[int, int]  # running totals by team after this round

    def to_dict(self) -> dict[str, Any]:
        return {
            "dealer_team": self.dealer_team,
            "boards": [{"players": list(board.players), "dealer": board.dealer} for board in self.boards],
            "results": [result.to_dict() for result in self.results],
            "nets": list(self.nets),
            "winner": self.winner,
            "points": self.points,
            "totals": list(self.totals),
        }


def team_of(teams: Teams, seat: int) -> int:
    return 0 if seat in teams[0] else 1


def round_nets(teams: Teams, results: Iterable[DealResult]) -> tuple[int, int]:
    """Each team's net of a round's deals: plus a deal won, minus a deal lost, a dead deal 0."""
    nets = [0, 0]
    for result in results:
        if result.winner is not None:
            team = team_of(teams, result.winner)
            nets[team] += result.points
            nets[1 - team] -= result.points
    return nets[0], nets[1]


def check_teams(teams: object) -> Teams:
    """``teams`` as two pairs of seats that share out seats 0 to 3, or InvalidState."""
    if not isinstance(teams, Sequence) or len(teams) != 2:
        raise InvalidState("teams must be two pairs of seats")
    pairs = [tuple(team) if isinstance(team, Sequence) else () for team in teams]
    if any(len(pair) != 2 for pair in pairs):
        raise InvalidState("each team must be a pair of seats")
    seats = check_players([*pairs[0], *pairs[1]], 4, "the teams")
    return (seats[0], seats[1]), (seats[2], seats[3])


@dataclass(frozen=True, slots=True)
class Partnership:
    """Build with `Partnership.new` (or `from_dict`), then `record` each board's finished deal."""

    ruleset: Ruleset
    target: int
    teams: Teams
    first_dealer_team: int
    records: tuple[RoundRecord, ...] = ()
    pending: tuple[DealResult | None, DealResult | None] = (None, None)  # this round's, by board
    ended_by: str | None = None  # "resign" or "forfeit" when a player left the game
    leaver: int | None = None  # the seat that resigned or forfeited

    @classmethod
    def new(
        cls,
        ruleset: Ruleset | str,
        teams: Teams = TEAMS,
        first_dealer_team: int | None = None,
        target: int | None = None,
    ) -> Partnership:
        """A match with no deals yet: the caller draws the partners and which team deals first
        (drawn at random when not given)."""
        rules = variant_ruleset(ruleset, VARIANT)
        goal = variant_target(target, PARTNERSHIP_TARGET)
        dealer_team = secrets.randbelow(2) if first_dealer_team is None else first_dealer_team
        if type(dealer_team) is not int or dealer_team not in (0, 1):
            raise InvalidState(f"the first dealing team must be team 0 or 1, not {dealer_team!r}")
        return cls(rules, goal, check_teams(teams), dealer_team)

    # -- reading ------------------------------------------------------------------------------

    def team_of(self, seat: int) -> int:
        return team_of(self.teams, seat)

    @property
    def round_number(self) -> int:
        """The round being played, from 1."""
        return len(self.records) + 1

    @property
    def dealer_team(self) -> int:
        """The team that deals both deals of the round being played."""
        if not self.records:
            return self.first_dealer_team
        last = self.records[-1]
        if last.winner is None:
            return last.dealer_team
        return last.winner if self.ruleset.next_dealer == "winner" else 1 - last.dealer_team

    @property
    def boards(self) -> tuple[Board, Board]:
        """The round's two deals: partners switch opponents every round."""
        (a0, a1), (b0, b1) = self.teams
        if self.round_number % 2 == 0:
            b0, b1 = b1, b0
        dealers = self.teams[self.dealer_team]
        out = []
        for number, (first, second) in enumerate(((a0, b0), (a1, b1))):
            players = (min(first, second), max(first, second))
            out.append(Board(number, players, next(seat for seat in players if seat in dealers)))
        return out[0], out[1]

    def board_of(self, seat: int) -> Board:
        """The deal of the round that ``seat`` plays."""
        return next(board for board in self.boards if seat in board.players)

    @property
    def open_boards(self) -> tuple[int, ...]:
        """The numbers of the round's deals not recorded yet."""
        return tuple(number for number, result in enumerate(self.pending) if result is None)

    @property
    def totals(self) -> tuple[int, int]:
        """Points by team, which count toward the target."""
        first, second = sheet_totals(self.records, 2)
        return first, second

    @property
    def rounds_won(self) -> tuple[int, int]:
        first, second = sheet_wins(self.records, 2)
        return first, second

    @property
    def is_over(self) -> bool:
        return self.ended_by is not None or self.winner is not None

    @property
    def winner(self) -> int | None:
        """The team that reached the target, once the match is over; after a resignation, the
        team of the two who stayed."""
        if self.leaver is not None:
            return 1 - self.team_of(self.leaver)
        return sheet_winner(self.records, self.target)

    @property
    def final_scores(self) -> tuple[SeatScore, SeatScore] | None:
        """Each team's final score with its bonuses, once the match is over (``deals_won``
        counts the rounds the team won: a box for each)."""
        winner = self.winner
        if winner is None:
            return None
        first, second = closing_scores(self.ruleset, self.totals, self.rounds_won, winner)
        return first, second

    # -- playing ------------------------------------------------------------------------------

    def next_deal(self, board: int, deck: Sequence[Card | str] | None = None) -> Deal:
        """The two-handed deal of ``board`` (0 or 1): deal seat 0 is its lower seat."""
        seats = self._open_board(board)
        return new_deal(self.ruleset, seats.players, seats.dealer, deck)

    def record(self, board: int, deal: Deal) -> Partnership:
        """The match with ``board``'s finished deal (scored or dead) recorded."""
        seats = self._open_board(board)
        return self.record_score(board, result_of(deal, self.ruleset, seats.players, seats.dealer))

    def record_score(self, board: int, result: DealResult) -> Partnership:
        """Record ``board``'s result directly (table seats); the round nets once both are in."""
        checked_result(result, self._open_board(board).players)
        pending = list(self.pending)
        pending[board] = result
        first, second = pending
        if first is None or second is None:
            return replace(self, pending=(first, second))
        nets = round_nets(self.teams, (first, second))
        winner = None if nets[0] == nets[1] else (0 if nets[0] > nets[1] else 1)
        points = abs(nets[0])
        totals = list(self.totals)
        if winner is not None:
            totals[winner] += points
        row = RoundRecord(
            self.dealer_team, self.boards, (first, second), nets, winner, points, (totals[0], totals[1])
        )
        return replace(self, records=(*self.records, row), pending=(None, None))

    def record_all(self, entries: Iterable[tuple[int, DealResult]]) -> Partnership:
        """The match with each (board, result) recorded in turn: a whole match replays from them."""
        match = self
        for board, result in entries:
            match = match.record_score(board, result)
        return match

    def resign(self, seat: int, reason: str = "resign") -> Partnership:
        """End the game now: ``seat`` resigns (or, ``reason`` "forfeit", forfeits) and the other
        team wins; a round not netted yet is not counted."""
        self._check_open()
        return replace(self, ended_by=reason, leaver=check_leaver(seat, 4, reason))

    def _check_open(self) -> None:
        if self.is_over:
            raise IllegalMove("the game is over")

    def _open_board(self, board: int) -> Board:
        self._check_open()
        if type(board) is not int or board not in (0, 1):
            raise IllegalMove(f"board must be 0 or 1, not {board!r}")
        if self.pending[board] is not None:
            raise IllegalMove(f"the deal of board {board} in round {self.round_number} is already recorded")
        return self.boards[board]

    # -- serialization ------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "variant": "partnership",
            "ruleset": self.ruleset.to_dict(),
            "target": self.target,
            "teams": [list(team) for team in self.teams],
            "first_dealer_team": self.first_dealer_team,
            "rounds": [record.to_dict() for record in self.records],
            "pending": [None if result is None else result.to_dict() for result in self.pending],
            "ended_by": self.ended_by,
            "leaver": self.leaver,
        }

    @classmethod
    def from_dict(cls, data: object) -> Partnership:
        """Read `to_dict`'s form back by replaying every deal; InvalidState names what is wrong."""
        return read_stored(data, "partnership match", _replay)


def _replay(data: dict[str, Any]) -> Partnership:
    match = Partnership.new(
        Ruleset.from_dict(data["ruleset"]), data["teams"], data["first_dealer_team"], data["target"]
    )
    for number, row in enumerate(data["rounds"], 1):
        match = _read_round(match, row, number)
    for board, result in enumerate(data.get("pending") or (None, None)):
        if result is not None:
            match = match.record_score(board, DealResult.from_dict(result))
    return ended(match, data, Partnership.resign)


def _read_round(match: Partnership, row: object, number: int) -> Partnership:
    if not isinstance(row, dict):
        raise InvalidState(f"round {number}: a row must be an object")
    results = [DealResult.from_dict(result) for result in row["results"]]
    recorded = match.record_all(enumerate(results))
    if len(results) != 2 or len(recorded.records) != len(match.records) + 1:
        raise InvalidState(f"round {number}: a round has two deals, not {len(results)}")
    added = recorded.records[-1].to_dict()
    for key in ("dealer_team", "boards", "nets", "winner", "points", "totals"):
        if key in row and row[key] != added[key]:
            raise InvalidState(f"round {number}: the {key} should be {added[key]!r}, not {row[key]!r}")
    return recorded
