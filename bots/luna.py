"""LUNA, the hard bot: determinized Monte Carlo search over informed play-outs.

For each decision LUNA
1. lists a few candidate moves, its judgement's choice first: CARMEN's deadwood-point
   judgement with LUNA's own weights (LUNA_JUDGEMENT) ranks the discards, the discard
   leaving the least deadwood is studied too, and a knock is a candidate only under
   its knock ceiling (plus KNOCK_SLACK, plus CHEAP_UNDERCUT_SLACK where an undercut
   costs little) or when the deal may end the match, where the match odds judge it,
2. deals the opponent's hidden cards and the stock order many times, consistently
   with what it saw: cards the opponent took and still holds are fixed; cards
   related to what it threw or declined are less likely, cards related to what
   it took more likely; a few extra cards are dealt and the worst of them dropped,
   as a player who has drawn and thrown keeps the better cards (SELECTION); a hand
   that could already have knocked is mostly redrawn; where LUNA may knock, the hands
   lean towards the opponent's deadwood as its play tells it (bots/deadwood.py),
3. plays every candidate out on every deal with the informed play-out policy, in
   which LUNA's own seat keeps the loose cards that other cards could meld
   (the same deals for every candidate, so the comparison is not drowned in luck),
4. scores each ending by the chance of winning the match from the score it
   leaves, and keeps the judgement's choice unless another move does clearly better
   (a paired comparison, in standard errors).

The budget is a count of sampled deals (checked in batches, stopping early once
no alternative can win), never a clock: a seeded rng always gives the same move.
"""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Callable, Sequence
from functools import cached_property

from rules.melding import best_discard_mask, min_deadwood_mask
from rules.moves import BIG_GIN, KNOCK, Action
from rules.view import DealView

from .base import NO_MATCH, MatchContext, draw_action, find_action, finish_action
from .carmen import EARLY_TURNS, Judgement, knock_ceiling, ranked_discards
from .carmen import wants_face_up as carmen_wants_face_up
from .deadwood import COEFFICIENTS, predicted_deadwood
from .handeval import VALUE, bits, related
from .history import PlayerModel, explains, opponent_turns
from .knowledge import Knowledge, repeats_position
from .matchodds import match_chance
from .playout import (
    DEAD,
    SimDeal,
    SimRules,
    arranged,
    discard,
    draw,
    finish_turn,
    play_out,
    policy_discard,
    wants_face_up,
)

DRAW_SAMPLES = 320  # most sampled deals for a take-or-draw decision (two candidates)
DISCARD_SAMPLES = 160  # most sampled deals for a discard decision
BATCH = 32  # sampled deals between two looks at whether the answer is already clear
HOPELESS = 2.0  # standard errors below the judgement's choice at which a move stops being studied
DISCARD_CANDIDATES = 3  # plain discards kept after the judgement's ranking
CONFIDENCE = 1.5  # standard errors by which a move must beat the judgement's choice to replace it
TOOK_NEAR = 3.0  # weight of a hidden card related to one the opponent took from the pile
THREW_NEAR = 0.5  # weight of one related to a card it threw or declined
KEEP_KNOCKABLE = 0.5  # chance to keep a sampled opponent hand that could have knocked already
KEEP_IMPLAUSIBLE = 1.0  # chance to keep a sampled hand its latest discard would have been a poor throw from
DISCARD_SLACK = 0  # deadwood points by which that discard may miss the least deadwood and stay plausible
REDRAWS = 4  # tries at a sample before accepting whatever came
# where LUNA may knock, each sampled opponent hand is one of DEADWOOD_POOL from the sampler, picked
# by a Gaussian of sd DEADWOOD_SIGMA points about deadwood.py's estimate of the opponent's deadwood:
# +0.36 a deal against simple over 900 paired deals, -0.06 against CARMEN over 600 (bench/README.md)
DEADWOOD_POOL, DEADWOOD_SIGMA = 8, 6.0
# sampled hands: 0.7 extra cards dealt per opponent discard, at most 3, the worst then dropped;
# with the least-deadwood candidate, it won 67.8% of the classic rung's matches against simple
# (65.4% without) and +3.0 points a deal against CARMEN on paired deals (bench/README.md)
SELECTION, SELECTION_CAP = 0.7, 3
KNOCK_SLACK = 0  # deadwood points above the knock ceiling at which LUNA still studies a knock
# where an undercut bonus of CHEAP_UNDERCUT or less makes an undercut cheap (classic), every legal
# knock is studied: with END_KNOCKS, 71.6% of the classic rung's matches against simple (bench/README.md)
CHEAP_UNDERCUT, CHEAP_UNDERCUT_SLACK = 10, 10
END_KNOCKS = True  # near the end of a match, any legal knock is studied (not as the default move)
# CARMEN's judgement reweighted on paired deals (bench/README.md): the deadwood expected after
# the next draw counts most, no points for feeding the opponent, and the knock ceiling falls
# only as far as the undercut bonus makes an undercut costly
LUNA_JUDGEMENT = Judgement(now_weight=0.15, feed_cost=0.0, caution_by_undercut=True)

Outcome = tuple[int, int]  # (scoring seat or DEAD, points)
Move = Callable[[SimDeal], Outcome]


class Luna:
    name = "luna"
    draw_samples = DRAW_SAMPLES
    discard_samples = DISCARD_SAMPLES
    discard_candidates = DISCARD_CANDIDATES
    confidence = CONFIDENCE
    keep_knockable = KEEP_KNOCKABLE
    keep_knockable_early = KEEP_KNOCKABLE  # the same in the first EARLY_TURNS discards of a deal
    keep_implausible = KEEP_IMPLAUSIBLE
    took_near = TOOK_NEAR  # weight of a hidden card related to one the opponent took (hidden_card_weights)
    threw_near = THREW_NEAR  # ...and of one related to a card it threw or declined
    selection = SELECTION  # extra cards dealt per opponent discard, its worst then dropped (select_kept)
    selection_cap = SELECTION_CAP  # the most extra cards dealt
    plausible_swaps = 0  # loose cards above the opponent's latest discard swapped for unseen ones
    deadwood_pool = DEADWOOD_POOL  # hands proposed per sampled hand, one kept by its deadwood (0: no tilt)
    deadwood_sigma = DEADWOOD_SIGMA  # ...weighed by a Gaussian of this sd about deadwood.py's estimate
    deadwood_coefficients: Sequence[float] = COEFFICIENTS  # ...made with these coefficients
    deadwood_at_knocks_only = True  # the pool only at discards where LUNA may knock (False: everywhere)
    discard_slack = DISCARD_SLACK
    close_factor = 1.0  # sampling budget multiplied by this when the answer is still open
    least_deadwood_candidate = True  # study the least-deadwood discard too
    knock_slack = KNOCK_SLACK
    end_knocks = END_KNOCKS
    cheap_undercut = CHEAP_UNDERCUT  # an undercut bonus this low or lower makes an undercut cheap...
    cheap_undercut_slack = CHEAP_UNDERCUT_SLACK  # ...and adds this to the knock slack there
    history_guesses = 0  # guessed hands weighed by the opponent's past turns (0: no weighing)
    history_depth = 6  # the opponent's latest turns they are weighed by
    history_model = PlayerModel()
    history_for_knocks = True  # False: a decision with a knock among its moves samples as without
    judgement: Judgement = LUNA_JUDGEMENT  # ranks the candidates and picks the default move
    keeping_playouts = True  # LUNA's own play-outs keep cards with outs (playout.keeping_discard)
    search_type: type[Search]  # Search unless a benchmark's diagnostic says otherwise (set below)

    def choose(self, view: DealView, rng: random.Random, match: MatchContext | None = None) -> Action:
        if len(view.legal_actions) == 1:
            return view.legal_actions[0]
        if repeats_position(view):
            return draw_action(view, False)  # what draw_action would do after the search anyway
        know = Knowledge.from_view(view)
        search = self.search_type(view, know, match or NO_MATCH, self)
        if know.phase in ("offer", "draw"):
            return draw_action(view, search.best_draw(rng, self.draw_samples))
        return search.best_finish(rng, self.discard_samples)


class Search:
    def __init__(
        self, view: DealView, know: Knowledge, match: MatchContext, tuning: Luna | None = None
    ) -> None:
        self.tuning = tuning or Luna()
        self.view = view
        self.know = know
        self.match = match
        self.me = know.seat
        self.rules = SimRules.of(view.ruleset, know.knock_limit, view.multiplier)
        self.weights = hidden_card_weights(know, self.tuning.took_near, self.tuning.threw_near)
        self.guesses: tuple[list[int], list[float]] | None = None  # built at the first sample
        self.weigh_history = self.tuning.history_guesses > 0

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

        default = 0 if carmen_wants_face_up(self.know, self.tuning.judgement) else 1
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
            for _, card in ranked_discards(know, self.tuning.judgement)[: self.tuning.discard_candidates]
        ]
        if self.tuning.least_deadwood_candidate and (knock_card, False) not in options:
            options.append((knock_card, False))  # the discard leaving the least deadwood now
        # LUNA knocks under its knock ceiling (no slack where an undercut would lose the match),
        # and may wait instead: its play-outs model an opponent that knocks at once, so they miss
        # the undercuts a patient one prepares.
        if can_knock and deadwood <= self.knock_ceiling():
            options.insert(0, (knock_card, True))
            self.weigh_history = self.weigh_history and self.tuning.history_for_knocks
        elif can_knock and self.tuning.end_knocks and self.match_may_end():
            options.append((knock_card, True))  # the match odds, not the ceiling, judge it there
        moves = [self.discard_move(card, knocks) for card, knocks in options]
        card, knocks = options[self.pick(moves, samples, rng)]
        return finish_action(view, card, knock=knocks)

    def knock_ceiling(self) -> int:
        """The most deadwood LUNA studies a knock with: its judgement's ceiling plus the slack (and
        the cheap-undercut slack where an undercut costs little), but no slack where an undercut
        would lose the match."""
        match, undercut = self.match, self.view.ruleset.undercut_bonus
        ceiling = knock_ceiling(self.know, undercut, match, self.tuning.judgement)
        if self.undercut_loses_match():
            return ceiling
        cheap = undercut <= self.tuning.cheap_undercut
        return ceiling + self.tuning.knock_slack + (self.tuning.cheap_undercut_slack if cheap else 0)

    def match_may_end(self) -> bool:
        """Whether this deal may well end the match: an undercut would hand the opponent the
        target, or a plain knock would bring LUNA to it."""
        match = self.match
        if match.target is None:
            return False
        return self.undercut_loses_match() or match.my_total + self.know.knock_limit >= match.target

    def undercut_loses_match(self) -> bool:
        """Whether an undercut in this deal would bring the opponent to the match's target."""
        match = self.match
        undercut = self.view.ruleset.undercut_bonus
        return match.target is not None and match.opponent_total + undercut >= match.target

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
        confidence = self.tuning.confidence
        limit = samples
        while len(values[0]) < limit:
            self.evaluate(moves, values, min(BATCH, limit - len(values[0])), rng)
            gains = paired_gains(values)
            if len(values[0]) >= 2 * BATCH and all(mean + HOPELESS * error < 0 for mean, error in gains):
                break
            if len(values[0]) == samples and any(0 < mean <= confidence * error for mean, error in gains):
                limit = int(samples * self.tuning.close_factor)  # a close call: look longer
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
        hidden = self.sample_hidden(rng)
        stock = [card for card in bits(know.unseen) if not hidden >> card & 1]
        rng.shuffle(stock)
        hands = [0, 0]
        hands[self.me] = know.hand
        hands[1 - self.me] = know.opponent_known | hidden
        pile = [card.index for card in self.view.discard_pile]
        keeper = self.me if self.tuning.keeping_playouts else -1
        return SimDeal(self.rules, hands, stock, pile, keeper, know.pile | know.opponent_known)

    def sample_hidden(self, rng: random.Random) -> int:
        """The opponent's hidden cards. A hand that could have knocked after its last discard,
        or from which that discard was a poor throw, is kept only now and then: most players
        knock when they can and throw the card that leaves them the least deadwood."""
        know, tuning = self.know, self.tuning
        if self.weigh_history and know.opponent_discards:
            return self.guess_from_history(rng)
        keep = tuning.keep_knockable_early if know.turns <= EARLY_TURNS else tuning.keep_knockable
        hidden = 0
        for _ in range(REDRAWS + 1):
            hidden = self.proposed_hidden(know.opponent_hidden_count, rng)
            if tuning.plausible_swaps:
                hidden = self.make_plausible(hidden, rng)
            if not know.opponent_discards:
                break
            hand = know.opponent_known | hidden
            if arranged(hand)[1] <= know.knock_limit and rng.random() >= keep:
                continue
            implausible = tuning.keep_implausible < 1 and self.implausible_discard(hand)
            if implausible and rng.random() >= tuning.keep_implausible:
                continue
            break
        return hidden

    def guess_from_history(self, rng: random.Random) -> int:
        """A hidden hand drawn from a pool of guesses, each as likely as it explains the
        opponent's latest turns (history.explains); the pool is made once per decision."""
        if self.guesses is None:
            know, tuning = self.know, self.tuning
            turns = opponent_turns(self.view, 1 - self.me)
            count = know.opponent_hidden_count
            hands = [self.proposed_hidden(count, rng) for _ in range(tuning.history_guesses)]
            likelihoods = [
                explains(
                    know.opponent_known | hidden,
                    turns,
                    know.knock_limit,
                    tuning.history_model,
                    tuning.history_depth,
                    rng,
                )
                for hidden in hands
            ]
            if not any(likelihoods):
                likelihoods = [1.0] * len(hands)
            self.guesses = hands, likelihoods
        hands, likelihoods = self.guesses
        return rng.choices(hands, likelihoods)[0]

    def proposed_hidden(self, count: int, rng: random.Random) -> int:
        """Hidden cards: with a deadwood pool, the one of ``deadwood_pool`` hands from the cards
        alone picked with a Gaussian weight on how far its deadwood lies from the estimate of the
        opponent's play (deadwood.predicted_deadwood); else one such hand."""
        know, tuning = self.know, self.tuning
        if not self.leans_on_deadwood:
            return self.hidden_from_cards(count, rng)
        pool = [self.hidden_from_cards(count, rng) for _ in range(tuning.deadwood_pool)]
        expected = self.expected_deadwood
        weights = [
            math.exp(
                -(((arranged(know.opponent_known | hidden)[1] - expected) / tuning.deadwood_sigma) ** 2) / 2
            )
            for hidden in pool
        ]
        return rng.choices(pool, weights)[0] if any(weights) else pool[0]

    @cached_property
    def may_knock(self) -> bool:
        """Knowledge.may_knock, worked out once per decision: the sampler asks at every sample."""
        return self.know.may_knock

    @cached_property
    def leans_on_deadwood(self) -> bool:
        """Whether this decision's sampled hands lean towards the estimate of the opponent's deadwood."""
        tuning = self.tuning
        if tuning.deadwood_pool <= 0 or not self.know.opponent_discards:
            return False
        return self.may_knock or not tuning.deadwood_at_knocks_only

    @cached_property
    def expected_deadwood(self) -> float:
        return predicted_deadwood(self.view, self.tuning.deadwood_coefficients)

    def hidden_from_cards(self, count: int, rng: random.Random) -> int:
        """Hidden cards from the cards alone, with the tuning's selection if any."""
        know, tuning = self.know, self.tuning
        extra = min(
            round(tuning.selection * know.opponent_discards.bit_count()),
            tuning.selection_cap,
            know.unseen.bit_count() - count,
        )
        hidden = weighted_sample(self.weights, count + extra, rng)
        return select_kept(know.opponent_known, hidden, extra) if extra > 0 else hidden

    def make_plausible(self, hidden: int, rng: random.Random) -> int:
        """Swap loose cards worth more than the opponent's latest discard for other unseen cards,
        at most ``plausible_swaps`` times, until that discard was a plausible throw."""
        know = self.know
        if know.opponent_last_discard < 0:
            return hidden
        ceiling = VALUE[know.opponent_last_discard]
        for _ in range(self.tuning.plausible_swaps):
            hand = know.opponent_known | hidden
            if not self.implausible_discard(hand):
                break
            high = [card for card in bits(hidden & ~arranged(hand)[0]) if VALUE[card] > ceiling]
            pool = list(bits(know.unseen & ~hidden))
            if not high or not pool:
                break
            worst = max(high, key=lambda card: (VALUE[card], card))
            hidden ^= 1 << worst | 1 << rng.choice(pool)
        return hidden

    def implausible_discard(self, hand: int) -> bool:
        """Whether the opponent's latest discard, had it held ``hand`` besides, left more deadwood
        than throwing its highest loose card would have (plus the tuning's slack)."""
        card = self.know.opponent_last_discard
        if card < 0:
            return False
        left = policy_discard(hand | 1 << card, self.know.opponent_last_taken)[1]
        return arranged(hand)[1] > left + self.tuning.discard_slack

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
        return match_chance(mine, theirs, match.target, ruleset.gin_bonus, ruleset.undercut_bonus)


Luna.search_type = Search


def paired_gains(values: list[list[float]]) -> list[tuple[float, float]]:
    """For each move after the first: (mean gain over the first, its standard error)."""
    out = []
    for other in values[1:]:
        gains = [mine - first for mine, first in zip(other, values[0], strict=True)]
        out.append((statistics.fmean(gains), statistics.pstdev(gains) / math.sqrt(len(gains))))
    return out


def hidden_card_weights(
    know: Knowledge, took_near: float = TOOK_NEAR, threw_near: float = THREW_NEAR
) -> dict[int, float]:
    """Relative likelihood that each unseen card is in the opponent's hand."""
    thrown = know.opponent_discards | know.opponent_refused
    weights = {}
    for card in bits(know.unseen):
        near = related(card)
        weight = took_near if near & know.opponent_known else 1.0
        if near & thrown:
            weight *= threw_near
        weights[card] = weight
    return weights


def select_kept(known: int, hidden: int, drop: int) -> int:
    """``hidden`` less its ``drop`` worst cards, one at a time as a player discards: the highest
    loose card of the least-deadwood arrangement with ``known``. A player who has drawn and thrown
    for a while holds the better part of more cards than its hand, not a random hand."""
    for _ in range(drop):
        loose = hidden & ~arranged(known | hidden)[0]
        pool = loose or hidden
        worst = max(bits(pool), key=lambda card: (VALUE[card], card))
        hidden ^= 1 << worst
    return hidden


def weighted_sample(weights: dict[int, float], count: int, rng: random.Random) -> int:
    """``count`` distinct cards drawn with probability proportional to weight, as a mask."""
    if count <= 0:
        return 0
    keyed = sorted((rng.random() ** (1.0 / weight), card) for card, weight in weights.items())
    mask = 0
    for _, card in keyed[-count:]:
        mask |= 1 << card
    return mask
