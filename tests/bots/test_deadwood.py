"""The estimate of the opponent's deadwood from its play, and LUNA's sampler tilted towards it."""

from __future__ import annotations

import random
import statistics
from dataclasses import replace

from bots import Luna, SimpleBot
from bots.deadwood import COEFFICIENTS, features, predicted_deadwood
from bots.handeval import VALUE
from bots.knowledge import Knowledge
from bots.luna_settings import LUNA_SETTINGS, LunaSettings
from bots.playout import arranged
from bots.sampling import OpponentSampler
from rules import CARDS, RULESETS, Deal, DealView
from rules.cards import cards_to_mask

from .test_luna import _early_view


def test_features_read_the_opponents_one_discard_and_the_stock() -> None:
    view = _early_view(6, plain_discard=True)
    thrown = VALUE[view.discard_pile[-1].index]
    assert features(view) == (
        1.0,
        thrown,
        thrown,
        thrown,
        1,
        0,
        thrown / 10,
        thrown * thrown / 10,
        view.stock_count / 10,
    )
    assert len(features(view)) == len(COEFFICIENTS)


def test_the_estimate_is_the_coefficients_applied_to_the_features() -> None:
    view = _early_view(6, plain_discard=True)
    for position, value in enumerate(features(view)):
        unit = [0.0] * len(COEFFICIENTS)
        unit[position] = 1.0
        assert predicted_deadwood(view, unit) == value


def _simple_positions(deals: int) -> list[tuple[DealView, int]]:
    """Views of seat 0 from its fifth turn on in deals between two `simple` players, each with
    the true deadwood of seat 1's whole hand."""
    found = []
    for number in range(deals):
        rng = random.Random(f"deadwood:{number}")
        deck = list(CARDS)
        rng.shuffle(deck)
        deal = Deal.new(RULESETS["classic"], number % 2, deck)
        bot = SimpleBot()
        while not deal.is_over:
            seat = deal.to_play
            assert seat is not None
            view = deal.view(seat)
            if seat == 0 and Knowledge.from_view(view).turns >= 5:
                found.append((view, arranged(deal.hand_mask(1))[1]))
            deal, _ = deal.apply(bot.choose(view, rng), seat)
    return found


def test_the_estimate_beats_a_constant_guess_on_a_plain_players_deals() -> None:
    found = _simple_positions(60)
    assert len(found) > 200
    mean = statistics.fmean(truth for _, truth in found)
    constant = statistics.fmean(abs(truth - mean) for _, truth in found)
    model = statistics.fmean(abs(truth - predicted_deadwood(view)) for view, truth in found)
    assert model < 0.85 * constant


def _pool(size: int) -> LunaSettings:
    """LUNA's settings with a deadwood pool of ``size`` hands (1: no lean towards the estimate)."""
    return replace(LUNA_SETTINGS, deadwood_pool=size)


def _knock_positions(deals: int) -> list[DealView]:
    """_simple_positions' views where seat 0 may knock: there LUNA leans on the estimate."""
    return [view for view, _ in _simple_positions(deals) if Knowledge.from_view(view).may_knock]


def _sampled_distance(pool: int) -> float:
    """Mean distance of LUNA's sampled opponent hands' deadwood from the estimate, late in a
    deal between two `simple` players, where LUNA may knock."""
    distances = []
    for index, view in enumerate(_knock_positions(40)[::3]):
        know = Knowledge.from_view(view)
        sampler = OpponentSampler(view, know, _pool(pool))
        rng = random.Random(index)
        expected = predicted_deadwood(view)
        for _ in range(20):
            hand = know.opponent_known | sampler.hidden(rng)
            assert hand.bit_count() == 10
            distances.append(abs(arranged(hand)[1] - expected))
    return statistics.fmean(distances)


def test_a_deadwood_pool_samples_hands_near_the_estimate() -> None:
    assert _sampled_distance(8) < _sampled_distance(1) - 2


def test_sampled_hands_hold_no_card_the_view_shows_elsewhere() -> None:
    view = _knock_positions(40)[-1]
    know = Knowledge.from_view(view)
    sampler = OpponentSampler(view, know)
    rng = random.Random(2)
    shown = cards_to_mask(view.hand) | cards_to_mask(view.discard_pile)
    for _ in range(50):
        hidden = sampler.hidden(rng)
        assert hidden & ~know.unseen == 0 and hidden & shown == 0


def test_luna_with_a_deadwood_pool_is_reproducible_and_legal() -> None:
    bot = Luna()
    for view in _knock_positions(40)[::4]:
        first = bot.choose(view, random.Random(11))
        assert first in view.legal_actions
        assert bot.choose(view, random.Random(11)) == first


def _sampled_hands(view: DealView, settings: LunaSettings, seed: int) -> list[int]:
    sampler = OpponentSampler(view, Knowledge.from_view(view), settings)
    rng = random.Random(seed)
    return [sampler.hidden(rng) for _ in range(10)]


def test_luna_leans_towards_the_estimate_only_where_it_may_knock() -> None:
    found = [view for view, _ in _simple_positions(40)]
    may_knock = [view for view in found if Knowledge.from_view(view).may_knock]
    may_not = [view for view in found if not Knowledge.from_view(view).may_knock][::25]
    assert may_knock and may_not
    for seed, view in enumerate(may_not):
        assert _sampled_hands(view, LUNA_SETTINGS, seed) == _sampled_hands(view, _pool(1), seed)
    for seed, view in enumerate(may_knock[:5]):
        assert _sampled_hands(view, LUNA_SETTINGS, seed) != _sampled_hands(view, _pool(1), seed)
