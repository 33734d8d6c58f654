"""LUNA's search: how it samples the opponent's hand and when it leaves CARMEN's choice."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from bots import MatchContext, SimpleBot
from bots.base import NO_MATCH
from bots.carmen import CARMEN_JUDGEMENT, knock_ceiling
from bots.handeval import bits, related
from bots.knowledge import Knowledge
from bots.luna import Move, Search
from bots.luna_settings import LUNA_JUDGEMENT, LUNA_SETTINGS
from bots.playout import DEAD, SimDeal, arranged
from bots.sampling import OpponentSampler, hidden_card_weights, select_kept
from rules import CARDS, RULESETS, Card, Deal, DealView
from rules.moves import DISCARD, Action

from .positions import random_positions
from .test_bots import _deal_to_discard


def _early_view(seed: int = 5, plain_discard: bool = False) -> DealView:
    """Classic, dealer seat 0: both pass the upcard, seat 1 draws and discards (its first legal
    discard, or as simple throws); seat 0 to draw."""
    deck = list(CARDS)
    random.Random(seed).shuffle(deck)
    deal = Deal.new(RULESETS["classic"], 0, deck)
    for move in ("pass", "pass", "draw_stock"):
        deal, _ = deal.apply(move)
    thrown = SimpleBot().choose(deal.view(1), random.Random(1)) if plain_discard else deal.legal_actions()[0]
    deal, _ = deal.apply(thrown)
    return deal.view(0)


def _two_melds(unseen: int) -> int:
    """Six unseen cards making a set of three and a run of three."""
    sets = [rank for rank in range(13) if all(unseen >> (suit * 13 + rank) & 1 for suit in range(3))]
    runs = [
        card
        for card in range(39, 52)
        if card % 13 <= 10 and all(unseen >> (card + step) & 1 for step in range(3))
    ]
    rank, low = sets[0], runs[0]  # the set in three suits, the run in the fourth
    mask = 0
    for card in (rank, 13 + rank, 26 + rank, low, low + 1, low + 2):
        mask |= 1 << card
    return mask


def _knockable_samples(keep: float, count: int = 400) -> int:
    """Of ``count`` sampled opponent hands, those that could knock, when the opponent is known
    to hold two melds (as if it had taken them from the pile): four hidden cards to add."""
    view = _early_view()
    know = Knowledge.from_view(view)
    assert know.opponent_discards and know.turns == 1
    know = replace(know, opponent_known=_two_melds(know.unseen) | know.opponent_known)
    sampler = OpponentSampler(view, know, replace(LUNA_SETTINGS, keep_knockable=keep))
    rng = random.Random(3)
    hands = (know.opponent_known | sampler.hidden(rng) for _ in range(count))
    return sum(1 for hand in hands if arranged(hand)[1] <= know.knock_limit)


def test_early_in_a_deal_a_sampled_hand_that_could_have_knocked_is_mostly_redrawn() -> None:
    kept_always = _knockable_samples(1.0)
    assert kept_always > 0  # such hands do come up
    assert _knockable_samples(0.0) < kept_always / 4


def _search(confidence: float) -> Search:
    view = _early_view()
    settings = replace(LUNA_SETTINGS, confidence=confidence)
    return Search(view, Knowledge.from_view(view), NO_MATCH, settings)


def test_the_search_leaves_the_first_move_only_for_a_confident_gain() -> None:
    """A move winning 9 deals of 16 where the first always ties: a gain of 1/16 of a deal
    per sample, 1.6 standard errors over 160 samples."""
    calls = [0]

    def first(sim: SimDeal) -> tuple[int, int]:
        return DEAD, 0

    def other(sim: SimDeal) -> tuple[int, int]:
        calls[0] += 1
        return (0, 0) if calls[0] % 16 < 9 else (1, 0)  # seat 0 is LUNA's seat

    assert _search(1.5).pick([first, other], 160, random.Random(1)) == 1
    calls[0] = 0
    assert _search(2.5).pick([first, other], 160, random.Random(1)) == 0


def _late_position(ruleset: str) -> tuple[DealView, Knowledge]:
    """5 deadwood after throwing KD, as if 20 discards had been made (CARMEN's knock ceiling is
    then 3 whatever the rule set)."""
    deal = _deal_to_discard(ruleset, "AS 2S 3S 4H 5H 6H 7D 8D 9D 5C", "KD")
    view = deal.view(deal.to_play or 0)
    return view, replace(Knowledge.from_view(view), turns=20)


def _late_search(match: MatchContext, slack: int = 0, **settings: Any) -> Search:
    """Classic's late position with CARMEN's judgement (ceiling 3), where an undercut is cheap:
    ``slack`` is the cheap-undercut slack."""
    view, know = _late_position("classic")
    assert knock_ceiling(know, view.ruleset.undercut_bonus, MatchContext(0, 0, 100)) == 3
    changed = replace(LUNA_SETTINGS, cheap_undercut_slack=slack, judgement=CARMEN_JUDGEMENT, **settings)
    return Search(view, know, match, changed)


def test_a_knock_slack_lets_luna_study_a_knock_above_carmens_ceiling() -> None:
    early = MatchContext(0, 0, 100)
    assert _late_search(early, 3).best_finish(random.Random(1), 64) == Action.knock("KD")
    assert _late_search(early, 0).best_finish(random.Random(1), 64).kind == DISCARD


def test_no_slack_when_an_undercut_would_lose_the_match() -> None:
    match_point = MatchContext(0, 95, 100)
    assert _late_search(match_point, 3).knock_ceiling() == 2
    assert _late_search(match_point, 3).best_finish(random.Random(1), 64).kind == DISCARD


def test_lunas_knock_ceiling_falls_as_far_as_the_undercut_bonus_makes_it_costly() -> None:
    """20 discards made, no card taken: CARMEN's ceiling has fallen 7 points (to 3) whatever the
    rule set; LUNA's falls 7 points where an undercut costs 25 and 2 where it costs 10."""
    for ruleset, luna_ceiling in (("playgridia", 3), ("classic", 8)):
        view, know = _late_position(ruleset)
        undercut = view.ruleset.undercut_bonus
        assert knock_ceiling(know, undercut, NO_MATCH) == 3
        assert knock_ceiling(know, undercut, NO_MATCH, LUNA_JUDGEMENT) == luna_ceiling
        match_point = MatchContext(0, 100 - undercut, 100)
        assert knock_ceiling(know, undercut, match_point, LUNA_JUDGEMENT) == 2  # near-gin only
        bolder = replace(LUNA_JUDGEMENT, safe_at_match_point=10)  # no match-point caution
        assert knock_ceiling(know, undercut, match_point, bolder) == luna_ceiling


def _card_mask(cards: str) -> int:
    return sum(1 << Card.parse(card).index for card in cards.split())


def test_select_kept_drops_the_highest_loose_cards_and_keeps_melds() -> None:
    hidden = _card_mask("7H 7D 7C KS QD 2C 3H")
    assert select_kept(0, hidden, 2) == _card_mask("7H 7D 7C 2C 3H")
    known = _card_mask("8S 9S")  # taken from the pile: a run with 10S, which stays
    assert select_kept(known, _card_mask("TS JD 4C"), 1) == _card_mask("TS 4C")


def _sampled_deadwood(selection: float) -> float:
    view = _early_view(6, plain_discard=True)
    know = Knowledge.from_view(view)
    sampler = OpponentSampler(view, know, replace(LUNA_SETTINGS, selection=selection, selection_cap=52))
    rng = random.Random(5)
    hands = [know.opponent_known | sampler.hidden(rng) for _ in range(200)]
    assert all(hand.bit_count() == 10 for hand in hands)
    return sum(arranged(hand)[1] for hand in hands) / len(hands)


def test_selection_samples_hands_with_less_deadwood_than_random_ones() -> None:
    assert _sampled_deadwood(3.0) < _sampled_deadwood(0.0) - 5


def _moves_studied(match: MatchContext) -> int:
    """How many moves LUNA's search compares in _late_search's position (5 deadwood, CARMEN's
    ceiling 3)."""
    search = _late_search(match)
    studied = []
    pick = search.pick

    def counting_pick(moves: Sequence[Move], samples: int, rng: random.Random) -> int:
        studied.append(len(moves))
        return pick(moves, samples, rng)

    search.pick = counting_pick  # type: ignore[method-assign]
    search.best_finish(random.Random(1), 32)
    return studied[0]


def test_near_the_end_of_a_match_luna_studies_a_knock_above_its_ceiling() -> None:
    plain = _moves_studied(MatchContext(0, 0, 100))
    for near_the_end in (MatchContext(0, 95, 100), MatchContext(90, 0, 100), MatchContext(95, 95, 100)):
        assert _moves_studied(near_the_end) == plain + 1
    assert _moves_studied(MatchContext(80, 80, 100)) == plain
    assert _moves_studied(NO_MATCH) == plain


def test_the_cheap_undercut_slack_counts_only_where_an_undercut_costs_little() -> None:
    """Classic's undercut bonus is 10: cheap by default, not when the threshold is below it."""
    assert _late_search(MatchContext(0, 0, 100), 10).knock_ceiling() == 13
    assert _late_search(MatchContext(0, 0, 100), 10, cheap_undercut=5).knock_ceiling() == 3
    at_match_point = _late_search(MatchContext(0, 95, 100), 10)
    assert at_match_point.knock_ceiling() == 2  # no slack where an undercut would lose the match


def test_by_default_luna_studies_every_legal_knock_only_where_an_undercut_is_cheap() -> None:
    """LUNA's own defaults, 20 discards made: classic (undercut 10) adds the cheap-undercut
    slack to LUNA's ceiling of 8, above the knock limit of 10; playgridia (25) keeps 3."""
    for ruleset, ceiling in (("classic", 18), ("playgridia", 3)):
        view, know = _late_position(ruleset)
        assert Search(view, know, MatchContext(0, 0, 100)).knock_ceiling() == ceiling


def test_hidden_cards_near_one_the_opponent_took_weigh_more_by_the_knob() -> None:
    for deal in random_positions(11, 600):
        seat = deal.to_play
        assert seat is not None
        know = Knowledge.from_view(deal.view(seat))
        thrown = know.opponent_discards | know.opponent_refused
        near_taken = [
            c for c in bits(know.unseen) if related(c) & know.opponent_known and not related(c) & thrown
        ]
        far = [c for c in bits(know.unseen) if not related(c) & (know.opponent_known | thrown)]
        if near_taken and far:
            break
    else:
        raise AssertionError("no position where the opponent took a card")
    assert hidden_card_weights(know)[near_taken[0]] == LUNA_SETTINGS.took_near
    assert hidden_card_weights(know, took_near=20.0)[near_taken[0]] == 20.0
    assert hidden_card_weights(know, took_near=20.0, threw_near=0.1)[far[0]] == 1.0
