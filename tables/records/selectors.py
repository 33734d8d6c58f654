"""Reads of the records: a player's totals and two players' record against each other, each one
row found by its key, however many matches they played."""

from __future__ import annotations

from django.db.models import Q, QuerySet

from tables.accounts.models import Player
from tables.records.models import PairRecord, PlayerMatch, PlayerRecord


def record_of(player: Player) -> PlayerRecord:
    """The player's totals (read with the player when it was loaded with select_related("record"))."""
    try:
        return player.record
    except PlayerRecord.DoesNotExist:
        return PlayerRecord(player=player)  # every count 0: no finished match yet


def pair_record(one: Player, other: Player) -> PairRecord | None:
    """The two players' record against each other (None: no finished match between them)."""
    low, high = sorted((one.pk, other.pk))
    return PairRecord.objects.filter(low_id=low, high_id=high).first()


def wins_of(record: PairRecord, player: Player) -> tuple[int, int]:
    """(won, lost) from ``player``'s side of the record."""
    if player.pk == record.low_id:
        return record.low_wins, record.high_wins
    return record.high_wins, record.low_wins


def finished_match_keys(player: Player, viewer: Player | None, staff: bool) -> QuerySet[PlayerMatch, int]:
    """The keys of the player's finished matches that ``viewer`` may see, newest first: the
    archive's rule (tables_shown_to) on the player's list, whose index holds the public flag and
    the opponent, so a page is a range of one index however many matches the site holds."""
    rows = PlayerMatch.objects.filter(player=player)
    if not staff and (viewer is None or viewer.pk != player.pk):
        rows = (
            rows.filter(Q(public=True) | Q(opponent=viewer))
            if viewer is not None
            else rows.filter(public=True)
        )
    return rows.order_by("-ended_at", "-match_id").values_list("match_id", flat=True)
