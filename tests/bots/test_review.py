"""The deal review: built from each player's own view only, seeded, judged in points of the
deal (the match judgement beside it), and it marks the classic blunders as blunders at 0-0 and
near the target alike."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from bots import Carmen, MatchContext
from bots.review import (
    MATCH_VERDICTS,
    REVIEW_SETTINGS,
    VERDICTS,
    decision_points,
    review_deal,
    review_decision,
)
from bots.review_verdicts import accuracy_of, disagree, match_verdict_of, verdict_of
from rules import CARDS, RULESETS, Action, Deal
from rules.cards import mask_to_cards
from rules.deal import UPCARD_POSITION, replay

from .review_positions import (
    FEEDING,
    FEEDING_CLASSIC,
    GIN_IN_HAND,
    GIN_IN_HAND_CLASSIC,
    GIN_UPCARD,
    KNOCK_EIGHT,
    UNDERCUT_KNOCK,
)

CHEAP = replace(REVIEW_SETTINGS, draw_samples=12, discard_samples=8)


def played_deal(seed: int, ruleset: str = "classic") -> Deal:
    """A deal CARMEN plays against itself to the end."""
    rng = random.Random(seed)
    deck = list(CARDS)
    rng.shuffle(deck)
    deal = Deal.new(RULESETS[ruleset], seed % 2, deck)
    while not deal.is_over:
        seat = deal.to_play
        assert seat is not None
        deal, _ = deal.apply(Carmen().choose(deal.view(seat), rng))
    return deal


def with_hidden_cards_changed(deal: Deal, seat: int, rng: random.Random) -> Deal:
    """The same moves on a deck where the opponent's never-shown cards and the stock are
    shuffled together: nothing ``seat`` has seen so far differs."""
    deck = list(deal.deck)
    opponent = 1 - seat
    public = set(deal.view(seat).known_cards[opponent])
    held = set(mask_to_cards(deal.hand_mask(opponent)))
    hidden = [pos for pos in range(UPCARD_POSITION) if deck[pos] in held and deck[pos] not in public]
    positions = hidden + list(range(len(deck) - deal.stock_count, len(deck)))
    cards = [deck[pos] for pos in positions]
    rng.shuffle(cards)
    for position, card in zip(positions, cards, strict=True):
        deck[position] = card
    return replay(deal.ruleset, deal.dealer, deck, deal.actions)


@pytest.mark.slow  # whole reviews, some 3 s
def test_a_review_never_uses_a_card_the_player_could_not_see() -> None:
    rng = random.Random(4)
    checked = changed = 0
    for seed in range(3):
        deal = played_deal(seed, ("classic", "playgridia", "reino")[seed])
        for number, before, action in decision_points(deal, (0, 1)):
            seat = before.to_play
            assert seat is not None
            other = with_hidden_cards_changed(before, seat, rng)
            assert other.view(seat) == before.view(seat)
            changed += other.hand(1 - seat) != before.hand(1 - seat) or other.deck != before.deck
            match = MatchContext(*((20, 55), (85, 90))[number % 2], before.ruleset.target)
            settings = replace(CHEAP, hindsight=False)  # hindsight reads the real cards, by design
            first = review_decision(before, seat, action, number, match, random.Random(9), settings)
            again = review_decision(other, seat, action, number, match, random.Random(9), settings)
            assert first == again
            checked += 1
    assert checked > 60 and changed == checked


@pytest.mark.parametrize("position", [GIN_UPCARD, GIN_IN_HAND_CLASSIC, FEEDING_CLASSIC, KNOCK_EIGHT])
def test_the_planted_positions_verdicts_do_not_move_with_the_unseen_cards(position: Deal) -> None:
    seat = position.to_play
    assert seat is not None
    settings = replace(CHEAP, hindsight=False)
    played = position.legal_actions()[0]
    for shuffle in range(3):
        other = with_hidden_cards_changed(position, seat, random.Random(shuffle))
        assert other.view(seat) == position.view(seat)
        for scores in ((0, 0), (80, 90)):
            match = MatchContext(*scores, position.ruleset.target)
            first = review_decision(position, seat, played, 1, match, random.Random(5), settings)
            assert first == review_decision(other, seat, played, 1, match, random.Random(5), settings)


def test_the_same_seed_gives_the_same_review_and_progress_is_reported() -> None:
    deal = played_deal(7)
    seen: list[tuple[int, int]] = []
    first = review_deal(deal, (1,), (10, 40), seed=3, settings=CHEAP, progress=lambda *at: seen.append(at))
    assert first == review_deal(deal, (1,), (10, 40), seed=3, settings=CHEAP)
    assert {decision.seat for decision in first.decisions} == {1}
    total = len(first.decisions)
    assert seen == [(done, total) for done in range(1, total + 1)]
    for decision in first.decisions:
        assert decision.played in {choice.action for choice in decision.choices}
        assert decision.loss == pytest.approx(max(0.0, decision.best_chance - decision.played_chance))
        assert decision.points_loss == pytest.approx(max(0.0, decision.best_points - decision.played_points))
        assert decision.verdict == verdict_of(decision.points_loss)
        assert decision.match_verdict == match_verdict_of(decision.loss)
        assert (decision.hindsight_verdict is None) or decision.hindsight_verdict != decision.verdict
    assert first.accuracy == accuracy_of([decision.points_loss for decision in first.decisions])
    saved = first.to_dict()
    assert saved["thresholds"] == VERDICTS and saved["match_thresholds"] == MATCH_VERDICTS
    assert saved["scale"] == "points"


def test_only_a_finished_deal_is_reviewed() -> None:
    with pytest.raises(ValueError, match="finished"):
        review_deal(FEEDING, (1,), (0, 0), seed=1)


def test_every_decision_with_a_choice_is_listed_and_forced_moves_are_not() -> None:
    deal = played_deal(5)
    listed = {number: (before, action) for number, before, action in decision_points(deal, (0, 1))}
    state = Deal.new(deal.ruleset, deal.dealer, deal.deck)
    for number, action in enumerate(deal.actions, 1):
        assert (number in listed) == (len(state.legal_actions()) > 1)
        if number in listed:
            assert listed[number] == (state, action)
        state, _ = state.apply(action)


# the verdicts of losses: none, just under the inaccuracy's threshold, at it, at the mistake's, just
# under the blunder's, at it, far above
GRADED = ["good", "good", "inaccuracy", "mistake", "mistake", "blunder", "blunder"]


def test_the_thresholds_in_points_of_the_deal() -> None:
    inaccuracy, mistake, blunder = (threshold for _, threshold in reversed(VERDICTS))
    losses = (0.0, inaccuracy - 0.01, inaccuracy, mistake, blunder - 0.01, blunder, 60.0)
    assert [verdict_of(loss) for loss in losses] == GRADED


def test_the_accuracy_falls_from_100_with_the_mean_loss_in_points() -> None:
    assert accuracy_of([]) is None
    assert accuracy_of([0.0, 0.0]) == 100.0
    assert accuracy_of([4.0, 4.0]) == accuracy_of([8.0, 0.0]) == pytest.approx(36.8)
    assert accuracy_of([1.0]) > accuracy_of([2.0]) > accuracy_of([30.0]) > 0


def test_the_match_judgement_is_shown_where_it_disagrees() -> None:
    assert disagree("good", "blunder", "knock KS", "discard KS")  # right for points, wrong for the match
    assert disagree("mistake", "good", "discard KS", "knock KS")  # costly points that do not matter
    assert not disagree("blunder", "blunder", "take_upcard", "take_upcard")
    assert not disagree("good", "good", "discard 2D", "discard 3D")


def test_the_match_thresholds_in_match_winning_chance() -> None:
    assert [match_verdict_of(loss) for loss in (0.0, 0.049, 0.05, 0.1, 0.19, 0.2, 0.6)] == GRADED


@pytest.mark.parametrize(
    ("position", "played", "better"),
    [
        (GIN_UPCARD, "pass", "take_upcard"),
        (GIN_IN_HAND, "discard 2D", "knock 2D"),
        (UNDERCUT_KNOCK, "knock AS", "knock KS"),
        (FEEDING, "discard 8C", None),
    ],
    ids=[
        "passing-an-upcard-that-gins",
        "not-knocking-with-gin",
        "knocking-into-an-undercut",
        "feeding-a-meld",
    ],
)
def test_built_in_positions_are_blunders(position: Deal, played: str, better: str | None) -> None:
    seat = position.to_play
    assert seat is not None
    match = MatchContext(0, 0, position.ruleset.target)
    for seed in range(3):  # whatever the seed
        decision = review_decision(
            position, seat, Action.parse(played), position.version + 1, match, random.Random(seed)
        )
        assert decision.verdict == "blunder", decision
        assert decision.best != played
        if better is not None:
            assert decision.best == better


@pytest.mark.parametrize(
    ("position", "played"),
    [
        (GIN_IN_HAND_CLASSIC, "discard 9C"),
        (GIN_UPCARD, "pass"),
        (FEEDING_CLASSIC, "discard 8C"),
        (KNOCK_EIGHT, "knock KS"),
    ],
    ids=[
        "breaking-a-made-gin",
        "declining-an-upcard-that-gins",
        "feeding-a-seen-meld",
        "knocking-8-into-melds",
    ],
)
@pytest.mark.parametrize("scores", [(0, 0), (80, 90), (90, 80)], ids=["0-0", "80-90", "90-80"])
def test_planted_errors_are_marked_at_the_start_of_a_match_and_near_its_target(
    position: Deal, played: str, scores: tuple[int, int]
) -> None:
    seat = position.to_play
    assert seat is not None
    match = MatchContext(*scores, position.ruleset.target)
    for seed in range(2):
        decision = review_decision(
            position, seat, Action.parse(played), position.version + 1, match, random.Random(seed)
        )
        assert decision.verdict in ("mistake", "blunder"), decision
        assert decision.points_best != played


def test_the_chart_ends_at_the_match_winning_chance_the_deal_left() -> None:
    single = played_deal(2, "playgridia")  # one deal is the whole match
    review = review_deal(single, (0,), (0, 0), seed=1, settings=CHEAP)
    assert review.start_chances == (0.5, 0.5)
    if single.winner is None:
        assert review.end_chances == (0.5, 0.5)
    else:
        assert review.end_chances == (float(single.winner == 0), float(single.winner == 1))
    to_100 = played_deal(3, "classic")
    review = review_deal(to_100, (1,), (95, 0), seed=1, settings=CHEAP)
    assert 0.5 < review.start_chances[0] < 1 and review.start_chances[1] < 0.5
    if to_100.winner == 0:
        assert review.end_chances == (1.0, 0.0)
