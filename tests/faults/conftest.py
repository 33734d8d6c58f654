"""Fixtures of the fault suite. After every test, over every deal the test stored: the move log
is numbered 1..n without a gap, the deal's engine version is n (one per applied action), table
versions never go back, and replaying the log through the engine gives the stored state."""

from __future__ import annotations

import pytest

from tables.play.models import Deal, Move
from tests.tables.conftest import _clean_cache, _fast_passwords, alice, bob  # noqa: F401  (fixtures)
from tests.tables.helpers import assert_deals_replay


def assert_versions_rise_by_one(deals: list[Deal]) -> None:
    for deal in deals:
        moves = list(Move.objects.filter(deal=deal).order_by("seq").values_list("seq", "table_version"))
        assert [seq for seq, _ in moves] == list(range(1, len(moves) + 1)), (
            f"deal {deal.pk}: a gap in the log"
        )
        assert deal.version == len(moves), f"deal {deal.pk}: version {deal.version}, {len(moves)} moves"
        table_versions = [version for _, version in moves]
        assert table_versions == sorted(table_versions), f"deal {deal.pk}: table versions went back"


@pytest.fixture(autouse=True)
def _every_deal_is_whole(request):
    yield
    if "django_db" in request.keywords or "db" in request.fixturenames:
        try:
            deals = list(Deal.objects.all())
        except Exception:  # the test's database is already gone
            return
        assert_versions_rise_by_one(deals)
        assert_deals_replay(deals)
