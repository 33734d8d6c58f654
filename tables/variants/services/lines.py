"""The inbox line of each person at a table of three or four whose game just ended, written in
the transaction that ends it (as a two-player match's "match over")."""

from __future__ import annotations

from django.urls import reverse

from tables.alerts import services as inbox_lines
from tables.alerts import texts
from tables.variants import engine
from tables.variants.engine import GameRecord
from tables.variants.models import GameSeat, GameTable


def game_over(game: GameTable, record: GameRecord) -> None:
    path = reverse("game", args=[game.invite_token])
    seats = list(GameSeat.objects.filter(game=game).select_related("player"))
    names = {seat.number: seat.player.name for seat in seats}
    totals = record.totals
    four = game.variant == GameTable.Variant.PARTNERSHIP
    for seat in seats:
        if seat.player.is_bot:
            continue
        side = engine.side_of(record, seat.number)
        won = side == record.winner
        verdict = ("won_" if won else "lost_") + ("four" if four else "three")
        result = texts.game_result(
            verdict,
            seat.player.language,
            mine=totals[side],
            theirs=totals[1 - side] if four else 0,
            winner=names.get(record.winner, "?") if record.winner is not None else "?",
        )
        inbox_lines.tell(
            seat.player, "game_over", f"game:{game.pk}", path, owner=game.owner.name, result=result
        )
