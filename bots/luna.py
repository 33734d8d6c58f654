"""LUNA, the hard bot: determinized Monte Carlo search over informed play-outs.

For each decision LUNA
1. lists a few candidate moves, its judgement's choice first: CARMEN's deadwood-point
   judgement with LUNA's own weights (LUNA_JUDGEMENT) ranks the discards, the discard
   leaving the least deadwood is studied too, and a knock is a candidate only under
   its knock ceiling (plus the cheap-undercut slack where an undercut costs little) or
   when the deal may end the match, where the match odds judge it,
2. deals the opponent's hidden cards and the stock order many times, consistently
   with what it saw (bots/sampling.py),
3. plays every candidate out on every deal with the informed play-out policy, in
   which LUNA's own seat keeps the loose cards that other cards could meld
   (the same deals for every candidate, so the comparison is not drowned in luck),
4. scores each ending by the chance of winning the match from the score it
   leaves, and keeps the judgement's choice unless another move does clearly better
   (a paired comparison, in standard errors).

The budget is a count of sampled deals (checked in batches, stopping early once
no alternative can win), never a clock: a seeded rng always gives the same move.
What LUNA plays with is one `LunaSettings` value (bots/luna_settings.py).
"""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Callable, Sequence

from rules import scoring
from rules.melding import best_discard_mask, min_deadwood_mask
from rules.moves import BIG_GIN, KNOCK, Action
from rules.view import DealView

from .base import NO_MATCH, MatchContext, draw_action, find_action, finish_action
from .carmen import knock_ceiling, least_undercut, ranked_discards
from .carmen import wants_face_up as carmen_wants_face_up
from .handeval import bits
from .knowledge import Knowledge, repeats_position
from .luna_settings import LUNA_SETTINGS, LunaSettings
from .matchodds import match_chance
from .playout import DEAD, SimDeal, SimRules, discard, draw, finish_turn, play_out, wants_face_up
from .sampling import OpponentSampler

BATCH = 32  # sampled deals between two looks at whether the answer is already clear
HOPELESS = 2.0  # standard errors below the judgement's choice at which a move stops being studied

Outcome = tuple[int, int]  # (scoring seat or DEAD, points)
Move = Callable[[SimDeal], Outcome]


class Luna:
    name = "luna"

    def __init__(self, settings: LunaSettings = LUNA_SETTINGS) -> None:
        self.settings = settings

    def choose(self, view: DealView, rng: random.Random, match: MatchContext | None = None) -> Action:
        if len(view.legal_actions) == 1:
            return view.legal_actions[0]
        if repeats_position(view):
            return draw_action(view, False)  # what draw_action would do after the search anyway
        know = Knowledge.from_view(view)
        search = Search(view, know, match or NO_MATCH, self.settings)
        if know.phase in ("offer", "draw"):
            return draw_action(view, search.best_draw(rng, self.settings.draw_samples))
        return search.best_finish(rng, self.settings.discard_samples)


class Search:
    """One decision: its candidate moves played out on the same sampled deals."""

    def __init__(
        self, view: DealView, know: Knowledge, match: MatchContext, settings: LunaSettings = LUNA_SETTINGS
    ) -> None:
        self.settings = settings
        self.view = view
        self.know = know
        self.match = match
        self.me = know.seat
        self.rules = SimRules.of(view.ruleset, know.knock_limit, view.multiplier)
        self.sampler = OpponentSampler(view, know, settings)

    # -- decisions ---------------------------------------------------------------------------

    def best_draw(self, rng: random.Random, samples: int) -> bool:
        """True to take the face-up card."""
        me, opponent = self.me, 1 - self.me

        def take(sim: SimDeal) -> Outcome:
            taken = draw(sim, me, True)
            return finish_turn(sim, me, taken) or play_out(sim, opponent)

        def decline(sim: SimDeal) -> Outcome:
            if self.know.phase == "offer":
                return self.pass_upcard(sim)
            draw(sim, me, False)
            return finish_turn(sim, me, -1) or play_out(sim, opponent)

        default = 0 if carmen_wants_face_up(self.know, self.settings.judgement) else 1
        moves = [take, decline] if default == 0 else [decline, take]
        return (self.pick(moves, samples, rng) == 0) == (default == 0)

    def pass_upcard(self, sim: SimDeal) -> Outcome:
        """Pass in the offer round: the dealer may still take it; else the non-dealer draws."""
        me, opponent = self.me, 1 - self.me
        if self.view.dealer == me:  # the non-dealer passed already: it must draw from the stock
            draw(sim, opponent, False)
            return finish_turn(sim, opponent, -1) or play_out(sim, me)
        if wants_face_up(sim.hands[opponent], sim.pile[-1]):
            taken = draw(sim, opponent, True)
            return finish_turn(sim, opponent, taken) or play_out(sim, me)
        draw(sim, me, False)
        return finish_turn(sim, me, -1) or play_out(sim, opponent)

    def best_finish(self, rng: random.Random, samples: int) -> Action:
        """The discard-phase decision: big gin, gin, a knock or a plain discard."""
        know, view = self.know, self.view
        if min_deadwood_mask(know.hand) == 0 and find_action(view, BIG_GIN) is not None:
            return Action.big_gin()
        knock_card, deadwood = best_discard_mask(know.hand, know.just_taken)
        can_knock = find_action(view, KNOCK, knock_card) is not None
        if can_knock and deadwood == 0:
            return finish_action(view, knock_card, knock=True)
        options = [
            (card, False)
            for _, card in ranked_discards(know, self.settings.judgement)[: self.settings.discard_candidates]
        ]
        if (knock_card, False) not in options:
            options.append((knock_card, False))  # the discard leaving the least deadwood now
        # LUNA knocks under its knock ceiling (no slack where an undercut would lose the match),
        # and may wait instead: its play-outs model an opponent that knocks at once, so they miss
        # the undercuts a patient one prepares.
        if can_knock and deadwood <= self.knock_ceiling():
            options.insert(0, (knock_card, True))
        elif can_knock and self.match_may_end():
            options.append((knock_card, True))  # the match odds, not the ceiling, judge it there
        moves = [self.discard_move(card, knocks) for card, knocks in options]
        card, knocks = options[self.pick(moves, samples, rng)]
        return finish_action(view, card, knock=knocks)

    def knock_ceiling(self) -> int:
        """The most deadwood LUNA studies a knock with: its judgement's ceiling, plus the
        cheap-undercut slack where an undercut costs little but would not lose the match."""
        match, undercut = self.match, least_undercut(self.view)
        ceiling = knock_ceiling(self.know, undercut, match, self.settings.judgement)
        if self.undercut_loses_match():
            return ceiling
        cheap = undercut <= self.settings.cheap_undercut
        return ceiling + (self.settings.cheap_undercut_slack if cheap else 0)

    def match_may_end(self) -> bool:
        """Whether this deal may well end the match: an undercut would hand the opponent the
        target, or a knock won by the knock limit's worth of deadwood would bring LUNA to it."""
        match = self.match
        if match.target is None:
            return False
        knock = scoring.deal_points(
            self.view.ruleset, scoring.KNOCK, 0, self.know.knock_limit, self.view.multiplier
        )
        return self.undercut_loses_match() or match.my_total + knock >= match.target

    def undercut_loses_match(self) -> bool:
        """Whether an undercut in this deal would bring the opponent to the match's target."""
        match = self.match
        return match.target is not None and match.opponent_total + least_undercut(self.view) >= match.target

    def discard_move(self, card: int, knock: bool) -> Move:
        me = self.me

        def move(sim: SimDeal) -> Outcome:
            return discard(sim, me, card, knock) or play_out(sim, 1 - me)

        return move

    # -- evaluation --------------------------------------------------------------------------

    def pick(self, moves: Sequence[Move], samples: int, rng: random.Random) -> int:
        """The position of the move to play: the first (the judgement's choice) unless another
        does clearly better over the same sampled deals (a paired comparison)."""
        if samples <= 0:  # no search asked: the judgement's own choice
            return 0
        values: list[list[float]] = [[] for _ in moves]
        confidence = self.settings.confidence
        while len(values[0]) < samples:
            self.evaluate(moves, values, min(BATCH, samples - len(values[0])), rng)
            gains = paired_gains(values)
            if len(values[0]) >= 2 * BATCH and all(mean + HOPELESS * error < 0 for mean, error in gains):
                break
        best, best_margin = 0, 0.0
        for position, (mean, error) in enumerate(paired_gains(values), start=1):
            if mean > confidence * error and mean > best_margin:
                best, best_margin = position, mean
        return best

    def evaluate(
        self, moves: Sequence[Move], values: list[list[float]], samples: int, rng: random.Random
    ) -> None:
        """Append to ``values`` each move's match-winning chance on ``samples`` more sampled deals."""
        for _ in range(samples):
            sim = self.sample_deal(rng)
            for position, move in enumerate(moves):
                values[position].append(self.value(move(sim.copy())))

    def sample_deal(self, rng: random.Random) -> SimDeal:
        """The opponent's hidden cards and the stock order, drawn consistently with the view."""
        know = self.know
        hidden = self.sampler.hidden(rng)
        stock = [card for card in bits(know.unseen) if not hidden >> card & 1]
        rng.shuffle(stock)
        hands = [0, 0]
        hands[self.me] = know.hand
        hands[1 - self.me] = know.opponent_known | hidden
        pile = [card.index for card in self.view.discard_pile]
        return SimDeal(self.rules, hands, stock, pile, keeper=self.me)

    def value(self, outcome: Outcome) -> float:
        """The chance of winning the match once the deal ends this way."""
        winner, points = outcome
        match, ruleset = self.match, self.view.ruleset
        if match.target is None:  # a single deal decides the match; points break ties
            if winner == DEAD:
                return 0.5
            return (1.0 if winner == self.me else 0.0) + (points if winner == self.me else -points) / 1000
        mine, theirs = match.my_total, match.opponent_total
        if winner == self.me:
            mine += points
        elif winner != DEAD:
            theirs += points
        return match_chance(
            mine, theirs, match.target, ruleset.gin_bonus, ruleset.undercut_bonus, ruleset.oklahoma
        )


def paired_gains(values: list[list[float]]) -> list[tuple[float, float]]:
    """For each move after the first: (mean gain over the first, its standard error)."""
    out = []
    for other in values[1:]:
        gains = [mine - first for mine, first in zip(other, values[0], strict=True)]
        out.append((statistics.fmean(gains), statistics.pstdev(gains) / math.sqrt(len(gains))))
    return out
