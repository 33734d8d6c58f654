"""Fair-play screening: once per rated match that counted, never for an unrated one, in the
background after the match ends, reading each decision's review (computed once) and giving way
to reviews people asked for."""

from __future__ import annotations

import pytest

from tables.background import registry
from tables.fairplay import services as fairplay
from tables.fairplay import tasks
from tables.fairplay.models import FairPlaySignal, ScreenedDecision, Screening
from tables.play.models import Deal, Match, Move
from tables.reviews.models import DealReview
from tests.tables.helpers import play_match, started
from tests.tables.rating_helpers import both_have_moved, rated_game, to_last_move

pytestmark = pytest.mark.django_db


def finished_rated_match() -> tuple[str, Match]:
    token, players = rated_game()
    both_have_moved(token, players)  # else a knock on the first turn ends a match that does not count
    mover, body = to_last_move(token, players)
    mover.ok("post", f"/tables/{token}/moves", body)
    mover.ok("post", f"/tables/{token}/moves", body)  # the last move retried: its end told twice
    return token, Match.objects.get(table__invite_token=token)


def own_decisions(match: Match, seat: int) -> list[tuple[int, int]]:
    """(deal id, move number) of the moves ``seat`` made itself in the finished deals."""
    moves = Move.objects.filter(
        deal__match=match, deal__status=Deal.Status.OVER, seat=seat, source=Move.Source.PLAYER
    )
    return list(moves.order_by("deal__number", "seq").values_list("deal_id", "seq"))


@pytest.mark.slow  # a whole rated match, then its reviews
def test_a_rated_match_is_screened_once_even_when_its_end_is_told_twice(computed):
    _, match = finished_rated_match()
    assert Screening.objects.filter(match=match, status=Screening.Status.PENDING).count() == 1
    fairplay.screen_later(match)  # told once more
    assert Screening.objects.filter(match=match, status=Screening.Status.PENDING).count() == 1
    assert computed == []  # nothing computed on the move path

    assert tasks.sweep_screenings() == 1
    screening = Screening.objects.get(match=match)
    reviewed = list(
        DealReview.objects.filter(deal__match=match).values_list("deal__number", "seat", "status")
    )
    assert screening.status == Screening.Status.DONE, (screening.status, screening.attempts, reviewed)
    assert tasks.sweep_screenings() == 0
    assert fairplay.screen(screening.pk) == "nothing to do"
    deals = Deal.objects.filter(match=match, status=Deal.Status.OVER).count()
    assert screening.status == Screening.Status.DONE
    assert len(computed) == len(set(computed)) == 2 * deals  # each deal's two seats, once
    stored = ScreenedDecision.objects.filter(deal__match=match)
    assert stored.count() == stored.values("deal", "number").distinct().count()
    for player in match.table.seats:
        assert FairPlaySignal.objects.get(player=player).decisions == stored.filter(player=player).count()


def test_an_unrated_match_is_never_screened(alice, bob, computed):
    token, players = started(alice, bob)
    play_match(token, players)
    assert Match.objects.get(table__invite_token=token).status == Match.Status.OVER
    assert tasks.sweep_screenings() == 0
    assert not Screening.objects.exists() and not FairPlaySignal.objects.exists()
    assert computed == []


LOSSES = (0.0, 0.03, 0.08, 0.3)  # LUNA's best, within 5 %, an inaccuracy, a blunder


def known_reviews(match: Match, seat: int) -> list[float]:
    """A done review of ``seat`` in every finished deal, with known figures: the player's own
    decisions lose LOSSES in turn (LUNA's best where nothing is lost); one more decision, which
    the player did not make (as the server's on a timeout), loses everything. Its losses, in order."""
    losses: list[float] = []
    for deal in Deal.objects.filter(match=match, status=Deal.Status.OVER).order_by("number"):
        mine = [number for deal_id, number in own_decisions(match, seat) if deal_id == deal.pk]
        decisions = []
        for number in mine:
            loss = LOSSES[len(losses) % len(LOSSES)]
            losses.append(loss)
            decisions.append(
                {"number": number, "played": "p", "best": "p" if loss == 0 else "b", "loss": loss}
            )
        decisions.append({"number": 999, "played": "p", "best": "b", "loss": 1.0})
        DealReview.objects.update_or_create(
            deal=deal,
            seat=seat,
            defaults={"status": DealReview.Status.DONE, "result": {"decisions": decisions}},
        )
    return losses


@pytest.mark.slow  # a whole rated match
def test_the_signal_is_the_arithmetic_of_the_players_own_reviewed_decisions(computed):
    _, match = finished_rated_match()
    expected = {seat: known_reviews(match, seat) for seat in (0, 1)}
    tasks.sweep_screenings()
    assert computed == []  # every review was there already: read, not computed again
    for seat, player in enumerate(match.table.seats):
        losses = expected[seat]
        signal = FairPlaySignal.objects.get(player=player)
        assert signal.decisions == len(losses) > 0
        assert signal.best_share == pytest.approx(losses.count(0.0) / len(losses))
        assert signal.good_share == pytest.approx(sum(loss < 0.05 for loss in losses) / len(losses))
        assert signal.mean_loss == pytest.approx(sum(losses) / len(losses))
        assert signal.enough == (len(losses) >= 150)
        assert signal.recent == [
            {
                "match": match.pk,
                "deals": list(
                    match.deals.filter(status=Deal.Status.OVER)
                    .order_by("number")
                    .values_list("pk", flat=True)
                ),
            }
        ]


@pytest.mark.slow  # a whole rated match
def test_a_screening_gives_way_to_a_review_someone_asked_for_and_resumes(computed):
    _, match = finished_rated_match()
    asker = match.table.seat0  # asking, as anyone may, for a review of the match
    waiting = DealReview.objects.create(
        deal=match.deals.filter(status=Deal.Status.OVER).first(), seat=0, requested_by=asker
    )
    screening = Screening.objects.get(match=match)
    assert fairplay.screen(screening.pk) == "gave way to a review someone asked for"
    screening.refresh_from_db()
    assert screening.status == Screening.Status.PENDING and computed == []
    DealReview.objects.filter(pk=waiting.pk).update(requested_by=None)
    assert fairplay.screen(screening.pk) == "done"


def test_the_sweep_hands_screenings_to_the_reviews_workers():
    assert registry.SWEEP_SCREENINGS in registry.PERIODIC
    assert registry.SCREEN_MATCH.queue == registry.REVIEWS_QUEUE
    assert registry.SCREEN_MATCH.pool == registry.REVIEW_DEAL.pool
