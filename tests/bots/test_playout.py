"""LUNA's play-out policy: the least-deadwood knock, and the keeping discard of its own seat."""

from __future__ import annotations

from bots.playout import SimDeal, SimRules, finish_turn, keeping_discard, outs, policy_discard
from rules import RULESETS, Card, parse_cards


def _mask(cards: str) -> int:
    return sum(1 << card.index for card in parse_cards(cards))


def _index(card: str) -> int:
    return Card.parse(card).index


def test_outs_count_the_cards_that_would_meld_a_card_with_the_hand() -> None:
    hand = _mask("2S 2H 5D 6D KC QH 9S AS 3C 8H JD")
    assert outs(hand, _index("2S")) == 3  # 2C, 2D for a set; 3S for A-2-3
    assert outs(hand, _index("5D")) == 2  # 4D or 7D
    assert outs(hand, _index("KC")) == 0
    assert outs(_mask("7H 9H"), _index("7H")) == 1  # only 8H fills the gap


def test_the_keeping_discard_throws_a_lone_card_before_a_pair() -> None:
    # Nothing is melded: the least-deadwood policy throws a ten, the keeping one the lone nine,
    # whose value no card can save, before the queens that two cards would meld
    hand = _mask("QS QH 9C 2D 4S 6H AD 3H 5C 7S 7D")
    assert policy_discard(hand, -1)[0] in (_index("QS"), _index("QH"))
    assert keeping_discard(hand, -1) == _index("9C")
    assert keeping_discard(hand, _index("9C")) != _index("9C")  # the card just taken stays


def _sim(keeper: int) -> SimDeal:
    rules = SimRules.of(RULESETS["classic"], knock_limit=10)
    hands = [_mask("QS QH 9C 2D 4S 6H AD 3H 5C 7S 7D"), _mask("8H 8S 8D TH TS TD JC QC KC KH 9D")]
    stock = [_index(card) for card in ("2C", "2H", "4H", "6D", "AS")]
    return SimDeal(rules, hands, stock, pile=[], keeper=keeper)


def test_only_the_keeper_seat_plays_the_keeping_discard() -> None:
    kept, plain = _sim(keeper=0), _sim(keeper=-1)
    assert finish_turn(kept, 0, -1) is None and finish_turn(plain, 0, -1) is None
    assert kept.pile == [_index("9C")]
    assert plain.pile[0] in (_index("QS"), _index("QH"))


def test_a_hand_that_can_knock_knocks_whatever_the_keeper() -> None:
    sim = _sim(keeper=1)  # seat 1: three melds, KH and 9D; it throws KH and knocks with 9
    assert finish_turn(sim, 1, -1) == (1, 64 - 9)  # seat 0: no meld, nothing to lay off
    assert sim.pile == []
