"""Three players, winner stays: two play a two-handed deal while the third waits.

The reading played (docs/rules.md, "Three players: winner stays"; the common sources are
ginrummy.com's "Play between three players" and rummyrulebook.com's "Cutthroat Gin", also called
round-robin gin):

- the winner of a deal plays the next deal against the player who waited; the loser waits;
- a dead deal is nobody's win: the same two play again and the same dealer deals again, as the
  rule set's dead-deal rule says for two players (so the waiting player waits on) *(decided)*;
- who deals is the rule set's dealer rule applied to the two playing: where the winner deals
  (classic, reino) the winner deals; where the deal alternates (playgridia) the player coming
  back from waiting deals, who is also the one the sources name ("the idle player deals");
- each player keeps their own score; the game ends when the winner of a deal reaches the target
  (the rule set's target, 100 when it plays a single deal, or a table option). The winner gets
  the game bonus (the shutout bonus when neither other player scored a point) and every player
  the per-deal bonus for each deal they won, as in a two-player match (`closing_scores`);
- a player who resigns or forfeits (`resign`) ends the game at once; a deal in progress is not
  scored. The winner is the one of the two who stayed with the higher total; on equal totals the
  one who won more deals; still equal, the one who is not waiting (who would play the next deal),
  then the lower seat *(decided: the sources say nothing; the score sheet decides, then the
  table)*. The final scores are those of a normal end for that winner: the game bonus (the shutout
  bonus when neither other player scored), and the per-deal bonus to every player, the leaver too.

`WinnerStays` is immutable: `record` (a finished `Deal`) or `record_score` (a `DealResult`)
returns the match with one more row.
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
    WINNER_STAYS_TARGET,
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

SEATS = 3
VARIANT = "three players (winner stays)"


@dataclass(frozen=True, slots=True)
class WinnerStaysRecord:
    """One row of the score sheet: who played, who dealt, who waited, and how the deal ended."""

    players: tuple[int, int]  # the two seats that played, in seat order
    dealer: int
    waiting: int
    result: DealResult
    totals: tuple[int, int, int]  # running totals by seat after this deal

    @property
    def winner(self) -> int | None:
        return self.result.winner

    @property
    def loser(self) -> int | None:
        if self.result.winner is None:
            return None
        return self.players[1] if self.result.winner == self.players[0] else self.players[0]

    def to_dict(self) -> dict[str, Any]:
        return {
            "players": list(self.players),
            "dealer": self.dealer,
            "waiting": self.waiting,
            **self.result.to_dict(),
            "totals": list(self.totals),
        }


@dataclass(frozen=True, slots=True)
class WinnerStays:
    """Build with `WinnerStays.new` (or `from_dict`), then `record` each finished deal."""

    ruleset: Ruleset
    target: int
    first_waiting: int
    first_dealer: int
    records: tuple[WinnerStaysRecord, ...] = ()
    ended_by: str | None = None  # "resign" or "forfeit" when a player left the game
    leaver: int | None = None  # the seat that resigned or forfeited

    @classmethod
    def new(
        cls,
        ruleset: Ruleset | str,
        first_waiting: int | None = None,
        first_dealer: int | None = None,
        target: int | None = None,
    ) -> WinnerStays:
        """A match with no deals yet. The caller draws who waits first and who deals first (the
        sources: a draw of cards); either is drawn at random when not given."""
        rules = variant_ruleset(ruleset, VARIANT)
        goal = variant_target(target, rules.target or WINNER_STAYS_TARGET)
        if first_waiting is None:
            first_waiting = secrets.randbelow(SEATS)
        (waiting,) = check_players([first_waiting], SEATS, "the first waiting player")
        playing = [seat for seat in range(SEATS) if seat != waiting]
        if first_dealer is None:
            first_dealer = playing[secrets.randbelow(2)]
        if first_dealer not in playing or type(first_dealer) is not int:
            raise InvalidState(f"the first dealer must be one of the first two players, {playing}")
        return cls(rules, goal, waiting, first_dealer)

    # -- reading ------------------------------------------------------------------------------

    @property
    def who_waits(self) -> int:
        """The seat that sits out the next deal: the loser of the last scored deal."""
        if not self.records:
            return self.first_waiting
        last = self.records[-1]
        return last.waiting if last.loser is None else last.loser

    @property
    def who_plays(self) -> tuple[int, int]:
        """The two seats that play the next deal, in seat order (deal seats 0 and 1)."""
        waiting = self.who_waits
        first, second = (seat for seat in range(SEATS) if seat != waiting)
        return first, second

    @property
    def dealer(self) -> int:
        """The seat that deals the next deal."""
        if not self.records:
            return self.first_dealer
        last = self.records[-1]
        if last.winner is None:  # a dead deal: the same two, the same dealer
            return last.dealer
        if self.ruleset.next_dealer == "winner":
            return last.winner
        return last.waiting  # the deal alternates: the player coming back deals

    @property
    def totals(self) -> tuple[int, int, int]:
        """Deal points by seat, which count toward the target."""
        first, second, third = sheet_totals(self.records, SEATS)
        return first, second, third

    @property
    def deals_won(self) -> tuple[int, int, int]:
        first, second, third = sheet_wins(self.records, SEATS)
        return first, second, third

    @property
    def is_over(self) -> bool:
        return self.ended_by is not None or self.winner is not None

    @property
    def winner(self) -> int | None:
        """The seat that reached the target, once the match is over; after a resignation, the
        one of the two who stayed with the higher total, then more deals won, then the one not
        waiting, then the lower seat."""
        if self.leaver is None:
            return sheet_winner(self.records, self.target)
        totals, won, waiting = self.totals, self.deals_won, self.who_waits
        stayed = [seat for seat in range(SEATS) if seat != self.leaver]
        return max(stayed, key=lambda seat: (totals[seat], won[seat], seat != waiting, -seat))

    @property
    def final_scores(self) -> tuple[SeatScore, SeatScore, SeatScore] | None:
        """Each seat's final score with its bonuses, once the match is over."""
        winner = self.winner
        if winner is None:
            return None
        first, second, third = closing_scores(self.ruleset, self.totals, self.deals_won, winner)
        return first, second, third

    # -- playing ------------------------------------------------------------------------------

    def next_deal(self, deck: Sequence[Card | str] | None = None) -> Deal:
        """The next two-handed deal: deal seat 0 is ``who_plays[0]``, deal seat 1 ``who_plays[1]``."""
        self._check_open()
        return new_deal(self.ruleset, self.who_plays, self.dealer, deck)

    def record(self, deal: Deal) -> WinnerStays:
        """The match with a finished deal (scored or dead) between `who_plays` recorded."""
        self._check_open()
        return self.record_score(result_of(deal, self.ruleset, self.who_plays, self.dealer))

    def record_score(self, result: DealResult) -> WinnerStays:
        """Record a deal's result directly (table seats; a dead deal: outcome "dead", no winner)."""
        self._check_open()
        players = self.who_plays
        checked_result(result, players)
        totals = list(self.totals)
        if result.winner is not None:
            totals[result.winner] += result.points
        row = WinnerStaysRecord(
            players, self.dealer, self.who_waits, result, (totals[0], totals[1], totals[2])
        )
        return replace(self, records=(*self.records, row))

    def record_all(self, results: Iterable[DealResult]) -> WinnerStays:
        """The match with each result recorded in turn: a whole match replays from its rows."""
        match = self
        for result in results:
            match = match.record_score(result)
        return match

    def resign(self, seat: int, reason: str = "resign") -> WinnerStays:
        """End the game now: ``seat`` resigns (or, ``reason`` "forfeit", forfeits); the better
        placed of the two who stayed wins (`winner`)."""
        self._check_open()
        return replace(self, ended_by=reason, leaver=check_leaver(seat, SEATS, reason))

    def _check_open(self) -> None:
        if self.is_over:
            raise IllegalMove("the game is over")

    # -- serialization ------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "variant": "winner_stays",
            "ruleset": self.ruleset.to_dict(),
            "target": self.target,
            "first_waiting": self.first_waiting,
            "first_dealer": self.first_dealer,
            "deals": [record.to_dict() for record in self.records],
            "ended_by": self.ended_by,
            "leaver": self.leaver,
        }

    @classmethod
    def from_dict(cls, data: object) -> WinnerStays:
        """Read `to_dict`'s form back by replaying every row; InvalidState names what is wrong."""
        return read_stored(data, "winner-stays match", _replay)


def _replay(data: dict[str, Any]) -> WinnerStays:
    match = WinnerStays.new(
        Ruleset.from_dict(data["ruleset"]), data["first_waiting"], data["first_dealer"], data["target"]
    )
    for number, row in enumerate(data["deals"], 1):
        match = _read_row(match, row, number)
    return ended(match, data, WinnerStays.resign)


def _read_row(match: WinnerStays, row: object, number: int) -> WinnerStays:
    recorded = match.record_score(DealResult.from_dict(row))
    assert isinstance(row, dict)  # DealResult.from_dict refuses anything else
    added = recorded.records[-1].to_dict()
    for key in ("players", "dealer", "waiting", "totals"):
        if key in row and row[key] != added[key]:
            raise InvalidState(f"deal {number}: the {key} should be {added[key]!r}, not {row[key]!r}")
    return recorded
