"""Bots never feed an exchange of discards that would keep a deal going for ever."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from bots import ARENA_BOTS, Carmen, Luna, MatchContext
from bots.arena import MAX_ACTIONS, EndlessDeal, Setup, run
from bots.base import Bot
from bots.knowledge import repeats_position
from rules import RULESETS
from rules.moves import DISCARD, DRAW_STOCK, TAKE_DISCARD, Action
from rules.view import DealView

from .positions import EXCHANGE_LOOP_PERIOD, EXCHANGE_LOOP_START, exchange_loop

AT_95_37 = MatchContext(95, 37, 100)  # LUNA's seat's score in the match the deal comes from


def test_a_position_repeats_only_once_the_same_hand_meets_the_same_card_again() -> None:
    start = EXCHANGE_LOOP_START
    assert not repeats_position(exchange_loop(start).view(0))
    for later in range(start + 2, start + EXCHANGE_LOOP_PERIOD, 2):  # the other draws of the first round
        deal = exchange_loop(later)
        assert deal.phase == "draw" and not repeats_position(deal.view(deal.to_play or 0))
    again = exchange_loop(start + EXCHANGE_LOOP_PERIOD)
    assert again.to_play == 0 and repeats_position(again.view(0))
    assert not repeats_position(again.view(1))  # not this seat's turn to draw
    taken, _ = again.apply("take_discard")
    assert not repeats_position(taken.view(0))  # the draw is made: a discard to choose, not a draw


def test_a_stock_draw_ends_the_look_back() -> None:
    deal = exchange_loop(EXCHANGE_LOOP_START - 2)  # CARMEN to draw after plain stock draws
    assert not repeats_position(deal.view(deal.to_play or 0))


@pytest.mark.parametrize("bot", [Luna(), Carmen()], ids=["luna", "carmen"])
def test_a_bot_takes_the_card_the_first_time_and_draws_from_the_stock_when_it_comes_back(bot: Bot) -> None:
    first = bot.choose(exchange_loop(EXCHANGE_LOOP_START).view(0), random.Random(1), AT_95_37)
    assert first.kind == TAKE_DISCARD  # the move that started the loop
    again = bot.choose(
        exchange_loop(EXCHANGE_LOOP_START + EXCHANGE_LOOP_PERIOD).view(0), random.Random(1), AT_95_37
    )
    assert again.kind == DRAW_STOCK


def test_luna_and_carmen_now_finish_the_deal_they_once_played_for_ever() -> None:
    deal = exchange_loop(EXCHANGE_LOOP_START)
    bots: list[Bot] = [Luna(), Carmen()]
    rng = random.Random(3)
    while not deal.is_over:
        assert deal.version < EXCHANGE_LOOP_START + 4 * EXCHANGE_LOOP_PERIOD, "the exchange goes on"
        seat = deal.to_play
        assert seat is not None
        context = AT_95_37 if seat == 0 else MatchContext(37, 95, 100)
        deal, _ = deal.apply(bots[seat].choose(deal.view(seat), rng, context), seat)
    assert deal.winner is not None  # played to a showdown that scores, well before a fourth round


class Swapper:
    """A test bot that always takes the face-up card and throws its lowest other card: two of
    them never draw from the stock, so their deals never end."""

    name = "swapper"

    def choose(self, view: DealView, rng: random.Random, match: MatchContext | None = None) -> Action:
        for action in view.legal_actions:
            if action.kind == TAKE_DISCARD:
                return action
        discards = [action for action in view.legal_actions if action.kind == DISCARD]
        return discards[0] if discards else view.legal_actions[0]


def test_the_arena_stops_an_endless_deal_and_names_the_match(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(ARENA_BOTS, "swapper", Swapper)  # type: ignore[arg-type]
    setup = Setup(("swapper", "swapper"), replace(RULESETS["classic"], target=100), seed=5)
    with pytest.raises(
        EndlessDeal,
        match=rf"match 0 of seed 5 \(swapper vs swapper\), deal 1: no end after {MAX_ACTIONS} actions",
    ):
        run(setup, 1, workers=1, progress=False)
