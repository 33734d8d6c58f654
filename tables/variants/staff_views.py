"""Staff: the replay of a whole game of three or four, every board's match rebuilt from its move
log and the game's record rebuilt from them (tables.variants.replays), with the verdict whether
it equals the stored record. Kept in English, like the staff replay of a deal it links to."""

from __future__ import annotations

import json
from typing import Any

from django.contrib.admin.views.decorators import staff_member_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from tables.variants import replays
from tables.variants.models import GameTable


@staff_member_required
def game_replay(request: HttpRequest, token: str) -> HttpResponse:
    game = GameTable.objects.filter(invite_token=token).first()
    if game is None:
        raise Http404("There is no such game.")
    replay = replays.replay_game(game)
    names = {seat.number: seat.player.name for seat in game.seats.select_related("player")}
    context = {
        "replay": replay,
        "boards": [_board(board, names) for board in replay.boards],
        "rebuilt": json.dumps(replay.rebuilt, indent=2),
        "stored": json.dumps(game.record, indent=2),
    }
    return render(request, "variants/staff_replay.html", context)


def _board(board: replays.BoardReplay, names: dict[int, str]) -> dict[str, Any]:
    def named(seat: int | None) -> str:
        return "—" if seat is None else names.get(seat, f"seat {seat}")

    return {
        "replay": board,
        "names": [named(seat) for seat in board.board.players],
        "dealer": named(board.board.dealer),
        "leaver": None if board.leaver is None else named(board.leaver),
        "results": [{**result, "winner_name": named(result["winner"])} for result in board.results],
    }
