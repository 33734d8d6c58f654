"""Decks that deal chosen hands, and short scripts of moves, for the deal and match tests."""

from __future__ import annotations

from rules import CARDS, Card, Deal, Ruleset, parse_cards


def crafted_deck(
    dealer: int, hands: dict[int, str], upcard: str | None = None, stock: str = ""
) -> list[Card]:
    """A deck that deals ``hands`` (seat -> 10 cards), then ``upcard``, then ``stock`` on top of
    the stock; every other card follows in index order."""
    first, second = parse_cards(hands[1 - dealer]), parse_cards(hands[dealer])
    assert len(first) == len(second) == 10
    deck = [card for pair in zip(first, second, strict=True) for card in pair]
    chosen = parse_cards(upcard or "") + parse_cards(stock)
    rest = [card for card in CARDS if card not in deck and card not in chosen]
    deck += [chosen.pop(0) if upcard else rest.pop(0)]
    deck += chosen + rest
    assert len(set(deck)) == 52
    return deck


def play(deal: Deal, *actions: str) -> Deal:
    for action in actions:
        deal, _ = deal.apply(action)
    return deal


def start(ruleset: Ruleset, deal: Deal) -> Deal:
    """Through the offer round, if any, by passing twice: the non-dealer to draw."""
    return play(deal, "pass", "pass") if ruleset.offer_round else deal


def knock_deal(
    ruleset: Ruleset,
    dealer: int,
    knocker: int,
    knocker_hand: str,
    defender_hand: str,
    *,
    big_gin: bool = False,
    stock: str = "",
) -> Deal:
    """A finished deal: ``knocker`` holds ``knocker_hand``, draws a card from the stock and knocks
    with it (or declares big gin). A dealer knocker waits for the non-dealer's first turn, which
    draws from the stock and throws that card back. ``stock``: cards on top of the stock."""
    deck = crafted_deck(dealer, {knocker: knocker_hand, 1 - knocker: defender_hand}, stock=stock)
    deal = start(ruleset, Deal.new(ruleset, dealer, deck))
    if knocker == dealer:
        deal = play(deal, "draw_stock", f"discard {deck[21]}")
    drawn = deck[21 + (knocker == dealer)]
    deal = play(deal, "draw_stock")
    assert drawn in deal.hand(knocker)
    return play(deal, "big_gin" if big_gin else f"knock {drawn}")


def dead_deal(ruleset: Ruleset, dealer: int) -> Deal:
    """A deal played out by drawing from the stock and throwing the drawn card back until it dies."""
    deal = start(ruleset, Deal.new(ruleset, dealer))
    while not deal.is_over:
        deal = play(deal, "draw_stock")
        drawn = deal.view(deal.to_play).drawn
        deal = play(deal, f"discard {drawn}")
    return deal
