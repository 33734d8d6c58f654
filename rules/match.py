"""A match: the score sheet of consecutive deals at one table, up to the rule set's target.

``Match`` is immutable: `Match.record` takes a finished `Deal` and returns the match with one
more row. Who deals next, the running totals, when the match ends and the final scores with
their bonuses all follow from the rows and the rule set. Under Hollywood scoring
(``Ruleset.hollywood``) each won deal also goes into up to three games (rules/hollywood.py);
the match ends when all three are closed.

A *board match* (``Match.new(..., board=...)``) is one deal of a three- or four-player variant
played at an ordinary two-seat table: ``BOARD_ONE_DEAL`` (partnership gin) is over after its first
deal, scored or dead; ``BOARD_UNTIL_SCORED`` (winner stays) deals a dead deal again, by the same
dealer, and is over after its first scored deal. Its final scores are the deal points alone: the
variant, not the board, gives the bonuses (docs/rules.md, "A variant's deal at a two-seat table").
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from .cards import Card
from .deal import Deal, as_ruleset, check_format, check_seat
from .errors import IllegalMove, InvalidState, RulesError, UnsupportedVariant
from .hollywood import Game, all_closed, game_in_play, new_games, score_win
from .ruleset import Ruleset
from .scoring import ALL_OUTCOMES, DEAD, OUTCOMES

FORMAT = 1  # version of the to_dict layout
END_REASONS = ("resign", "forfeit")
BOARD_ONE_DEAL = "one_deal"  # partnership gin: one deal, scored or dead (a dead deal is not replayed)
BOARD_UNTIL_SCORED = "until_scored"  # winner stays: a dead deal is dealt again; over when one scores
BOARDS = (BOARD_ONE_DEAL, BOARD_UNTIL_SCORED)


@dataclass(frozen=True, slots=True)
class DealRecord:
    """One row of the score sheet."""

    dealer: int
    outcome: str  # one of rules.scoring.ALL_OUTCOMES
    winner: int | None  # None for a dead deal
    points: int  # to the winner
    knocker: int | None  # None for a dead deal
    totals: tuple[int, int]  # running totals by seat after this deal
    games: tuple[tuple[int, int], ...] = ()  # Hollywood: each game's running totals after this deal

    @property
    def is_dead(self) -> bool:
        return self.outcome == DEAD

    def to_dict(self) -> dict[str, Any]:
        return {
            "dealer": self.dealer,
            "outcome": self.outcome,
            "winner": self.winner,
            "points": self.points,
            "knocker": self.knocker,
            "totals": list(self.totals),
            "games": [list(totals) for totals in self.games],
        }


@dataclass(frozen=True, slots=True)
class SeatScore:
    """A seat's final score and where it comes from."""

    deal_points: int  # the total that counts toward the target
    game_bonus: int  # to the match winner (the shutout bonus if the loser scored nothing)
    deal_bonus: int  # per_deal_bonus for each deal won; not counted toward the target
    deals_won: int

    @property
    def total(self) -> int:
        return self.deal_points + self.game_bonus + self.deal_bonus

    def to_dict(self) -> dict[str, int]:
        return {
            "deal_points": self.deal_points,
            "game_bonus": self.game_bonus,
            "deal_bonus": self.deal_bonus,
            "deals_won": self.deals_won,
            "total": self.total,
        }


def closing_scores(
    ruleset: Ruleset, totals: Sequence[int], won: Sequence[int], winner: int
) -> tuple[SeatScore, ...]:
    """Every side's scores of a game won by ``winner``, with its bonuses: the game bonus to the
    winner (the shutout bonus instead when no other side scored a point), the per-deal bonus for
    each deal won to every side. A side is a seat, or a team in partnership gin."""
    game_bonus = ruleset.game_bonus
    if all(total == 0 for side, total in enumerate(totals) if side != winner):
        game_bonus = max(game_bonus, ruleset.shutout_bonus)  # never worth less than a plain win
    return tuple(
        SeatScore(
            deal_points=totals[side],
            game_bonus=game_bonus if side == winner else 0,
            deal_bonus=ruleset.per_deal_bonus * won[side],
            deals_won=won[side],
        )
        for side in range(len(totals))
    )


def _closing_scores(
    ruleset: Ruleset, totals: tuple[int, int], won: tuple[int, int], winner: int
) -> tuple[SeatScore, SeatScore]:
    """Both seats' scores of a two-player game (or plain match) won by ``winner``."""
    first, second = closing_scores(ruleset, totals, won, winner)
    return first, second


@dataclass(frozen=True, slots=True)
class Match:
    """Build with `Match.new` (or `Match.from_dict`), then `record` each finished deal."""

    ruleset: Ruleset
    first_dealer: int
    records: tuple[DealRecord, ...] = ()
    ended_by: str | None = None  # "resign" or "forfeit" when a player left the match
    leaver: int | None = None  # the seat that resigned or forfeited
    games: tuple[Game, ...] = ()  # Hollywood: games 1-3 after the last row
    board: str | None = None  # a variant's deal: BOARD_ONE_DEAL or BOARD_UNTIL_SCORED; None: a match

    @classmethod
    def new(cls, ruleset: Ruleset | str, first_dealer: int | None = None, board: str | None = None) -> Match:
        """A match with no deals yet; the first dealer is drawn at random when not given.
        ``board``: one deal of a variant (`BOARDS`), played to its end instead of a target."""
        rules = as_ruleset(ruleset)
        if board is not None:
            _check_board(board, rules)
        dealer = secrets.randbelow(2) if first_dealer is None else check_seat(first_dealer, "first_dealer")
        return cls(rules, dealer, games=new_games() if rules.hollywood else (), board=board)

    # -- reading ------------------------------------------------------------------------------

    @property
    def score_sheet(self) -> tuple[DealRecord, ...]:
        return self.records

    @property
    def totals(self) -> tuple[int, int]:
        """Deal points by seat that count toward the target: under Hollywood scoring, those of
        the game in play (the first open game; the last game once all are closed)."""
        if self.games:
            return game_in_play(self.games).totals
        return self.records[-1].totals if self.records else (0, 0)

    @property
    def deals_won(self) -> tuple[int, int]:
        won = [0, 0]
        for record in self.records:
            if record.winner is not None:
                won[record.winner] += 1
        return won[0], won[1]

    @property
    def dealer(self) -> int:
        """The seat that deals the next deal."""
        if not self.records:
            return self.first_dealer
        last = self.records[-1]
        if last.winner is None:  # a dead deal: the same dealer again
            return last.dealer
        if self.ruleset.next_dealer == "winner":
            return last.winner
        return 1 - last.dealer

    @property
    def is_over(self) -> bool:
        return self.ended_by is not None or self._reached_target()

    @property
    def winner(self) -> int | None:
        """The seat that won the match, once it is over. Under Hollywood scoring: the greater
        sum of the three games' final scores; equal sums go to the seat that won two games."""
        if self.leaver is not None:
            return 1 - self.leaver
        if not self._reached_target():
            return None
        if not self.games:
            return self.records[-1].winner
        sums = [sum(scores[seat].total for scores in self._closed_game_scores()) for seat in (0, 1)]
        if sums[0] != sums[1]:
            return 0 if sums[0] > sums[1] else 1
        return 0 if sum(game.winner == 0 for game in self.games) >= 2 else 1

    @property
    def final_scores(self) -> tuple[SeatScore, SeatScore] | None:
        """Each seat's final score with its bonuses, once the match is over (under Hollywood
        scoring, the sum of the three games' scores; `game_scores` has each game's). A board
        match: the deal points alone, no bonus, once over (a dead one-deal board: 0 to 0)."""
        if self.board is not None:
            if not self.is_over:
                return None
            totals, won = self.totals, self.deals_won
            return SeatScore(totals[0], 0, 0, won[0]), SeatScore(totals[1], 0, 0, won[1])
        winner = self.winner
        if winner is None:
            return None
        if not self.games:
            return _closing_scores(self.ruleset, self.totals, self.deals_won, winner)
        per_game = [scores for scores in self.game_scores if scores is not None]
        sums = [
            SeatScore(
                deal_points=sum(scores[seat].deal_points for scores in per_game),
                game_bonus=sum(scores[seat].game_bonus for scores in per_game),
                deal_bonus=sum(scores[seat].deal_bonus for scores in per_game),
                deals_won=self.deals_won[seat],
            )
            for seat in (0, 1)
        ]
        return sums[0], sums[1]

    @property
    def game_scores(self) -> tuple[tuple[SeatScore, SeatScore] | None, ...]:
        """Hollywood: each game's final scores, once it is closed (or the match ended early: a
        game still open then goes to the match winner, as a plain match does); else None."""
        leaver_wins = None if self.leaver is None else 1 - self.leaver
        out: list[tuple[SeatScore, SeatScore] | None] = []
        for game in self.games:
            winner = game.winner if game.winner is not None else leaver_wins
            out.append(
                None if winner is None else _closing_scores(self.ruleset, game.totals, game.deals_won, winner)
            )
        return tuple(out)

    def _closed_game_scores(self) -> list[tuple[SeatScore, SeatScore]]:
        return [
            _closing_scores(self.ruleset, game.totals, game.deals_won, game.winner)
            for game in self.games
            if game.winner is not None
        ]

    def _reached_target(self) -> bool:
        if self.board == BOARD_ONE_DEAL:
            return bool(self.records)
        if self.games:
            return all_closed(self.games)
        winner = self.records[-1].winner if self.records else None
        if winner is None:
            return False
        target = self.ruleset.target
        return self.board is not None or target is None or self.totals[winner] >= target

    # -- playing --------------------------------------------------------------------------------

    def next_deal(self, deck: Sequence[Card | str] | None = None) -> Deal:
        """The next deal, dealt by the right seat (a fresh shuffle unless ``deck`` is given)."""
        self._check_open()
        return Deal.new(self.ruleset, self.dealer, deck)

    def record(self, deal: Deal) -> Match:
        """The match with a finished deal (scored or dead) recorded."""
        self._check_open()
        if not deal.is_over:
            raise IllegalMove("the deal is not over yet")
        if deal.ruleset != self.ruleset:
            raise IllegalMove(f"the deal was played under the {deal.ruleset.name} rules, not this match's")
        if deal.dealer != self.dealer:
            raise IllegalMove(f"seat {self.dealer} deals this deal, but seat {deal.dealer} dealt it")
        return self.record_score(deal.outcome or DEAD, deal.winner, deal.points, deal.knocker)

    def record_score(
        self, outcome: str, winner: int | None, points: int, knocker: int | None = None
    ) -> Match:
        """Record a deal's result directly (a dead deal: outcome "dead", winner None, 0 points)."""
        self._check_open()
        _check_row(outcome, winner, points, knocker)
        totals = list(self.records[-1].totals if self.records else (0, 0))
        games = self.games
        if winner is not None:
            totals[winner] += points
            if games:
                assert self.ruleset.target is not None  # a Hollywood rule set always has one
                games = score_win(games, winner, points, self.ruleset.target)
        row = DealRecord(
            self.dealer,
            outcome,
            winner,
            points,
            knocker,
            (totals[0], totals[1]),
            tuple(game.totals for game in games),
        )
        return replace(self, records=(*self.records, row), games=games)

    def resign(self, seat: int, reason: str = "resign") -> Match:
        """End the match now: ``seat`` resigns (or forfeits) and the other seat wins."""
        self._check_open()
        check_seat(seat, "the resigning seat")
        if reason not in END_REASONS:
            raise RulesError(f"reason must be one of {', '.join(END_REASONS)}, not {reason!r}")
        return replace(self, ended_by=reason, leaver=seat)

    def _check_open(self) -> None:
        if self.is_over:
            raise IllegalMove("the match is over")

    # -- serialization --------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "format": FORMAT,
            "ruleset": self.ruleset.to_dict(),
            "first_dealer": self.first_dealer,
            "deals": [record.to_dict() for record in self.records],
            "ended_by": self.ended_by,
            "leaver": self.leaver,
        }
        if self.board is not None:  # an ordinary match's form is unchanged
            data["board"] = self.board
        return data

    @classmethod
    def from_dict(cls, data: object) -> Match:
        """Read `to_dict`'s form back, checking every row; InvalidState names what is wrong."""
        data = check_format(data, "match", FORMAT)
        try:
            match = cls.new(Ruleset.from_dict(data["ruleset"]), data["first_dealer"], data.get("board"))
            for number, row in enumerate(data["deals"], 1):
                match = _read_row(match, row, number)
            if data.get("ended_by") is not None:
                match = match.resign(data["leaver"], data["ended_by"])
        except InvalidState:
            raise
        except (RulesError, KeyError, TypeError) as error:
            raise InvalidState(f"not a match: {error}") from None
        return match


def _check_board(board: object, ruleset: Ruleset) -> None:
    if type(board) is not str or board not in BOARDS:
        raise InvalidState(f"board must be one of {', '.join(BOARDS)} (or None), not {board!r}")
    if ruleset.hollywood:
        raise UnsupportedVariant(
            "Hollywood scoring does not combine with a board match (one deal of a three- or "
            "four-player game): it scores three games between two players; play the rule set without it"
        )


def _check_row(outcome: str, winner: int | None, points: int, knocker: int | None) -> None:
    if outcome == DEAD:
        if winner is not None or points != 0 or knocker is not None:
            raise RulesError("a dead deal has no winner, no knocker and no points")
        return
    if outcome not in OUTCOMES:
        raise RulesError(f"outcome must be one of {', '.join(ALL_OUTCOMES)}, not {outcome!r}")
    check_seat(winner, "the winner")
    if knocker is not None:
        check_seat(knocker, "the knocker")
    if type(points) is not int or points < 0:
        raise RulesError(f"points must be a non-negative integer, not {points!r}")


def _read_row(match: Match, row: object, number: int) -> Match:
    if not isinstance(row, dict):
        raise InvalidState(f"deal {number}: a row must be an object")
    recorded = match.record_score(row["outcome"], row["winner"], row["points"], row.get("knocker"))
    added = recorded.records[-1]
    if row.get("dealer", added.dealer) != added.dealer:
        raise InvalidState(f"deal {number}: seat {added.dealer} dealt it, not seat {row['dealer']}")
    if list(row.get("totals", added.totals)) != list(added.totals):
        raise InvalidState(f"deal {number}: the totals should be {list(added.totals)}, not {row['totals']}")
    games = [list(totals) for totals in added.games]
    if "games" in row and row["games"] != games:
        raise InvalidState(f"deal {number}: the games' totals should be {games}, not {row['games']}")
    return recorded
