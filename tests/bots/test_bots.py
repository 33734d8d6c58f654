"""The bots' contract: legal moves from views alone, every rule set, reproducible LUNA."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from bots import BOTS, Carmen, Luna, MatchContext, SimpleBot, Tito
from bots.base import Bot
from bots.luna_settings import LUNA_SETTINGS
from rules import CARDS, RULESETS, Deal
from rules.cards import parse_cards
from rules.melding import min_deadwood_mask
from rules.moves import DISCARD, KNOCK, Action

from .positions import random_positions

# LUNA with a tiny sampling budget: the same code paths, fast enough for thousands of views
QUICK_SETTINGS = replace(LUNA_SETTINGS, draw_samples=2, discard_samples=2)


def test_the_registry_names_three_levels_built_without_arguments() -> None:
    assert sorted(BOTS) == ["carmen", "luna", "tito"]
    for name, bot_class in BOTS.items():
        bot = bot_class()
        assert bot.name == name


@pytest.mark.parametrize(
    ("bot", "count"),
    [
        (Tito(), 3000),
        pytest.param(Carmen(), 2000, marks=pytest.mark.slow),  # some 5 s
        (SimpleBot(), 2000),
        pytest.param(Luna(QUICK_SETTINGS), 1000, marks=pytest.mark.slow),  # some 6 s
        pytest.param(Luna(), 12, marks=pytest.mark.slow),  # some 6 s
    ],
    ids=["tito", "carmen", "simple", "luna-quick", "luna"],
)
def test_every_choice_is_legal_on_random_views(bot: Bot, count: int) -> None:
    rng = random.Random(11)
    for deal in random_positions(seed=count, count=count):
        seat = deal.to_play
        assert seat is not None
        view = deal.view(seat)
        action = bot.choose(view, rng, MatchContext(rng.randrange(100), rng.randrange(100), 100))
        assert action in deal.legal_actions(), f"{bot.name} chose {action} in {deal!r}"
        if action.kind in (DISCARD, KNOCK) and view.just_taken is not None:
            assert action.card != view.just_taken
        if action.kind == KNOCK:
            assert min_deadwood_mask(deal.hand_mask(seat) & ~(1 << action.index)) <= view.knock_limit


@pytest.mark.parametrize("bot_class", [Tito, Carmen, Luna, SimpleBot])
def test_match_context_is_optional(bot_class: type[Bot]) -> None:
    deal = Deal.new(RULESETS["classic"], 0, _deck("classic"))
    action = bot_class().choose(deal.view(1), random.Random(1))
    assert action in deal.legal_actions()


@pytest.mark.slow  # 16 full LUNA decisions, some 4 s
def test_luna_is_reproducible_for_a_seed() -> None:
    positions = [deal for deal in random_positions(seed=5, count=40) if len(deal.legal_actions()) > 1]
    for deal in positions[:8]:
        seat = deal.to_play
        assert seat is not None
        view = deal.view(seat)
        first = Luna().choose(view, random.Random(42))
        again = Luna().choose(view, random.Random(42))
        assert first == again


@pytest.mark.parametrize("bot_class", [Tito, Carmen, Luna])
def test_big_gin_is_declared_in_reino(bot_class: type[Bot]) -> None:
    deal = _deal_to_discard("reino", "AS 2S 3S 4S 5H 6H 7H 8D 8C 8S", "8H")
    assert bot_class().choose(deal.view(deal.to_play or 0), random.Random(1)) == Action.big_gin()


@pytest.mark.parametrize("bot_class", [Tito, Carmen, Luna])
def test_gin_is_knocked_in_playgridia(bot_class: type[Bot]) -> None:
    deal = _deal_to_discard("playgridia", "AS 2S 3S 4S 5H 6H 7H 8D 8C 8S", "KD")
    action = bot_class().choose(deal.view(deal.to_play or 0), random.Random(1))
    assert action == Action.knock("KD")


@pytest.mark.parametrize("bot_class", [Tito, Carmen, Luna])
def test_no_loose_knock_when_an_undercut_would_lose_the_match(bot_class: type[Bot]) -> None:
    deal = _deal_to_discard("classic", "AS 2S 3S 4H 5H 6H 7D 8D 9D 9C", "KD")  # knock with 9 points
    seat = deal.to_play or 0
    early = bot_class().choose(deal.view(seat), random.Random(1), MatchContext(0, 0, 100))
    assert early == Action.knock("KD")
    match_point = bot_class().choose(deal.view(seat), random.Random(1), MatchContext(0, 95, 100))
    assert match_point.kind == DISCARD


def test_tito_takes_the_upcard_only_for_a_meld() -> None:
    for upcard, expected in (("7C", "take_upcard"), ("KD", "pass")):
        deal = _offer_deal("2S 7S 7H 9D QC 3H 4D 5C JS KH", upcard)
        seat = deal.to_play or 0
        assert Tito().choose(deal.view(seat), random.Random(1)).kind == expected


def _deck(ruleset: str, seed: int = 3) -> list[str]:
    deck = [str(card) for card in CARDS]
    random.Random(f"{ruleset}{seed}").shuffle(deck)
    return deck


def _stacked_deck(first_hand: str, upcard: str, stock_top: str = "2D") -> list[str]:
    """A deck dealt by seat 0: seat 1 gets ``first_hand``, then ``upcard``, then ``stock_top``."""
    wanted = [str(card) for card in parse_cards(first_hand)]
    placed = {*wanted, upcard, stock_top}
    rest = [str(card) for card in CARDS if str(card) not in placed]
    random.Random(7).shuffle(rest)
    hands = [wanted[position // 2] if position % 2 == 0 else rest.pop() for position in range(20)]
    return [*hands, upcard, stock_top, *rest]


def _offer_deal(first_hand: str, upcard: str) -> Deal:
    return Deal.new(RULESETS["classic"], 0, _stacked_deck(first_hand, upcard))


def _deal_to_discard(ruleset: str, first_hand: str, drawn: str) -> Deal:
    """Seat 1 holds ``first_hand`` and has just drawn ``drawn`` from the stock."""
    deal = Deal.new(RULESETS[ruleset], 0, _stacked_deck(first_hand, "JH", stock_top=drawn))
    moves = ["pass", "pass", "draw_stock"] if RULESETS[ruleset].offer_round else ["draw_stock"]
    for move in moves:
        deal, _ = deal.apply(move)
    return deal
