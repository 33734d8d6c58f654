"""The deal state machine: dealing, every step, each rule set's differences and RULES.md's examples."""

from __future__ import annotations

import copy
import json
import pickle

import pytest

from rules import (
    CARDS,
    RULESETS,
    Action,
    Card,
    DeadDeal,
    Deal,
    Event,
    IllegalMove,
    InvalidDeck,
    InvalidRuleset,
    InvalidState,
    Ruleset,
    Showdown,
    parse_cards,
    replay,
    timeout_action,
)
from tests.rules.crafting import crafted_deck, dead_deal, knock_deal, play, start

PLAYGRIDIA, CLASSIC, REINO = RULESETS["playgridia"], RULESETS["classic"], RULESETS["reino"]
TO_100 = Ruleset(name="playgridia-100", target=100)
OKLAHOMA = Ruleset(name="oklahoma", oklahoma=True)

GIN_HAND = "AS 2S 3S 4S 8H 8D 8C JD QD KD"
KNOCK_5_HAND = "AS 2S 3S 8H 8D 8C JD QD KD 5H"  # deadwood 5H


def card(text: str) -> Card:
    return Card.parse(text)


def fresh(ruleset: Ruleset = PLAYGRIDIA, dealer: int = 0) -> Deal:
    return Deal.new(ruleset, dealer, list(CARDS))


# -- dealing --------------------------------------------------------------------------------


def test_deals_ten_each_alternately_starting_with_the_non_dealer():
    deck = list(reversed(CARDS))
    deal = Deal.new(PLAYGRIDIA, 1, deck)
    assert set(deal.hand(0)) == set(deck[0:20:2])
    assert set(deal.hand(1)) == set(deck[1:20:2])
    assert deal.discard_pile == (deck[20],) == (deal.upcard,)
    assert deal.stock_count == 31
    assert deal.deck == tuple(deck)
    assert (deal.dealer, deal.to_play, deal.version, deal.result, deal.knocker) == (1, 0, 0, None, None)


@pytest.mark.parametrize(("ruleset", "phase"), [(PLAYGRIDIA, "draw"), (CLASSIC, "offer"), (REINO, "offer")])
def test_the_non_dealer_starts_in_the_offer_round_or_the_draw_step(ruleset, phase):
    deal = fresh(ruleset, dealer=0)
    assert (deal.phase, deal.to_play) == (phase, 1)


def test_accepts_card_strings_and_rule_set_names():
    deal = Deal.new("classic", 0, [str(c) for c in CARDS])
    assert deal == fresh(CLASSIC)


def test_a_fresh_shuffle_when_no_deck_is_given():
    deal = Deal.new(PLAYGRIDIA, 0)
    assert sorted(deal.deck) == sorted(CARDS)


@pytest.mark.parametrize(
    "deck",
    [CARDS[:51], [*CARDS[:51], CARDS[0]], [*CARDS, CARDS[0]], ["XX", *map(str, CARDS[1:])], [None] * 52, 7],
)
def test_a_bad_deck_is_refused(deck):
    with pytest.raises(InvalidDeck):
        Deal.new(PLAYGRIDIA, 0, deck)


@pytest.mark.parametrize("dealer", [2, -1, "0", None, True, 0.0])
def test_a_bad_dealer_is_refused(dealer):
    with pytest.raises(ValueError, match="dealer"):
        Deal.new(PLAYGRIDIA, dealer, CARDS)


def test_an_unknown_rule_set_name_is_refused():
    with pytest.raises(InvalidRuleset):
        Deal.new("gin-gin", 0, CARDS)


# -- actions --------------------------------------------------------------------------------


def test_action_string_forms_round_trip():
    every = [
        Action.take_upcard(),
        Action.pass_(),
        Action.draw_stock(),
        Action.take_discard(),
        Action.big_gin(),
    ]
    every += [Action.discard(c) for c in CARDS] + [Action.knock(c) for c in CARDS]
    for action in every:
        assert Action.parse(str(action)) is action
    assert str(Action.discard("7H")) == "discard 7H"
    assert str(Action.knock(card("3D"))) == "knock 3D"


@pytest.mark.parametrize(
    ("text", "expected"),
    [("DISCARD 10h", Action.discard("TH")), ("  knock   7♥ ", Action.knock("7H")), ("Pass", Action.pass_())],
)
def test_action_parse_is_lenient_about_case_and_spacing(text, expected):
    assert Action.parse(text) == expected


@pytest.mark.parametrize("text", ["", "jump", "discard", "discard 1X", "pass 7H", "knock 7H 8H", "draw"])
def test_action_parse_refuses_what_is_not_an_action(text):
    with pytest.raises(IllegalMove):
        Action.parse(text)


def test_actions_are_small_equal_values():
    assert Action("discard", "7H") == Action.discard(card("7H"))
    assert hash(Action("knock", card("7H"))) == hash(Action.knock("7H"))
    with pytest.raises(IllegalMove, match="needs a card"):
        Action("knock")
    with pytest.raises(IllegalMove, match="takes no card"):
        Action("draw_stock", "7H")
    with pytest.raises(AttributeError):
        Action.pass_().kind = "knock"  # type: ignore[misc]


# -- the first upcard -------------------------------------------------------------------------


def test_playgridia_has_no_offer_round_the_first_player_may_take_the_upcard():
    deal = fresh(PLAYGRIDIA, dealer=0)
    assert deal.legal_actions() == (Action.draw_stock(), Action.take_discard())
    for action in ("take_upcard", "pass"):
        with pytest.raises(IllegalMove, match="offer round"):
            deal.apply(action)
    taken, events = deal.apply("take_discard")
    assert deal.upcard in taken.hand(1)
    assert taken.discard_pile == ()
    assert (taken.phase, taken.to_play, taken.just_taken) == ("discard", 1, deal.upcard)
    assert events == (Event("take_discard", 1, deal.upcard),)


def test_classic_pass_pass_then_the_non_dealer_must_draw_from_the_stock():
    deal = fresh(CLASSIC, dealer=0)
    assert deal.legal_actions() == (Action.take_upcard(), Action.pass_())
    deal = play(deal, "pass")
    assert (deal.phase, deal.to_play) == ("offer", 0)
    deal = play(deal, "pass")
    assert (deal.phase, deal.to_play, deal.must_draw_stock) == ("draw", 1, True)
    assert deal.legal_actions() == (Action.draw_stock(),)
    with pytest.raises(IllegalMove, match="must draw from the stock"):
        deal.apply("take_discard")
    with pytest.raises(IllegalMove, match="offer round is over"):
        deal.apply("take_upcard")
    deal = play(deal, "draw_stock")
    assert (deal.phase, deal.to_play, deal.must_draw_stock) == ("discard", 1, False)


@pytest.mark.parametrize("ruleset", [CLASSIC, REINO])
def test_the_non_dealer_takes_the_upcard_discards_and_the_dealer_plays_next(ruleset):
    deal = fresh(ruleset, dealer=0)
    deal = play(deal, "take_upcard")
    assert (deal.phase, deal.to_play, deal.just_taken) == ("discard", 1, deal.upcard)
    deal = play(deal, f"discard {deal.hand(1)[0]}")
    assert (deal.phase, deal.to_play) == ("draw", 0)
    assert deal.legal_actions() == (Action.draw_stock(), Action.take_discard())


@pytest.mark.parametrize("ruleset", [CLASSIC, REINO])
def test_the_dealer_takes_the_upcard_discards_and_the_non_dealer_plays_next(ruleset):
    deal = play(fresh(ruleset, dealer=0), "pass", "take_upcard")
    assert (deal.phase, deal.to_play) == ("discard", 0)
    assert deal.upcard in deal.hand(0)
    deal = play(deal, f"discard {deal.hand(0)[0]}")
    assert (deal.phase, deal.to_play, deal.must_draw_stock) == ("draw", 1, False)


# -- the card just taken --------------------------------------------------------------------


@pytest.mark.parametrize("ruleset", [PLAYGRIDIA, CLASSIC])
def test_the_card_just_taken_cannot_be_discarded_nor_knocked_with(ruleset):
    # the non-dealer (seat 1) holds a gin hand and takes the upcard, 9C
    deck = crafted_deck(0, {1: GIN_HAND, 0: "9S 9H 9D 2H 3H 4H 7C 3C QS 5D"}, upcard="9C")
    deal = Deal.new(ruleset, 0, deck)
    deal = play(deal, "take_upcard" if ruleset.offer_round else "take_discard")
    assert Action.discard("9C") not in deal.legal_actions()
    assert Action.knock("9C") not in deal.legal_actions()
    with pytest.raises(IllegalMove, match="cannot discard the card you just took from the discard pile"):
        deal.apply("discard 9C")
    with pytest.raises(IllegalMove, match="cannot knock with the card you just took from the discard pile"):
        deal.apply("knock 9C")
    assert deal.is_legal("knock 4S")


def test_a_card_taken_on_an_earlier_turn_may_be_discarded():
    deck = crafted_deck(0, {1: GIN_HAND, 0: "9S 9H 9D 2H 3H 4H 7C 3C QS 5D"}, upcard="9C")
    deal = play(Deal.new(PLAYGRIDIA, 0, deck), "take_discard", "discard KD", "draw_stock")
    drawn = deal.view(0).drawn
    deal = play(deal, f"discard {drawn}", "draw_stock")
    assert deal.just_taken is None
    assert deal.is_legal("discard 9C")


def test_a_card_drawn_from_the_stock_may_be_discarded_at_once():
    deal = play(fresh(), "draw_stock")
    drawn = deal.view(1).drawn
    assert drawn is not None and drawn in deal.hand(1)
    assert deal.is_legal(Action.discard(drawn))
    after = play(deal, f"discard {drawn}")
    assert after.discard_pile[-1] == drawn
    assert (after.phase, after.to_play) == ("draw", 0)


# -- illegal actions ------------------------------------------------------------------------


def _knock_over_limit_deal() -> Deal:
    # seat 1 holds AS-2S-3S, 8H-8D-8C and 14 points of loose cards; 5H is on top of the stock
    deck = crafted_deck(
        0, {1: "AS 2S 3S 8H 8D 8C 4C 3H 2D 5D", 0: "9S 9H 9D KC QH 7C 3C QS TD TH"}, stock="5H"
    )
    return play(Deal.new(PLAYGRIDIA, 0, deck), "draw_stock")


@pytest.mark.parametrize(
    ("make", "action", "seat", "reason"),
    [
        (fresh, "discard 2C", None, "it is not the discard step"),
        (fresh, "knock 2C", None, "it is not the discard step"),
        (fresh, "draw_stock", 0, "not your turn"),
        (lambda: play(fresh(), "draw_stock"), "draw_stock", None, "it is not the draw step"),
        (lambda: play(fresh(), "draw_stock"), "take_discard", None, "it is not the draw step"),
        (lambda: play(fresh(), "draw_stock"), "discard 2S", None, "2S is not in your hand"),
        (lambda: fresh(CLASSIC), "draw_stock", None, "it is not the draw step: the upcard is on offer"),
        (lambda: play(fresh(), "draw_stock"), "big_gin", None, "does not play big gin"),
        (lambda: play(fresh(REINO), "pass", "pass", "draw_stock"), "big_gin", None, "big gin needs all 11"),
        (_knock_over_limit_deal, "knock 5H", None, "knocking with 5H leaves 14 deadwood, the limit is 10"),
        (_knock_over_limit_deal, "knock 2C", None, "2C is not in your hand"),
    ],
)
def test_an_illegal_action_is_refused_with_its_reason_and_changes_nothing(make, action, seat, reason):
    deal = make()
    before = deal.to_json()
    with pytest.raises(IllegalMove, match=reason):
        deal.apply(action, seat=seat)
    assert not deal.is_legal(action, seat)
    assert reason in (deal.why_illegal(action, seat) or "")
    assert deal.to_json() == before
    assert deal == Deal.from_json(before)


def test_every_action_is_refused_once_the_deal_is_over():
    deal = dead_deal(PLAYGRIDIA, 0)
    assert deal.legal_actions() == ()
    for action in ("draw_stock", "pass", "discard AS", "timeout"):
        assert not deal.is_legal(action)
    with pytest.raises(IllegalMove, match="the deal is over"):
        deal.apply("draw_stock")
    with pytest.raises(IllegalMove, match="the deal is over"):
        timeout_action(deal)


def test_a_seat_may_only_act_on_its_turn():
    deal = fresh(dealer=0)
    with pytest.raises(IllegalMove, match="not your turn"):
        deal.apply("draw_stock", seat=0)
    after, _ = deal.apply("draw_stock", seat=1)
    assert after.to_play == 1


def test_the_old_state_is_unchanged_by_apply():
    deal = fresh()
    snapshot = (deal.hands, deal.discard_pile, deal.stock_count, deal.phase, deal.to_play, deal.version)
    after, _ = deal.apply("take_discard")
    assert snapshot == (
        deal.hands,
        deal.discard_pile,
        deal.stock_count,
        deal.phase,
        deal.to_play,
        deal.version,
    )
    assert after != deal and after.version == 1 and after.actions == (Action.take_discard(),)


# -- knocking and RULES.md's worked examples ----------------------------------------------------


def test_worked_example_knock_with_two_layoffs_scores_12():
    deal = knock_deal(PLAYGRIDIA, 0, 1, "7S 7H 7D 4C 5C 6C JH QH KH 3D", "9S 9H 9D 2H 3H 4H 7C 3C QS 5D")
    result = deal.result
    assert isinstance(result, Showdown)
    assert (result.outcome, result.knocker_deadwood, result.defender_deadwood) == ("knock", 3, 15)
    assert sorted(layoff.card for layoff in result.layoffs) == parse_cards("3C 7C")
    assert (deal.knocker, deal.winner, deal.points, deal.outcome) == (1, 1, 12, "knock")
    assert (deal.score_for(1), deal.score_for(0)) == (12, 0)
    assert (deal.seat_of("knocker"), deal.seat_of("defender")) == (1, 0)
    assert (deal.phase, deal.to_play) == ("over", None)


def test_worked_example_gin_against_45_scores_70():
    deal = knock_deal(PLAYGRIDIA, 1, 0, GIN_HAND, "9S 9H 9D KC QH TS 7C 5H 2C AH")
    assert (deal.outcome, deal.winner, deal.points) == ("gin", 0, 70)
    assert deal.result is not None and deal.result.defender_deadwood == 45


def test_worked_example_undercut_10_against_2_scores_33_to_the_defender():
    deal = knock_deal(PLAYGRIDIA, 0, 0, "AS 2S 3S 8H 8D 8C JD QD KD TC", "5H 6H 7H 9S 9H 9C 3C 4C 5C 2D")
    assert (deal.outcome, deal.knocker, deal.winner, deal.points) == ("undercut", 0, 1, 33)


def test_worked_example_a_tie_is_an_undercut_worth_25():
    deal = knock_deal(PLAYGRIDIA, 0, 1, KNOCK_5_HAND, "2C 3C 4C 6S 6H 6D 9C TC JC 5S")
    assert (deal.outcome, deal.knocker, deal.winner, deal.points) == ("undercut", 1, 0, 25)


def test_classic_scores_gin_20_and_undercut_10():
    gin = knock_deal(CLASSIC, 1, 0, GIN_HAND, "9S 9H 9D KC QH TS 7C 5H 2C AH")
    assert (gin.outcome, gin.points) == ("gin", 65)
    tie = knock_deal(CLASSIC, 0, 1, KNOCK_5_HAND, "2C 3C 4C 6S 6H 6D 9C TC JC 5S")
    assert (tie.outcome, tie.winner, tie.points) == ("undercut", 0, 10)


def test_knock_events_end_with_the_result_and_the_seat_that_scores():
    deck = crafted_deck(0, {1: KNOCK_5_HAND, 0: "2C 3C 4C 6S 6H 6D 9C TC JC KS"}, stock="QH")
    deal = play(Deal.new(PLAYGRIDIA, 0, deck), "draw_stock")
    assert Action.knock("QH") in deal.legal_actions()
    assert Action.knock("5H") in deal.legal_actions()  # keeps QH: 10 deadwood
    over, events = deal.apply("knock QH")
    assert [event.kind for event in events] == ["knock", "deal_over"]
    assert events[0] == Event("knock", 1, card("QH"))
    assert events[1].seat == 1 and events[1].result == over.result
    assert over.discard_pile[-1] == card("QH")
    json.dumps([event.to_dict() for event in events])


# -- big gin --------------------------------------------------------------------------------

BIG_GIN_11 = "AS 2S 3S 4S 8H 8D 8C JD QD KD"  # + 5S drawn from the stock


def _big_gin_ready(ruleset: Ruleset) -> Deal:
    deck = crafted_deck(0, {1: BIG_GIN_11, 0: "9S 9H 9D KC QH TS 7C 5H 2C AH"}, stock="5S")
    return play(start(ruleset, Deal.new(ruleset, 0, deck)), "draw_stock")


def test_reino_plays_big_gin_31_plus_the_defenders_deadwood():
    deal = _big_gin_ready(REINO)
    assert Action.big_gin() in deal.legal_actions()
    over, events = deal.apply("big_gin")
    assert [event.kind for event in events] == ["big_gin", "deal_over"]
    assert (over.outcome, over.knocker, over.winner, over.points) == ("big_gin", 1, 1, 31 + 45)
    assert len(over.hand(1)) == 11 and over.discard_pile == (over.upcard,)


@pytest.mark.parametrize("ruleset", [PLAYGRIDIA, CLASSIC])
def test_big_gin_is_only_played_in_reino(ruleset):
    deal = _big_gin_ready(ruleset)
    assert Action.big_gin() not in deal.legal_actions()
    with pytest.raises(IllegalMove, match="does not play big gin"):
        deal.apply("big_gin")
    over = play(deal, "knock 5S")
    assert over.outcome == "gin"


def test_big_gin_is_declared_right_after_drawing():
    deal = play(start(REINO, fresh(REINO)), "draw_stock")
    deal = play(deal, f"discard {deal.view(1).drawn}")
    with pytest.raises(IllegalMove, match="right after drawing"):
        deal.apply("big_gin")


# -- dead deals -----------------------------------------------------------------------------


@pytest.mark.parametrize("ruleset", list(RULESETS.values()))
def test_a_plain_discard_leaving_two_stock_cards_kills_the_deal(ruleset):
    deal = dead_deal(ruleset, 1)
    assert deal.stock_count == 2
    assert isinstance(deal.result, DeadDeal)
    assert (deal.outcome, deal.winner, deal.points, deal.knocker, deal.phase) == (
        "dead",
        None,
        0,
        None,
        "over",
    )
    assert deal.result.hands == deal.hands


def test_a_knock_with_two_stock_cards_left_is_still_allowed():
    # the non-dealer holds a knockable hand throughout; both throw back what they draw
    deck = crafted_deck(0, {1: KNOCK_5_HAND, 0: "2C 3C 4C 6S 6H 6D 9C TC JC KS"})
    deal = Deal.new(PLAYGRIDIA, 0, deck)
    while deal.stock_count > 3:
        deal = play(deal, "draw_stock")
        deal = play(deal, f"discard {deal.view(deal.to_play).drawn}")
    deal = play(deal, "draw_stock")
    assert (deal.stock_count, deal.to_play) == (2, 1)
    drawn = deal.view(1).drawn
    dead, events = deal.apply(f"discard {drawn}")
    assert dead.outcome == "dead" and [event.kind for event in events] == ["discard", "dead_deal"]
    knocked = play(deal, f"knock {drawn}")
    assert knocked.outcome in ("knock", "undercut")


def test_a_custom_dead_stock_threshold():
    ruleset = Ruleset(name="dead-at-zero", dead_stock=0)
    assert dead_deal(ruleset, 0).stock_count == 0


# -- Oklahoma -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("upcard", "limit", "multiplier"),
    [("7H", 7, 1), ("AS", 0, 2), ("AD", 0, 1), ("KD", 10, 1), ("TS", 10, 2), ("3C", 3, 1), ("9S", 9, 2)],
)
def test_oklahoma_the_upcard_sets_the_knock_limit_and_a_spade_doubles(upcard, limit, multiplier):
    deck = crafted_deck(0, {0: "2H 3H 4H 5H 6H 7C 8C 9C JC QC", 1: "2D 3D 4D 5D 6D 7D 8D 9D JD QD"}, upcard)
    deal = Deal.new(OKLAHOMA, 0, deck)
    assert (deal.knock_limit, deal.multiplier) == (limit, multiplier)
    assert (fresh().knock_limit, fresh().multiplier) == (10, 1)


def test_oklahoma_refuses_a_knock_over_the_upcards_value():
    # 7H up: knocking with 9 points is refused, with 5 it is allowed
    deck = crafted_deck(
        0, {1: "AS 2S 3S 8H 8D 8C JD QD KD 5C", 0: "2C 3C 4C 6S 6H 6D 9C TC JC KS"}, "7H", "9H"
    )
    deal = play(Deal.new(OKLAHOMA, 0, deck), "draw_stock")
    assert deal.knock_limit == 7
    with pytest.raises(IllegalMove, match="knocking with 5C leaves 9 deadwood, the limit is 7"):
        deal.apply("knock 5C")
    assert deal.is_legal("knock 9H")


def test_oklahoma_an_ace_upcard_allows_gin_only():
    deck = crafted_deck(0, {1: GIN_HAND, 0: "9S 9H 9D KC QH TS 7C 5H 2C 3H"}, "AH", "AC")
    deal = play(Deal.new(OKLAHOMA, 0, deck), "draw_stock")
    knocks = [action for action in deal.legal_actions() if action.kind == "knock"]
    assert knocks == [Action.knock("AC")]


def test_oklahoma_a_spade_upcard_doubles_the_score():
    hands = {1: GIN_HAND, 0: "9C 9H 9D KC QH TS 7C 5H 2C AH"}
    plain = play(Deal.new(OKLAHOMA, 0, crafted_deck(0, hands, "6D", "7D")), "draw_stock", "knock 7D")
    doubled = play(Deal.new(OKLAHOMA, 0, crafted_deck(0, hands, "7S", "7D")), "draw_stock", "knock 7D")
    assert (plain.outcome, plain.points) == ("gin", 25 + 45)
    assert (doubled.outcome, doubled.points) == ("gin", 2 * (25 + 45))


# -- events and views -------------------------------------------------------------------------


def test_a_stock_draw_event_shows_its_card_to_the_drawer_only():
    deal = fresh(dealer=0)
    after, (event,) = deal.apply("draw_stock")
    drawn = deal.deck[21]
    assert event == Event("draw_stock", 1, drawn) and event.is_private
    assert event.for_seat(1) is event
    assert event.for_seat(0) == event.for_seat(None) == Event("draw_stock", 1)
    assert event.for_seat(0).to_dict() == {"kind": "draw_stock", "seat": 1, "card": None, "result": None}
    _, (discarded,) = after.apply(f"discard {drawn}")
    assert discarded.for_seat(0) is discarded and discarded.card == drawn


def test_a_view_shows_a_seat_what_it_may_know():
    deck = crafted_deck(0, {1: GIN_HAND, 0: "9S 9H 9D 2H 3H 4H 7C 3C QS 5D"}, upcard="9C")
    deal = play(Deal.new(PLAYGRIDIA, 0, deck), "take_discard", "discard KD", "draw_stock")
    mine, theirs, spectator = deal.view(0), deal.view(1), deal.view(None)
    assert mine.hand == deal.hand(0) and len(mine.hand) == 11
    assert mine.drawn == deal.deck[21] and theirs.drawn is None
    assert mine.legal_actions == deal.legal_actions() and theirs.legal_actions == ()
    assert mine.opponent_known == (card("9C"),) == spectator.known_cards[1]
    assert theirs.opponent_known == () == spectator.known_cards[0]
    assert theirs.opponent_count == 11 and mine.opponent_count == 10
    assert spectator.hand is None and spectator.legal_actions == ()
    for view in (mine, theirs, spectator):
        assert view.discard_pile == (card("KD"),) and view.stock_count == 30
        assert view.upcard == card("9C") and view.version == 3 and view.to_play == 0
        assert [event.kind for event in view.history] == ["take_discard", "discard", "draw_stock"]
        json.dumps(view.to_dict())
    assert mine.history[-1].card == deal.deck[21]
    assert theirs.history[-1].card is None and spectator.history[-1].card is None


def test_a_view_knows_the_card_just_taken_and_the_unseen_cards():
    deck = crafted_deck(0, {1: GIN_HAND, 0: "9S 9H 9D 2H 3H 4H 7C 3C QS 5D"}, upcard="9C")
    deal = play(Deal.new(PLAYGRIDIA, 0, deck), "take_discard")
    view = deal.view(1)
    assert view.just_taken == card("9C") and view.is_my_turn
    unseen = set(view.unseen_cards())
    assert len(unseen) == 52 - 11
    assert not unseen & set(view.hand or ())
    assert set(deal.hand(0)) <= unseen and set(deal.deck[21:]) <= unseen
    assert len(deal.view(None).unseen_cards()) == 51


def test_a_view_after_the_deal_reveals_both_hands_through_the_result():
    deal = knock_deal(PLAYGRIDIA, 0, 1, "7S 7H 7D 4C 5C 6C JH QH KH 3D", "9S 9H 9D 2H 3H 4H 7C 3C QS 5D")
    view = deal.view(0)
    assert view.result == deal.result and view.knocker == 1 and view.phase == "over"
    assert view.to_dict()["result"]["outcome"] == "knock"


def test_a_view_for_a_seat_that_does_not_exist_is_refused():
    with pytest.raises(ValueError, match="seat"):
        fresh().view(2)


# -- serialization and replay -----------------------------------------------------------------


def test_json_round_trip_and_replay():
    deal = play(fresh(CLASSIC), "pass", "take_upcard", "discard 2S", "draw_stock")
    text = deal.to_json()
    data = json.loads(text)
    assert data["format"] == 1 and data["dealer"] == 0 and len(data["deck"]) == 52
    assert data["actions"] == ["pass", "take_upcard", "discard 2S", "draw_stock"]
    assert Deal.from_json(text) == deal
    assert Deal.from_dict(deal.to_dict()) == deal
    assert replay(CLASSIC, 0, deal.deck, data["actions"]) == deal
    assert replay("classic", 0, [str(c) for c in deal.deck], deal.actions) == deal
    assert hash(Deal.from_json(text)) == hash(deal)


def _corrupt(**changes: object) -> str:
    data = play(fresh(), "draw_stock").to_dict()
    data.update(changes)
    return json.dumps(data)


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("{", "must be JSON"),
        ("[1, 2]", "must be a JSON object"),
        (_corrupt(format=2), "unsupported deal format 2"),
        (json.dumps({"format": 1}), "needs ruleset, dealer, deck, actions"),
        (_corrupt(ruleset={"name": "x", "knock_limit": 99}), "ruleset: knock_limit"),
        (_corrupt(ruleset="classic"), "ruleset"),
        (_corrupt(dealer=3), "dealer"),
        (_corrupt(deck=["AS"] * 52), "deck"),
        (_corrupt(deck="AS"), "deck"),
        (_corrupt(actions="draw_stock"), "actions must be a list"),
        (
            _corrupt(actions=["draw_stock", "take_discard"]),
            "action 2 \\(take_discard\\): it is not the draw step",
        ),
        (_corrupt(actions=["fly"]), "action 1 \\(fly\\)"),
    ],
)
def test_malformed_json_is_refused_naming_the_problem(text, problem):
    with pytest.raises(InvalidState, match=problem):
        Deal.from_json(text)


def test_replay_names_the_first_refused_action():
    with pytest.raises(IllegalMove, match="action 4 \\(draw_stock\\)"):
        replay(PLAYGRIDIA, 0, CARDS, ["draw_stock", "discard AS", "draw_stock", "draw_stock"])


# -- timeouts -------------------------------------------------------------------------------


def test_timeout_passes_in_the_offer_round_and_draws_from_the_stock():
    assert timeout_action(fresh(CLASSIC)) == Action.pass_()
    assert timeout_action(play(fresh(CLASSIC), "pass")) == Action.pass_()
    assert timeout_action(play(fresh(CLASSIC), "pass", "pass")) == Action.draw_stock()
    assert timeout_action(fresh(PLAYGRIDIA)) == Action.draw_stock()


def test_timeout_makes_the_best_plain_discard_never_a_knock():
    # seat 1 may knock (gin even) after drawing 9C, but the clock only discards
    deck = crafted_deck(0, {1: GIN_HAND, 0: "9S 9H 9D 2H 3H 4H 7C 3C QS 5D"}, stock="9C")
    deal = play(Deal.new(PLAYGRIDIA, 0, deck), "draw_stock")
    assert timeout_action(deal) == Action.discard("9C")


def test_timeout_never_discards_the_card_just_taken():
    # seat 1 takes the upcard KC, its worst card; the best plain discard must be another
    deck = crafted_deck(0, {1: "AS 2S 3S 8H 8D 8C JD QD 4C 2H", 0: "9S 9H 9D 2D 3H 4H 7C 3C QS 5D"}, "KC")
    deal = play(Deal.new(PLAYGRIDIA, 0, deck), "take_discard")
    action = timeout_action(deal)
    assert action.kind == "discard" and action.card in parse_cards("QD JD")


# -- identity --------------------------------------------------------------------------------


def test_deals_are_equal_iff_the_same_state():
    assert fresh() == fresh() and hash(fresh()) == hash(fresh())
    assert fresh() != fresh(dealer=1)
    assert fresh(PLAYGRIDIA) != fresh(TO_100)
    assert play(fresh(), "draw_stock") != fresh()
    assert fresh() != "deal"


def test_a_deal_cannot_be_changed_in_place():
    deal = fresh()
    with pytest.raises(AttributeError):
        deal.phase = "over"  # type: ignore[misc]
    with pytest.raises(AttributeError):
        deal.anything = 1  # type: ignore[attr-defined]


def test_seat_of_needs_a_knock():
    with pytest.raises(InvalidState):
        fresh().seat_of("knocker")
    deal = knock_deal(PLAYGRIDIA, 0, 1, KNOCK_5_HAND, "2C 3C 4C 6S 6H 6D 9C TC JC 5S")
    with pytest.raises(InvalidState):
        deal.seat_of("loser")


def test_a_deal_is_built_only_through_new_from_json_or_replay():
    with pytest.raises(TypeError, match="build a deal with"):
        Deal()  # type: ignore[call-arg]


def test_a_deal_survives_pickle_and_copy():
    deal = play(fresh(REINO), "pass", "take_upcard")
    assert pickle.loads(pickle.dumps(deal)) == deal
    assert copy.deepcopy(deal) == deal
