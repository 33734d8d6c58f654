"""Deal review: LUNA looks back over a finished deal, one decision of a player at a time.

For every decision of a reviewed seat (take the upcard or pass, draw from the stock or the
pile, which card to throw, knock or not and with which card, big gin) the review
1. rebuilds the seat's own view at that moment from the engine (``Deal.view``): the search
   reads nothing else, so the review never uses a card the player could not see,
2. lists the candidate moves (the move played, LUNA's own candidates, any gin or big gin),
3. values each, on the same play-outs, in expected points of the deal (the seat's points
   minus the opponent's) and as the chance of winning the match from the score the deal
   started at, with LUNA's evaluation machinery (bots/luna.py's Search: its opponent sampler
   and informed play-outs, every candidate on the same sampled deals so the comparison is
   paired),
4. marks the move played by the points it lost against the best candidate (VERDICTS in
   bots/review_verdicts.py: normalized across the match, like backgammon's EMG), and keeps the
   match judgement (match-winning chance lost, MATCH_VERDICTS) beside it, shown where the two
   disagree (near the target).

The "with hindsight" line plays every candidate out once on the real hidden cards (the
opponent's real hand and the real stock order) with the same play-out policy; it is kept
only where it changes the verdict. The deal's accuracy (0-100) is its decisions' mean loss
in points turned into a figure (review_verdicts.accuracy_of).

A review is a pure function of the deal, the seats, the score and a seed: the same seed
always gives the same review (each decision draws from its own seeded rng).
"""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from rules.deal import Deal
from rules.melding import best_discard_mask, min_deadwood_mask
from rules.moves import BIG_GIN, DISCARD, KNOCK, TAKE_DISCARD, TAKE_UPCARD, Action
from rules.ruleset import Ruleset
from rules.view import DealView

from .base import MatchContext, find_action
from .carmen import ranked_discards
from .knowledge import Knowledge
from .luna import Move, Outcome, Search
from .luna_settings import LUNA_SETTINGS, LunaSettings
from .matchodds import match_chance
from .playout import DEAD, SimDeal, big_gin, draw, finish_turn, play_out
from .review_verdicts import (
    GOOD,
    MATCH_VERDICTS,
    POINTS_SCALE,
    VERDICTS,
    accuracy_of,
    disagree,
    match_verdict_of,
    verdict_of,
)

__all__ = ["GOOD", "MATCH_VERDICTS", "VERDICTS", "match_verdict_of", "verdict_of"]


@dataclass(frozen=True, slots=True)
class ReviewSettings:
    """The review's search budget: sampled deals per decision, LUNA's own by default (a deal of
    about 30 decisions then costs about 2.9 s of CPU: bench/review.py), and the LUNA whose
    sampler and judgement it uses."""

    draw_samples: int = LUNA_SETTINGS.draw_samples  # two candidates
    discard_samples: int = LUNA_SETTINGS.discard_samples  # three to six candidates
    discard_candidates: int = 3  # plain discards kept after LUNA's judgement's ranking
    hindsight: bool = True
    # where the loss in points lies within settle_margin standard errors of a threshold, more
    # sampled deals (half the budget at a time) up to most_samples_factor times the budget: fewer
    # verdicts that change with the seed (bench/review.py; 1.5 rather than 2 since the points
    # scale marks more decisions, so more lie near a threshold: the CPU stays under 3 s a deal)
    settle_margin: float = 1.5
    most_samples_factor: int = 3
    luna: LunaSettings = LUNA_SETTINGS


REVIEW_SETTINGS = ReviewSettings()


@dataclass(frozen=True, slots=True)
class Choice:
    """One candidate move of a decision and what it is worth."""

    action: str
    chance: float  # estimated match-winning chance from the seat's view
    hindsight: float | None  # on the real hidden cards (None: hindsight not computed)
    points: float = 0.0  # expected points of the deal from the seat's view (won minus lost)
    hindsight_points: float | None = None  # ...on the real hidden cards


@dataclass(frozen=True, slots=True)
class Decision:
    """One reviewed decision. ``number`` is the move's position in the deal (1-based, the
    move log's sequence number); chances are the seat's own."""

    number: int
    seat: int
    phase: str
    played: str
    points_best: str  # the best move for points of the deal: the verdict's judgement
    played_points: float
    best_points: float
    points_loss: float
    verdict: str  # by points_loss (VERDICTS)
    best: str  # the best move for the match (match-winning chance)
    played_chance: float
    best_chance: float
    loss: float  # match-winning chance lost against ``best``
    match_verdict: str  # by loss (MATCH_VERDICTS)
    match_differs: bool  # the match judgement disagrees with the points one: show both
    knock_deadwood: int | None  # the deadwood the played knock showed (None: not a knock)
    hindsight_best: str | None  # set only where hindsight changes the verdict (in points)
    hindsight_loss: float | None
    hindsight_verdict: str | None
    choices: tuple[Choice, ...]


@dataclass(frozen=True, slots=True)
class DealReview:
    seats: tuple[int, ...]
    decisions: tuple[Decision, ...]
    start_chances: tuple[float, float]  # each seat's match-winning chance at the deal's start score
    end_chances: tuple[float, float]  # ...and at the score the deal ended with
    accuracy: float | None = None  # 0-100 from the mean loss in points (None: no decision)
    thresholds: tuple[tuple[str, float], ...] = VERDICTS  # in points of the deal
    match_thresholds: tuple[tuple[str, float], ...] = MATCH_VERDICTS
    scale: str = POINTS_SCALE

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


Progress = Callable[[int, int], None]


def decision_points(deal: Deal, seats: Sequence[int]) -> list[tuple[int, Deal, Action]]:
    """(move number, the deal just before it, the action played) for each decision of ``seats``:
    every move of theirs where more than one move was legal."""
    state = Deal.new(deal.ruleset, deal.dealer, deal.deck)
    points = []
    for number, action in enumerate(deal.actions, start=1):
        seat = state.to_play
        if seat in seats and len(state.legal_actions()) > 1:
            points.append((number, state, action))
        state, _ = state.apply(action)
    return points


def review_deal(
    deal: Deal,
    seats: Sequence[int],
    scores: tuple[int, int],
    seed: int | str,
    settings: ReviewSettings = REVIEW_SETTINGS,
    progress: Progress | None = None,
) -> DealReview:
    """Review the decisions of ``seats`` in the finished ``deal``, started at ``scores`` (by seat)."""
    if not deal.is_over:
        raise ValueError("only a finished deal can be reviewed")
    points = decision_points(deal, seats)
    decisions = []
    for done, (number, before, action) in enumerate(points, start=1):
        seat = before.to_play
        assert seat is not None
        match = MatchContext(scores[seat], scores[1 - seat], deal.ruleset.target)
        rng = random.Random(f"{seed}:{number}")
        decisions.append(review_decision(before, seat, action, number, match, rng, settings))
        if progress is not None:
            progress(done, len(points))
    ruleset = deal.ruleset
    end = (scores[0] + deal.score_for(0), scores[1] + deal.score_for(1))
    ends = _chances(end, ruleset)
    if ruleset.target is None and deal.winner is not None:  # one deal was the whole match
        ends = (float(deal.winner == 0), float(deal.winner == 1))
    return DealReview(
        seats=tuple(sorted(set(seats))),
        decisions=tuple(decisions),
        start_chances=_chances(scores, ruleset),
        end_chances=ends,
        accuracy=accuracy_of([decision.points_loss for decision in decisions]),
    )


def _chances(scores: tuple[int, int], ruleset: Ruleset) -> tuple[float, float]:
    terms = ruleset.target, ruleset.gin_bonus, ruleset.undercut_bonus, ruleset.oklahoma
    return match_chance(scores[0], scores[1], *terms), match_chance(scores[1], scores[0], *terms)


def review_decision(
    before: Deal,
    seat: int,
    played: Action,
    number: int,
    match: MatchContext,
    rng: random.Random,
    settings: ReviewSettings = REVIEW_SETTINGS,
) -> Decision:
    """Review one decision of ``seat`` in the position ``before``; the search sees only the view."""
    view = before.view(seat)
    search = ReviewSearch(view, Knowledge.from_view(view), match, settings.luna)
    candidates = search.candidates(played, settings.discard_candidates)
    moves = [search.move(action) for action in candidates]
    samples = settings.draw_samples if view.phase in ("offer", "draw") else settings.discard_samples
    chances: list[list[float]] = [[] for _ in moves]
    points: list[list[float]] = [[] for _ in moves]
    search.evaluate_both(moves, chances, points, samples, rng)
    while len(points[0]) < settings.most_samples_factor * samples and near_a_threshold(points, settings):
        search.evaluate_both(moves, chances, points, max(1, samples // 2), rng)  # on the edge: look closer
    hindsight = _hindsight(before, seat, search, moves) if settings.hindsight else None
    choices = tuple(
        Choice(
            str(action),
            statistics.fmean(chances[position]),
            None if hindsight is None else hindsight[position][0],
            statistics.fmean(points[position]),
            None if hindsight is None else hindsight[position][1],
        )
        for position, action in enumerate(candidates)
    )
    return _judged(number, seat, view, played, choices)


def near_a_threshold(values: list[list[float]], settings: ReviewSettings) -> bool:
    """Whether the played move's loss in points (values[0]) against the best so far is too close
    to a verdict threshold to tell on which side it lies, on the paired samples."""
    count = len(values[0])
    means = [sum(column) / count for column in values]
    best = max(range(len(values)), key=means.__getitem__)
    if best == 0:
        return False
    gains = [mine - played for mine, played in zip(values[best], values[0], strict=True)]
    error = statistics.pstdev(gains) / math.sqrt(count)
    loss = means[best] - means[0]
    return any(abs(loss - threshold) < settings.settle_margin * error for _, threshold in VERDICTS)


def _judged(number: int, seat: int, view: DealView, played: Action, choices: tuple[Choice, ...]) -> Decision:
    mine = next(choice for choice in choices if choice.action == str(played))
    best = max(choices, key=lambda choice: choice.points)
    points_loss = max(0.0, best.points - mine.points)
    verdict = verdict_of(points_loss)
    match_best = max(choices, key=lambda choice: choice.chance)
    loss = max(0.0, match_best.chance - mine.chance)
    match_verdict = match_verdict_of(loss)
    hindsight_best = hindsight_loss = hindsight_verdict = None
    if mine.hindsight_points is not None:
        real_best = max(choices, key=lambda choice: choice.hindsight_points or 0.0)
        real_loss = max(0.0, (real_best.hindsight_points or 0.0) - mine.hindsight_points)
        if verdict_of(real_loss) != verdict:
            hindsight_best, hindsight_loss, hindsight_verdict = (
                real_best.action,
                real_loss,
                verdict_of(real_loss),
            )
    knock_deadwood = None
    if played.kind == KNOCK and view.hand is not None:
        hand = sum(1 << card.index for card in view.hand)
        knock_deadwood = min_deadwood_mask(hand & ~(1 << played.index))
    return Decision(
        number=number,
        seat=seat,
        phase=view.phase,
        played=str(played),
        points_best=best.action,
        played_points=mine.points,
        best_points=best.points,
        points_loss=points_loss,
        verdict=verdict,
        best=match_best.action,
        played_chance=mine.chance,
        best_chance=match_best.chance,
        loss=loss,
        match_verdict=match_verdict,
        match_differs=disagree(verdict, match_verdict, best.action, match_best.action),
        knock_deadwood=knock_deadwood,
        hindsight_best=hindsight_best,
        hindsight_loss=hindsight_loss,
        hindsight_verdict=hindsight_verdict,
        choices=choices,
    )


def _hindsight(
    before: Deal, seat: int, search: ReviewSearch, moves: Sequence[Move]
) -> list[tuple[float, float]]:
    """Each candidate played out once on the real cards (the opponent's real hand, the real
    stock): its match-winning chance and its points."""
    deck = before.deck
    stock = [card.index for card in reversed(deck[len(deck) - before.stock_count :])]
    hands = [before.hand_mask(0), before.hand_mask(1)]
    pile = [card.index for card in before.discard_pile]
    real = SimDeal(search.rules, hands, stock, pile, keeper=seat)
    outcomes = [move(real.copy()) for move in moves]
    return [(search.value(outcome), search.points(outcome)) for outcome in outcomes]


class ReviewSearch(Search):
    """LUNA's search asked for the value of given moves rather than for a move to play."""

    def candidates(self, played: Action, discard_candidates: int) -> list[Action]:
        """The moves worth valuing: the one played first, then LUNA's own candidates."""
        view, know = self.view, self.know
        if know.phase in ("offer", "draw"):
            return [played, *(action for action in view.legal_actions if action != played)]
        knock_card, _ = best_discard_mask(know.hand, know.just_taken)
        options: list[Action] = [played]
        big_gin = find_action(view, BIG_GIN)
        if big_gin is not None and min_deadwood_mask(know.hand) == 0:
            options.append(big_gin)
        knock = find_action(view, KNOCK, knock_card)
        if knock is not None:
            options.append(knock)
        ranked = ranked_discards(know, self.settings.judgement)[:discard_candidates]
        options += [action for _, card in ranked if (action := find_action(view, DISCARD, card)) is not None]
        plain = find_action(view, DISCARD, knock_card)
        if plain is not None:
            options.append(plain)
        return list(dict.fromkeys(options))

    def move(self, action: Action) -> Move:
        me, opponent = self.me, 1 - self.me
        if action.kind in (TAKE_UPCARD, TAKE_DISCARD):

            def take(sim: SimDeal) -> Outcome:
                taken = draw(sim, me, True)
                return finish_turn(sim, me, taken) or play_out(sim, opponent)

            return take
        if action.kind == BIG_GIN:
            return self.big_gin
        if action.kind in (DISCARD, KNOCK):
            return self.discard_move(action.index, action.kind == KNOCK)
        if self.know.phase == "offer":  # a pass
            return self.pass_upcard

        def stock(sim: SimDeal) -> Outcome:
            draw(sim, me, False)
            return finish_turn(sim, me, -1) or play_out(sim, opponent)

        return stock

    def big_gin(self, sim: SimDeal) -> Outcome:
        return big_gin(sim, self.me)

    def evaluate_both(
        self,
        moves: Sequence[Move],
        chances: list[list[float]],
        points: list[list[float]],
        samples: int,
        rng: random.Random,
    ) -> None:
        """Append to ``chances`` and ``points`` each move's match-winning chance and points of
        the deal on ``samples`` more sampled deals (the same play-out for both scales)."""
        for _ in range(samples):
            sim = self.sample_deal(rng)
            for position, move in enumerate(moves):
                outcome = move(sim.copy())
                chances[position].append(self.value(outcome))
                points[position].append(self.points(outcome))

    def points(self, outcome: Outcome) -> float:
        """The deal's points from the seat's view: won positive, lost negative, a dead deal 0."""
        winner, points = outcome
        if winner == DEAD:
            return 0.0
        return float(points if winner == self.me else -points)

    def value(self, outcome: Outcome) -> float:
        """The match-winning chance; in a single-deal match, the chance of winning the deal."""
        if self.match.target is None:
            winner, _ = outcome
            return 0.5 if winner == DEAD else float(winner == self.me)
        return super().value(outcome)
