"""The records recounted from scratch, row by row over the finished matches: the reference the
records kept at match end (tables.records) must agree with."""

from __future__ import annotations

from django.db.models import Q

from tables.accounts.models import Player
from tables.play.models import Deal, Match, Table
from tables.ratings.selectors import Statistics


def seat_ids(match: Match) -> tuple[int | None, int | None]:
    return match.table.seat0_id, match.table.seat1_id


def finished_of(player: Player) -> list[Match]:
    seated = Q(table__seat0=player) | Q(table__seat1=player)
    return list(Match.objects.filter(seated, status=Match.Status.OVER).select_related("table"))


def statistics(player: Player) -> Statistics:
    totals = dict.fromkeys(("matches", "wins", "deals", "gins", "knocks", "undercuts"), 0)
    totals.update(knock_deadwood=0, turns=0, timeouts=0)
    for match in finished_of(player):
        seat = 0 if match.table.seat0_id == player.pk else 1
        totals["matches"] += 1
        totals["wins"] += int(match.winner == seat)
        for deal in match.deals.all():
            totals["deals"] += int(deal.status == Deal.Status.OVER)
            totals["gins"] += int(deal.outcome in ("gin", "big_gin") and deal.winner == seat)
            if deal.outcome in ("knock", "undercut") and deal.knocker == seat:
                totals["knocks"] += 1
                totals["undercuts"] += int(deal.outcome == "undercut")
                totals["knock_deadwood"] += deal.knocker_deadwood
            totals["turns"] += getattr(deal, f"turns{seat}")
            totals["timeouts"] += getattr(deal, f"timeouts{seat}")
    return Statistics(**totals)


def head_to_head(one: Player, other: Player) -> tuple[int, int, int, object]:
    """(one's wins, other's wins, matches, the last day) over their finished matches."""
    between = [match for match in finished_of(one) if other.pk in seat_ids(match)]
    won = sum(seat_ids(match)[match.winner] == one.pk for match in between if match.winner is not None)
    lost = sum(seat_ids(match)[match.winner] == other.pk for match in between if match.winner is not None)
    last = max((match.ended_at for match in between), default=None)
    return won, lost, len(between), last


def listed(player: Player, viewer: Player | None) -> list[int]:
    """The keys of the player's finished matches ``viewer`` may see, newest first."""
    shown = [
        match
        for match in finished_of(player)
        if match.table.visibility == Table.Visibility.PUBLIC
        or (viewer is not None and viewer.pk in seat_ids(match))
    ]
    return [match.pk for match in sorted(shown, key=lambda match: (match.ended_at, match.pk), reverse=True)]
