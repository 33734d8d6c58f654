"""showdown(): the worked examples of RULES.md, scoring, layoffs against a brute force, errors."""

import json

import pytest
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st

from rules.cards import CARDS, Card, cards_to_mask, parse_cards
from rules.errors import IllegalMove, InvalidCard, InvalidHand, InvalidState, RulesError
from rules.melding import best_melding, points_mask
from rules.ruleset import RULESETS, Ruleset
from rules.showdown import Layoff, Showdown, best_defence_mask, showdown
from tests.rules import brute_force

PLAYGRIDIA, CLASSIC, REINO = RULESETS["playgridia"], RULESETS["classic"], RULESETS["reino"]

# A knock with K = 3 and the defender's 7♣ and 3♣ laid off (seed 004).
KNOCKER = "7S 7H 7D 4C 5C 6C JH QH KH 3D"
DEFENDER = "9S 9H 9D 2H 3H 4H 7C 3C QS 5D"
GIN = "AS 2S 3S 4S 7H 8H 9H JD JC JS"
DEFENDER_45 = "KS QH TC 9D 6C 2D 3D 4D 5D 6D"  # 2-6♦ melded, 45 left over
K10 = "AS 2S 3S 7H 8H 9H JD JC JS TD"
D2 = "4C 5C 6C 8S 8D 8C 9S 9D 9C 2D"
K5 = "AS 2S 3S 7H 8H 9H JD JC JS 5D"
D5 = "4C 5C 6C 8S 8D 8C 9S 9D 9C 5H"
BIG_GIN = "AS 2S 3S 4S 5S 7H 7D 7C JH JD JC"


def texts(cards):
    return [str(card) for card in cards]


def cards(text):
    return tuple(parse_cards(text))


def examples(count):
    return settings(max_examples=count, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# ---------------------------------------------------------------- worked examples


def test_knock_with_two_layoffs_scores_12():
    result = showdown(PLAYGRIDIA, KNOCKER, DEFENDER)
    assert (result.outcome, result.winner, result.points) == ("knock", "knocker", 12)
    assert (result.knocker_deadwood, result.defender_deadwood) == (3, 15)
    assert texts(result.knocker_deadwood_cards) == ["3D"]
    assert result.layoffs == (
        Layoff(Card.parse("7C"), cards("4C 5C 6C")),
        Layoff(Card.parse("3C"), cards("4C 5C 6C")),
    )
    assert sorted(texts(meld) for meld in result.defender_melds) == [["2H", "3H", "4H"], ["9S", "9H", "9D"]]
    assert texts(result.defender_deadwood_cards) == ["QS", "5D"]


def test_gin_against_45_scores_70():
    result = showdown(PLAYGRIDIA, GIN, DEFENDER_45)
    assert (result.outcome, result.winner, result.points, result.defender_deadwood) == (
        "gin",
        "knocker",
        70,
        45,
    )
    assert result.layoffs == () and result.knocker_deadwood_cards == ()
    assert showdown(CLASSIC, GIN, DEFENDER_45).points == 65


def test_gin_allows_no_layoffs():
    # 5♠ 6♠ would extend A-4♠, but after gin the defender lays nothing off.
    result = showdown(PLAYGRIDIA, GIN, "5S 6S KC QC TC 9C 2C 3C 4C 5C")
    assert result.layoffs == () and result.defender_deadwood == 50 and result.points == 75


@pytest.mark.parametrize(
    ("ruleset", "knocker", "defender", "points"),
    [
        (PLAYGRIDIA, K10, D2, 33),  # (10 - 2) + 25
        (CLASSIC, K10, D2, 18),  # (10 - 2) + 10
        (PLAYGRIDIA, K5, D5, 25),  # a tie is an undercut
        (CLASSIC, K5, D5, 10),
    ],
)
def test_undercut_and_tie(ruleset, knocker, defender, points):
    result = showdown(ruleset, knocker, defender)
    assert (result.outcome, result.winner, result.points) == ("undercut", "defender", points)


def test_big_gin_only_where_the_rule_set_has_it():
    result = showdown(REINO, BIG_GIN, DEFENDER_45)
    assert (result.outcome, result.winner, result.points) == ("big_gin", "knocker", 31 + 45)
    assert sum(len(meld) for meld in result.knocker_melds) == 11 and result.layoffs == ()
    for ruleset in (PLAYGRIDIA, CLASSIC):
        with pytest.raises(IllegalMove, match=f"big gin is not played in the {ruleset.name} rule set"):
            showdown(ruleset, BIG_GIN, DEFENDER_45)
    with pytest.raises(
        IllegalMove, match="big gin needs all 11 cards melded, but 6 points of deadwood remain"
    ):
        showdown(REINO, "AS 2S 3S 4S 6H 7H 7D 7C JH JD JC", DEFENDER_45)


def test_knock_over_the_limit_is_refused():
    with pytest.raises(IllegalMove, match="cannot knock with 11 points of deadwood: the knock limit is 10"):
        showdown(PLAYGRIDIA, "AS 2S 3S 7H 8H 9H AC 2D 3C 5C", "KS KH KD QS QH QD TS TH TD 9C")


def test_knock_limit_override_and_multiplier():
    with pytest.raises(IllegalMove, match="cannot knock with 3 points of deadwood: the knock limit is 2"):
        showdown(PLAYGRIDIA, KNOCKER, DEFENDER, knock_limit=2)
    with pytest.raises(IllegalMove, match="the knock limit is 0"):
        showdown(PLAYGRIDIA, KNOCKER, DEFENDER, knock_limit=0)  # Oklahoma with a zero: gin only
    assert showdown(PLAYGRIDIA, GIN, DEFENDER_45, knock_limit=0).points == 70
    assert showdown(PLAYGRIDIA, KNOCKER, DEFENDER, knock_limit=3).points == 12
    assert showdown(PLAYGRIDIA, KNOCKER, DEFENDER, multiplier=2).points == 24
    assert showdown(PLAYGRIDIA, K10, D2, multiplier=2).points == 66
    assert showdown(Ruleset(name="custom", knock_limit=5), KNOCKER, DEFENDER).points == 12


def test_a_card_fitting_a_set_and_a_run_goes_to_the_run_so_a_chain_follows():
    # 7♣ fits the sevens and the top of 4-5-6♣; on the run it lets 8♣ follow.
    result = showdown(PLAYGRIDIA, KNOCKER, "9S 9H 9D 2H 3H 4H 7C 8C QS 5D")
    assert [str(lay.card) for lay in result.layoffs] == ["7C", "8C"]
    assert all(lay.meld == cards("4C 5C 6C") for lay in result.layoffs)
    assert result.defender_deadwood == 15


def test_a_card_may_be_worth_more_laid_off_than_in_an_own_meld():
    # 8♣ leaves the defender's 8-9-T♣ for 5-6-7♣, and 9♣ joins 9♠ 9♥: only T♣ 2♦ 4♦ stay.
    knocker = "5C 6C 7C AS 2S 3S AH 2H 3H 2C"
    defender = "8C 9C TC 9S 9H KS KH KD 2D 4D"
    assert best_melding(defender).points == 24
    result = showdown(PLAYGRIDIA, knocker, defender)
    assert (
        result.defender_deadwood == brute_force.defender_deadwood(result.knocker_melds, cards(defender)) == 16
    )
    assert [str(lay.card) for lay in result.layoffs] == ["8C"]
    assert texts(result.defender_deadwood_cards) == ["2D", "4D", "TC"]  # index order: suit, rank
    assert (result.outcome, result.points) == ("knock", 14)


# ---------------------------------------------------------------- the knocker's arrangement

# 4-5-6♥ with 5♠ 5♦, or the fives with 4♥ 6♥: either leaves 10.
TWO_WAYS = "4H 5H 6H 5S 5D 7C 8C 9C TC JC"


def test_the_arrangement_shown_is_the_worst_for_the_defender():
    # Holding 2♥ 3♥ 7♥ 8♥, the defender would lay all four on 4-5-6♥: the fives are shown.
    result = showdown(PLAYGRIDIA, TWO_WAYS, "2H 3H 7H 8H KS QD JS TD 9S 8D")
    assert cards("5S 5H 5D") in result.knocker_melds and result.layoffs == ()
    assert result.defender_deadwood == 77
    # Holding 5♣, the defender would lay it on the fives: the run is shown.
    result = showdown(PLAYGRIDIA, TWO_WAYS, "5C KS QD JS TD 9S 8D 2D 3C 7D")
    assert cards("4H 5H 6H") in result.knocker_melds and result.layoffs == ()


# ---------------------------------------------------------------- against the brute force

ALL_MELDS = [meld for meld in brute_force.all_melds(CARDS) if len(meld) <= 5]


def draw_some(draw, pool, count):
    """``count`` distinct cards of ``pool`` (drawn unique lists of cards get rejected too often)."""
    return draw(st.randoms(use_true_random=False)).sample(pool, count)


def draw_low_hand(draw, taken):
    """Ten cards made of melds plus a few low loose cards, avoiding ``taken``."""
    hand: set[Card] = set()
    while len(hand) < 10:
        room = 10 - len(hand)
        fitting = [meld for meld in ALL_MELDS if len(meld) <= room and not meld & (hand | taken)]
        if (room <= 3 and draw(st.booleans())) or not fitting:
            top_rank = 3 if room >= 3 else 5  # at most 10 points of loose cards
            loose = [card for card in CARDS if card.rank <= top_rank and card not in hand | taken]
            assume(len(loose) >= room)
            hand |= set(draw_some(draw, loose, room))
        else:
            hand |= draw(st.sampled_from(fitting))
    return draw(st.permutations(sorted(hand, key=lambda card: card.index)))


def draw_near_hand(draw, knocker):
    """Ten cards, most of them next to the knocker's (same rank, or same suit within two ranks)."""
    near = [
        card
        for card in CARDS
        if card not in knocker
        and any(
            card.rank == k.rank or (card.suit == k.suit and abs(card.rank - k.rank) <= 2) for k in knocker
        )
    ]
    from_near = draw(st.integers(min(4, len(near)), min(10, len(near))))  # a clustered knocker has few
    defender = draw_some(draw, near, from_near)
    rest = [card for card in CARDS if card not in knocker and card not in defender]
    return defender + draw_some(draw, rest, 10 - from_near)


@st.composite
def knocks(draw):
    """A knocker with little deadwood, and a defender either dealt near the knocker's cards
    (many layoffs) or also built of melds (undercuts)."""
    knocker_cards = draw_low_hand(draw, frozenset())
    if draw(st.integers(0, 3)):
        defender = draw_near_hand(draw, set(knocker_cards))
    else:
        defender = draw_low_hand(draw, frozenset(knocker_cards))
    assume(brute_force.min_deadwood(knocker_cards) <= 10)
    return knocker_cards, defender


def expected_points(ruleset, knocker_deadwood, defender_deadwood):
    if knocker_deadwood == 0:
        return "gin", ruleset.gin_bonus + defender_deadwood
    if defender_deadwood > knocker_deadwood:
        return "knock", defender_deadwood - knocker_deadwood
    return "undercut", knocker_deadwood - defender_deadwood + ruleset.undercut_bonus


def check_defence(knocker_melds, defender):
    """best_defence_mask against the brute force; its masks must account for the defender's cards."""
    defender_mask = cards_to_mask(defender)
    defence = best_defence_mask([cards_to_mask(meld) for meld in knocker_melds], defender_mask)
    assert defence.deadwood == brute_force.defender_deadwood(knocker_melds, defender)
    assert not defence.own_melds & defence.laid and not (defence.own_melds | defence.laid) & ~defender_mask
    assert points_mask(defender_mask & ~defence.own_melds & ~defence.laid) == defence.deadwood
    return defence.deadwood


def replay_layoffs(result):
    """Lay the cards one by one in the order given; each must make a valid meld."""
    grown = {meld: set(meld) for meld in result.knocker_melds}
    for layoff in result.layoffs:
        assert layoff.meld in grown
        grown[layoff.meld].add(layoff.card)
        assert brute_force.is_meld(grown[layoff.meld])


@pytest.mark.slow  # 1500 brute-force showdowns, some 25 s
@examples(1500)
@given(knocks(), st.sampled_from([PLAYGRIDIA, CLASSIC]))
def test_showdown_matches_brute_force(deal, ruleset):
    knocker, defender = deal
    result = showdown(ruleset, knocker, defender)
    event(f"{result.outcome}, {min(len(result.layoffs), 3)}+ layoffs")
    arrangements = brute_force.best_arrangements(knocker)
    shown = frozenset(frozenset(meld) for meld in result.knocker_melds)
    assert shown in arrangements
    assert (
        result.knocker_deadwood
        == brute_force.min_deadwood(knocker)
        == brute_force.points(result.knocker_deadwood_cards)
    )
    if result.knocker_deadwood == 0:
        assert result.defender_deadwood == brute_force.min_deadwood(defender) and result.layoffs == ()
    else:
        # Exact for every arrangement the knocker could show, and the one shown is the worst for the defender.
        answers = {arrangement: check_defence(arrangement, defender) for arrangement in arrangements}
        assert result.defender_deadwood == answers[shown] == max(answers.values())
    assert (result.outcome, result.points) == expected_points(
        ruleset, result.knocker_deadwood, result.defender_deadwood
    )
    assert result.winner == ("defender" if result.outcome == "undercut" else "knocker")
    # Every defender card is accounted for once: own melds, layoffs, deadwood.
    own = [card for meld in result.defender_melds for card in meld]
    laid = [layoff.card for layoff in result.layoffs]
    assert sorted(own + laid + list(result.defender_deadwood_cards)) == sorted(defender)
    assert all(brute_force.is_meld(meld) for meld in result.defender_melds)
    assert brute_force.points(result.defender_deadwood_cards) == result.defender_deadwood
    replay_layoffs(result)
    assert Showdown.from_dict(json.loads(json.dumps(result.to_dict()))) == result


# ---------------------------------------------------------------- serialisation


def test_to_dict_uses_card_text_and_round_trips():
    result = showdown(PLAYGRIDIA, KNOCKER, DEFENDER)
    data = result.to_dict()
    assert data["layoffs"] == [
        {"card": "7C", "meld": ["4C", "5C", "6C"]},
        {"card": "3C", "meld": ["4C", "5C", "6C"]},
    ]
    assert data["knocker_deadwood_cards"] == ["3D"] and data["points"] == 12
    assert Showdown.from_dict(json.loads(json.dumps(data))) == result


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"outcome": "win"}, "unknown outcome or winner: 'win', 'knocker'"),
        ({"points": "12"}, "points must be an integer, not '12'"),
        ({"knocker_deadwood_cards": "3D"}, "expected a list of cards, got '3D'"),
        ({"layoffs": [{"card": "ZZ", "meld": []}]}, "not a showdown: InvalidCard"),
        ({"layoffs": [{"meld": []}]}, "not a showdown: KeyError"),
    ],
)
def test_from_dict_rejects_bad_data(change, message):
    data = {**showdown(PLAYGRIDIA, KNOCKER, DEFENDER).to_dict(), **change}
    with pytest.raises(InvalidState, match=message):
        Showdown.from_dict(data)


def test_from_dict_rejects_missing_fields_and_non_objects():
    data = showdown(PLAYGRIDIA, KNOCKER, DEFENDER).to_dict()
    del data["winner"]
    with pytest.raises(InvalidState, match="not a showdown: KeyError\\('winner'\\)"):
        Showdown.from_dict(data)
    with pytest.raises(InvalidState, match="a showdown must be an object"):
        Showdown.from_dict(["knock"])  # type: ignore[arg-type]


# ---------------------------------------------------------------- errors


@pytest.mark.parametrize(
    ("knocker", "defender", "options", "error", "message"),
    [
        (KNOCKER, DEFENDER.replace("5D", "5X"), {}, InvalidCard, "'5X' is not a card"),
        (KNOCKER, DEFENDER + " 5D", {}, InvalidHand, "5D appears twice"),
        (
            KNOCKER.replace(" 3D", ""),
            DEFENDER,
            {},
            InvalidHand,
            "the knocker must show 10 cards \\(11 for big gin\\), got 9",
        ),
        (
            KNOCKER + " 2D 4D",
            DEFENDER,
            {},
            InvalidHand,
            "a hand has at most 11 cards, got 12",
        ),
        (KNOCKER, DEFENDER.replace(" 5D", ""), {}, InvalidHand, "the defender must show 10 cards, got 9"),
        (
            KNOCKER,
            DEFENDER.replace("5D", "3D").replace("QS", "7S"),
            {},
            InvalidHand,
            "cards in both hands: 7S 3D",
        ),
        (
            KNOCKER,
            DEFENDER,
            {"knock_limit": 11},
            RulesError,
            "knock_limit must be an integer from 0 to 10, not 11",
        ),
        (KNOCKER, DEFENDER, {"multiplier": 0}, RulesError, "multiplier must be a positive integer, not 0"),
        (
            KNOCKER,
            DEFENDER,
            {"multiplier": 1.5},
            RulesError,
            "multiplier must be a positive integer, not 1.5",
        ),
    ],
)
def test_errors(knocker, defender, options, error, message):
    with pytest.raises(error, match=message):
        showdown(PLAYGRIDIA, knocker, defender, **options)
