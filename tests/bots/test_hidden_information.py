"""The bots never read hidden information: they get a view that holds nothing hidden,
and their decisions do not change when the hidden cards do."""

from __future__ import annotations

import dataclasses
import gc
import json
import random
from collections.abc import Iterator

import pytest

from bots import Carmen, Luna, MatchContext, Tito
from bots.base import Bot
from rules import Deal, DealView
from rules.cards import mask_to_cards
from rules.deal import UPCARD_POSITION, replay

from .positions import random_positions
from .test_bots import QUICK_SETTINGS


def _reachable(view: DealView) -> Iterator[object]:
    """Every value inside the view: containers and the engine's own value objects."""
    seen: set[int] = set()
    stack: list[object] = [view]
    while stack:
        item = stack.pop()
        if id(item) in seen:
            continue
        seen.add(id(item))
        yield item
        if isinstance(item, (tuple, list, dict, frozenset, set)) or (
            type(item).__module__.startswith("rules") and not isinstance(item, type)
        ):
            stack.extend(gc.get_referents(item))


def test_a_view_holds_no_reference_to_the_deal_or_its_stock() -> None:
    for deal in random_positions(seed=3, count=200):
        seat = deal.to_play
        assert seat is not None
        view = deal.view(seat)
        assert not any(isinstance(item, Deal) for item in _reachable(view))
        names = {field.name for field in dataclasses.fields(view)}
        assert not names & {"deck", "stock", "hands"}
        hidden = {str(card) for card in deal.hand(1 - seat)} - {str(card) for card in view.opponent_known}
        assert not hidden & set(json.dumps(view.to_dict()).replace('"', " ").split())


def _with_hidden_cards_swapped(deal: Deal, seat: int, rng: random.Random) -> Deal:
    """The same deal and moves, but the opponent's never-shown starting cards traded for
    cards still in the stock: nothing ``seat`` can see differs."""
    deck = list(deal.deck)
    opponent = 1 - seat
    public = set(deal.view(seat).known_cards[opponent])
    held = set(mask_to_cards(deal.hand_mask(opponent)))
    hidden = [pos for pos in range(UPCARD_POSITION) if deck[pos] in held and deck[pos] not in public]
    stock = list(range(len(deck) - deal.stock_count, len(deck)))
    for position, other in zip(hidden, rng.sample(stock, min(len(hidden), len(stock))), strict=False):
        deck[position], deck[other] = deck[other], deck[position]
    return replay(deal.ruleset, deal.dealer, deck, deal.actions)


@pytest.mark.parametrize(
    ("bot", "count"),
    [
        (Tito(), 300),
        (Carmen(), 300),
        (Luna(QUICK_SETTINGS), 120),
        pytest.param(Luna(), 6, marks=pytest.mark.slow),  # some 2 s
    ],
    ids=["tito", "carmen", "luna-quick", "luna"],
)
def test_decisions_do_not_depend_on_the_opponents_hidden_cards(bot: Bot, count: int) -> None:
    rng = random.Random(8)
    changed = 0
    for deal in random_positions(seed=21, count=count):
        seat = deal.to_play
        assert seat is not None
        other = _with_hidden_cards_swapped(deal, seat, rng)
        changed += other.hand(1 - seat) != deal.hand(1 - seat)
        assert other.view(seat) == deal.view(seat)
        context = MatchContext(30, 40, 100)
        assert bot.choose(other.view(seat), random.Random(5), context) == bot.choose(
            deal.view(seat), random.Random(5), context
        )
    assert changed > count // 2  # the swap really changed the opponent's hand
