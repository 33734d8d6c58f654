"""What a caller may see of a table, as JSON-able dicts. The deal part is always the engine's
``view(seat)`` (``view(None)`` for a spectator): the deck, the stock and the other hand never
pass through here. Pages and the API both render these."""

from __future__ import annotations

import functools
from typing import Any

from django.urls import reverse
from django.utils import timezone

import rules
from rules import moves
from tables.accounts.models import Player
from tables.accounts.payloads import vacation_until
from tables.play import engine
from tables.play.models import ChatMessage, Deal, Match, Move, Table


def player_summary(player: Player | None) -> dict[str, Any] | None:
    if player is None:
        return None
    return {
        "name": player.name,
        "is_bot": player.is_bot,
        "bot_level": player.bot_level or None,
        "is_guest": player.is_guest,
        "is_bot_account": player.is_bot_account,
        "vacation_until": vacation_until(player),
        "player_url": player_url(player),
    }


def player_url(player: Player | None) -> str | None:
    """An account's page; guests and robots have none."""
    if player is None or player.user_id is None or player.is_bot:
        return None
    return _player_path(player.pk)


@functools.lru_cache(maxsize=20_000)
def _player_path(player_id: int) -> str:
    """Django's reverse() costs some 50 µs (the URL resolver through asgiref's locals), and every
    seated state names both seats' pages: remembered per id, it costs nothing on a move."""
    return reverse("player", args=[player_id])


def table_status(table: Table) -> str:
    """waiting (a seat is free), ready (both seated), playing, between_deals, or match_over."""
    deal = table.current_deal
    if deal is None:
        return "ready" if None not in table.seats else "waiting"
    if deal.match.status == Match.Status.OVER:
        return "match_over"
    return "playing" if deal.status == Deal.Status.PLAYING else "between_deals"


def seconds_left(deal: Deal | None) -> int | None:
    if deal is None or deal.deadline is None:
        return None
    return max(0, int((deal.deadline - timezone.now()).total_seconds()))


def table_options(table: Table) -> dict[str, Any]:
    return {
        "ruleset": table.ruleset,
        "turn_seconds": table.turn_seconds,
        "visibility": table.visibility,
        "spectator_chat": table.spectator_chat,
        "forfeit_after": table.forfeit_after,
        "move_log": table.move_log,
        "time_bank": None if (terms := table.bank_terms) is None else terms.to_dict(),
        "rated": table.rated,
    }


def table_state(table: Table, viewer: Player | None) -> dict[str, Any]:
    """Everything the viewer may know about the table, at ``table.version``."""
    seat = table.seat_of(viewer)
    deal = table.current_deal
    return {
        "table": table.invite_token,
        "version": table.version,
        "status": table_status(table),
        "you": {"seat": seat, "is_owner": viewer is not None and viewer.pk == table.owner_id},
        "owner": owner_name(table),
        "options": table_options(table),
        "seats": [player_summary(player) for player in table.seats],
        "match": None if deal is None else match_state(deal.match),
        "deal": None if deal is None else deal_state(deal, seat, table.move_log),
        "rematch": {
            "offered_by": table.rematch_offered_by,
            "declined_by": table.rematch_declined_by,
            "expires_at": expires.isoformat() if (expires := table.rematch_expires_at) else None,
        },
    }


def seated_states(table: Table) -> dict[str, dict[str, Any]]:
    """Each seated person's own state, keyed by player id (a string: it crosses the channel
    layer). Only that player's sockets send it (tables.live.consumers)."""
    return {
        str(player.pk): table_state(table, player) for player in table.seats if player and not player.is_bot
    }


def owner_name(table: Table) -> str | None:
    """The owner's name, from the seat rows when the owner sits (no extra query)."""
    seated = next(
        (player for player in table.seats if player is not None and player.pk == table.owner_id), None
    )
    if seated is not None:
        return seated.name
    return table.owner.name if table.owner_id else None


def match_state(match: Match) -> dict[str, Any]:
    record = engine.load_match(match)
    return {
        "id": match.pk,
        "number": match.number,
        "status": match.status,
        "outcome": match.outcome or None,
        "winner": match.winner,
        "totals": list(record.totals),
        "dealer_next": None if record.is_over else record.dealer,
        "score_sheet": [row.to_dict() for row in record.score_sheet],
        "final_scores": match.final_scores,
        "timeouts_in_row": match.timeouts_in_row,
        "banks": match.banks or None,
        "games": hollywood_games(record),
    }


def hollywood_games(record: rules.Match) -> list[dict[str, Any]] | None:
    """Hollywood scoring's three games from the engine's match record, each closed one scored."""
    if not record.games:
        return None
    return [
        {**game.to_dict(), "final_scores": None if scores is None else [score.to_dict() for score in scores]}
        for game, scores in zip(record.games, record.game_scores, strict=True)
    ]


def deal_state(deal: Deal, seat: int | None, move_log: bool = True) -> dict[str, Any]:
    """The deal as ``seat`` may see it. Without the table's move log, neither the log nor the
    view's full history is sent: only the moves since the reader's own last one (what the
    page's fading last-move line names), ``history_from`` telling where they start."""
    view = engine.load_deal(deal).view(seat)
    shown = view.to_dict()
    history_from = 0 if move_log else _latest_turn_start(view)
    shown["history"] = shown["history"][history_from:]
    return {
        "number": deal.number,
        "status": deal.status,
        "deadline": deal.deadline.isoformat() if deal.deadline else None,
        "seconds_left": seconds_left(deal),
        "paused_left": deal.paused_left,
        "more_time_given": deal.more_time_given,
        "view": shown,
        "coach": coach(view),
        "dead_hands": dead_hands(view),
        "log": log_rows(view) if move_log else None,
        "history_from": history_from,
    }


_LOGGED_KINDS = frozenset(rules.ACTION_KINDS)  # the moves; not the deal's end (rules.moves.EVENT_KINDS)


def log_rows(view: rules.DealView) -> list[dict[str, Any]]:
    """The deal's move log, from the view's history alone: a stock draw names its card to the
    drawer only (the engine's view hides it from everyone else); a face-down knock (the rule
    set's ``knock_face_down``) names no card."""
    face_down = view.ruleset.knock_face_down
    rows = []
    for event in view.history:
        if event.kind not in _LOGGED_KINDS:
            continue
        knocked_face_down = face_down and event.kind == moves.KNOCK
        hidden = event.card is None or knocked_face_down
        rows.append(
            {
                "seat": event.seat,
                "kind": event.kind,
                "card": None if hidden else str(event.card),
                "face_down": knocked_face_down,
            }
        )
    return rows


def latest_moves(moves: list[Move], seat: int | None) -> list[Move]:
    """The log rows since ``seat``'s own last move (a spectator reads as the seat that did not
    move last): what a table without its move log still tells (see deal_state)."""
    if not moves:
        return moves
    reader = seat if seat is not None else 1 - moves[-1].seat
    own = [index for index, move in enumerate(moves) if move.seat == reader]
    return moves[own[-1] + 1 :] if own else moves


def _latest_turn_start(view: rules.DealView) -> int:
    """Where the moves since the reader's own last one begin (a spectator reads as the seat
    that did not move last)."""
    moves = [(index, event.seat) for index, event in enumerate(view.history) if event.kind in _LOGGED_KINDS]
    if not moves:
        return 0
    reader = view.seat if view.seat is not None else 1 - (moves[-1][1] or 0)
    own = [index for index, seat in moves if seat == reader]
    return own[-1] + 1 if own else 0


def dead_hands(view: rules.DealView) -> list[dict[str, Any]] | None:
    """A dead deal shows both hands: each one grouped into its best melds for the summary box."""
    if not isinstance(view.result, rules.DeadDeal):
        return None
    return [_grouping(rules.best_melding(hand)) for hand in view.result.hands]


def _grouping(melding: rules.Melding) -> dict[str, Any]:
    return {
        "melds": [[str(card) for card in meld] for meld in melding.melds],
        "deadwood_cards": [str(card) for card in melding.deadwood],
        "deadwood": melding.points,
        "values": {str(card): card.points for card in melding.deadwood},
    }


def coach(view: rules.DealView) -> dict[str, Any] | None:
    """The counting the table page shows its seat, all from the engine (the browser decides no rule):
    the best grouping of the hand, its deadwood and, holding 11 cards, the deadwood each discard leaves."""
    if view.hand is None or view.phase == "over":
        return None
    advice: dict[str, Any] = {
        **_grouping(rules.best_melding(view.hand)),
        "best_discard": None,
        "discards": {},
    }
    if len(view.hand) == 11:
        best = rules.best_discard(view.hand, exclude=view.just_taken)
        advice["best_discard"] = {"card": str(best.card), "deadwood": best.points}
        left = rules.deadwood_after_each_discard(view.hand, exclude=view.just_taken)
        advice["discards"] = {str(card): points for card, points in left.items()}
    return advice


def move_summary(move: Move, viewer_seat: int | None) -> dict[str, Any]:
    """A log row as ``viewer_seat`` may see it: a stock draw's card only to its drawer."""
    private = move.action == moves.DRAW_STOCK and viewer_seat != move.seat
    return {
        "seq": move.seq,
        "seat": move.seat,
        "action": move.action,
        "card": None if private or not move.card else move.card,
        "table_version": move.table_version,
        "source": move.source,
        "created_at": move.created_at.isoformat(),
    }


def chat_message(message: ChatMessage) -> dict[str, Any]:
    return {
        "id": message.id,
        "channel": message.channel,
        "author": message.author.name,
        "author_url": player_url(message.author),
        "text": message.text,
        "created_at": message.created_at.isoformat(),
    }


def my_table_row(table: Table, player: Player) -> dict[str, Any]:
    """One line of "my tables": whose move it is and how long the clock has left."""
    seat = table.seat_of(player)
    deal = table.current_deal
    status = table_status(table)
    opponent = table.seats[1 - seat] if seat is not None else None
    return {
        "table": table.invite_token,
        "ruleset": table.ruleset_name,
        "target": table.ruleset.get("target"),
        "hollywood": bool(table.ruleset.get("hollywood")),
        "status": status,
        "seat": seat,
        "opponent": player_summary(opponent),
        "your_move": _awaits(table, deal, seat, status),
        "deadline": deal.deadline.isoformat() if deal is not None and deal.deadline else None,
        "seconds_left": seconds_left(deal) if status in ("playing", "between_deals") else None,
        "totals": list(engine.load_match(deal.match).totals) if deal is not None else None,
        "version": table.version,
    }


def _awaits(table: Table, deal: Deal | None, seat: int | None, status: str) -> bool:
    """Is something up to this seat: its turn, dealing on, a rematch offer, starting the match?"""
    if seat is None:
        return False
    if status == "playing":
        return deal is not None and deal.to_play == seat
    if status == "between_deals":
        return True
    if status == "match_over":
        return table.rematch_offered_by == 1 - seat
    return status == "ready" and table.seat_player_id(seat) == table.owner_id


def deal_export(deal: Deal) -> dict[str, Any]:
    """The deal as rules.replay reads it (ruleset, dealer, deck, actions): staff or after the deal."""
    return {**deal.snapshot, "number": deal.number, "outcome": deal.outcome or None}


def match_export(match: Match) -> dict[str, Any]:
    deals = match.deals.order_by("number")
    return {"match": match.record, "number": match.number, "deals": [deal_export(deal) for deal in deals]}


def lobby_row(table: Table) -> dict[str, Any]:
    return {
        "table": table.invite_token,
        "ruleset": table.ruleset_name,
        "target": table.ruleset.get("target"),
        "hollywood": bool(table.ruleset.get("hollywood")),
        "owner": table.owner.name,
        "owner_is_bot_account": table.owner.is_bot_account,
        "owner_url": player_url(table.owner),
        "rated": table.rated,
        "turn_seconds": table.turn_seconds,
        "created_at": table.created_at.isoformat(),
    }
