"""A hypothesis state machine of one table, match after match: both seats, the three bots and
the clock act in any order, with illegal actions from either seat thrown in between. After
every step the engine's invariants hold; an illegal action raises IllegalMove and changes
nothing."""

from __future__ import annotations

import dataclasses
import random

import pytest
from hypothesis import HealthCheck, event, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from bots import BOTS, LUNA_SETTINGS, Luna, MatchContext
from rules import CARDS, RULESETS, Action, Deal, IllegalMove, Match, Ruleset, replay, timeout_action
from rules.moves import ACTION_KINDS, CARD_KINDS


def quick_luna() -> Luna:
    """LUNA's code paths with a sampling budget small enough for hundreds of decisions."""
    return Luna(dataclasses.replace(LUNA_SETTINGS, draw_samples=4, discard_samples=4))


BOT_CLASSES = {**BOTS, "luna": quick_luna}
RULESET_CHOICES = [
    *RULESETS.values(),
    dataclasses.replace(RULESETS["playgridia"], target=100),
]
EVERY_ACTION = [Action(kind) for kind in ACTION_KINDS if kind not in CARD_KINDS] + [
    Action(kind, card) for kind in CARD_KINDS for card in CARDS
]


def stock_of(deal: Deal) -> list:
    return list(deal.deck[52 - deal.stock_count :])


class TableMachine(RuleBasedStateMachine):
    @initialize(
        ruleset=st.sampled_from(RULESET_CHOICES), first_dealer=st.integers(0, 1), deck=st.permutations(CARDS)
    )
    def open_table(self, ruleset: Ruleset, first_dealer: int, deck: list) -> None:
        self.ruleset = ruleset
        self.match = Match.new(ruleset, first_dealer)
        self.deal = self.match.next_deal(deck)
        self.totals = self.match.totals
        self.version = 0

    # -- steps that move the deal on ---------------------------------------------------------

    def play(self, action: Action, seat: int | None) -> None:
        before = self.deal.to_json()
        after, events = self.deal.apply(action, seat=seat)
        assert self.deal.to_json() == before, "apply changed the state it was called on"
        assert after.version == self.version + 1 and after.actions[-1] == action
        assert events and events[0].kind == action.kind
        self.deal, self.version = after, after.version

    @precondition(lambda self: not self.deal.is_over)
    @rule(choice=st.integers(0, 200))
    def a_legal_action(self, choice: int) -> None:
        legal = self.deal.legal_actions()
        self.play(legal[choice % len(legal)], self.deal.to_play)

    def endings(self) -> list[Action]:
        legal = () if self.deal.is_over else self.deal.legal_actions()
        return [action for action in legal if action.kind in ("knock", "big_gin")]

    @precondition(lambda self: self.endings())
    @rule(choice=st.integers(0, 200))
    def the_seat_to_play_ends_the_deal(self, choice: int) -> None:
        endings = self.endings()
        self.play(endings[choice % len(endings)], self.deal.to_play)

    @precondition(lambda self: not self.deal.is_over)
    @rule(level=st.sampled_from(sorted(BOT_CLASSES)), seed=st.integers(0, 2**16))
    def a_bot_moves(self, level: str, seed: int) -> None:
        seat = self.deal.to_play
        totals = self.match.totals
        context = MatchContext(totals[seat], totals[1 - seat], self.ruleset.target)
        action = BOT_CLASSES[level]().choose(self.deal.view(seat), random.Random(seed), context)
        assert action in self.deal.legal_actions(), f"{level} chose an illegal {action}"
        self.play(action, seat)

    @precondition(lambda self: not self.deal.is_over)
    @rule()
    def the_clock_runs_out(self) -> None:
        action = timeout_action(self.deal)
        assert action in self.deal.legal_actions()
        assert action.kind not in ("knock", "big_gin"), "the server never knocks for anyone"
        self.play(action, self.deal.to_play)

    @precondition(lambda self: self.deal.is_over)
    @rule(deck=st.permutations(CARDS), ruleset=st.sampled_from(RULESET_CHOICES))
    def advance(self, deck: list, ruleset: Ruleset) -> None:
        """Record the finished deal and deal the next one (or open the next match)."""
        assert replay(self.ruleset, self.deal.dealer, self.deal.deck, self.deal.actions) == self.deal
        event(f"a deal ended: {self.deal.outcome}")
        self.match = self.match.record(self.deal)
        self.check_scores_only_rise()
        if self.match.is_over:
            event("a match ended")
            self.ruleset = ruleset
            self.match = Match.new(ruleset, self.match.winner)
            self.totals = (0, 0)
        self.deal = self.match.next_deal(deck)
        self.version = 0

    # -- steps that must be refused ----------------------------------------------------------

    def refuse(self, action: Action | str, seat: int | None) -> None:
        before = (self.deal.to_json(), self.deal.legal_actions(), self.deal.phase, self.deal.to_play)
        try:
            self.deal.apply(action, seat=seat)
        except IllegalMove as error:
            assert str(error), "an illegal move says why"
        else:
            raise AssertionError(f"{action!r} by seat {seat} was accepted in {self.deal!r}")
        after = (self.deal.to_json(), self.deal.legal_actions(), self.deal.phase, self.deal.to_play)
        assert after == before

    @rule(choice=st.integers(0, 200))
    def the_other_seat_acts(self, choice: int) -> None:
        if self.deal.is_over:
            self.refuse(EVERY_ACTION[choice % len(EVERY_ACTION)], choice % 2)
            return
        legal = self.deal.legal_actions()
        self.refuse(legal[choice % len(legal)], 1 - self.deal.to_play)

    @rule(action=st.sampled_from(EVERY_ACTION))
    def any_action_by_the_seat_to_play(self, action: Action) -> None:
        """legal_actions is exact: what it lists is applied, anything else is refused."""
        if not self.deal.is_over and action in self.deal.legal_actions():
            self.play(action, self.deal.to_play)
        else:
            self.refuse(action, self.deal.to_play)

    @rule(text=st.text(max_size=12) | st.sampled_from(["discard", "knock 1X", "draw_stock 7H", "pass pass"]))
    def garbage(self, text: str) -> None:
        try:
            action = Action.parse(text)
        except IllegalMove:
            self.refuse(text, self.deal.to_play)
            return
        if self.deal.is_over or action not in self.deal.legal_actions():
            self.refuse(action, self.deal.to_play)

    # -- after every step --------------------------------------------------------------------

    @invariant()
    def every_card_is_in_exactly_one_place(self) -> None:
        places = [*self.deal.hand(0), *self.deal.hand(1), *self.deal.discard_pile, *stock_of(self.deal)]
        assert len(places) == 52 and set(places) == set(CARDS)

    @invariant()
    def hand_sizes_follow_the_phase(self) -> None:
        sizes = [len(hand) for hand in self.deal.hands]
        if self.deal.phase == "discard" or self.deal.outcome == "big_gin":
            holder = self.deal.to_play if self.deal.phase == "discard" else self.deal.knocker
            assert sizes[holder] == 11 and sizes[1 - holder] == 10
        else:
            assert sizes == [10, 10]

    @invariant()
    def version_counts_the_actions(self) -> None:
        assert self.deal.version == self.version == len(self.deal.actions)

    @invariant()
    def views_hide_the_stock_and_the_other_hand(self) -> None:
        stock = set(stock_of(self.deal))
        for seat in (0, 1, None):
            view = self.deal.view(seat)
            shown = {*(view.hand or ()), *view.discard_pile, *(e.card for e in view.history if e.card)}
            assert not shown & stock - {view.drawn}
            if seat is not None and not self.deal.is_over:
                hidden = set(self.deal.hand(1 - seat)) - set(view.known_cards[1 - seat])
                assert not set(view.hand or ()) & hidden

    def check_scores_only_rise(self) -> None:
        totals = self.match.totals
        assert all(now >= before for now, before in zip(totals, self.totals, strict=True))
        assert sum(totals) - sum(self.totals) == self.match.score_sheet[-1].points
        self.totals = totals


TableMachine.TestCase.settings = settings(
    max_examples=20,
    stateful_step_count=300,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
test_table_machine = pytest.mark.slow(TableMachine.TestCase)  # 20 runs of 300 steps, some 15 s
