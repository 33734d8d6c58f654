"""Setting and watching turn clocks in the live tests."""

from __future__ import annotations

import datetime as dt

from django.utils import timezone

from tables.play.models import Deal, Move, Table
from tests.polling import wait_until


def turn_due_in(token: str, seconds: float) -> tuple[Table, Deal, dt.datetime]:
    table = Table.objects.get(invite_token=token)
    deadline = timezone.now() + dt.timedelta(seconds=seconds)
    Deal.objects.filter(pk=table.current_deal_id).update(deadline=deadline)
    return table, Deal.objects.get(pk=table.current_deal_id), deadline


def wait_for_version(table: Table, version: int, seconds: float = 15) -> None:
    wait_until(
        lambda: Table.objects.get(pk=table.pk).version >= version,
        timeout=seconds,
        message=f"table {table.pk} reaches version {version}",
    )


def timeout_moves(deal: Deal) -> list[Move]:
    return list(Move.objects.filter(deal=deal, source=Move.Source.TIMEOUT).order_by("seq"))
