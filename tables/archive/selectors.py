"""The players' archive: who may look at a match, and the rows behind the archive pages.

A match is archived once it is over. Its two players (the table's seats: they cannot change
once a match has started) may look at it, anyone may when the table is public, every player of
a game of three or four once it is over may look at its boards' matches, and staff may
look at any match, a running one included. A running match stays out of everyone else's sight,
so that no finished deal of it shows the stock order or the other hand while the players still
play on. Within an archived match only the deals that were played out are replayable: a deal cut
short by a resignation or a forfeit keeps its hands hidden, as the table promised. Reads only.
"""

from __future__ import annotations

from django.db.models import Q, QuerySet

from tables.accounts.models import Player
from tables.core.errors import NotFound
from tables.play.models import Deal, Match, Table
from tables.variants.models import Board, GameSeat, GameTable

# What a deal list needs: never the deck or the engine's snapshot.
_DEAL_FIELDS = ("pk", "match_id", "number", "dealer", "status", "outcome", "winner", "points", "ended_at")


def may_view(match: Match, viewer: Player | None, staff: bool) -> bool:
    """May ``viewer`` (None: an anonymous visitor) see ``match`` in the archive?"""
    if staff:
        return True
    if match.status != Match.Status.OVER:
        return False
    return may_view_matches_at(match.table, viewer, staff) or plays_finished_game_of(match, viewer)


def may_view_matches_at(table: Table, viewer: Player | None, staff: bool) -> bool:
    """May ``viewer`` see the table's finished matches (may_view, for any match of the table)?
    The same rule as a query's filter is ``tables_shown_to``: the two change together."""
    return staff or table.visibility == Table.Visibility.PUBLIC or table.seat_of(viewer) is not None


def plays_finished_game_of(match: Match, viewer: Player | None) -> bool:
    """Is ``match`` a deal of a game of three or four that is over, and ``viewer`` one of its
    players? Once the game is over every deal of it may be seen by all its players (a partner's
    deal too); not before, so that no deal of a game in play is shown to those not at its board.
    A board's match is in no list, so this rule is the archive page's alone."""
    board = board_of(match)
    if viewer is None or board is None or board.game.status != GameTable.Status.OVER:
        return False
    return GameSeat.objects.filter(game_id=board.game_id, player=viewer).exists()


def tables_shown_to(viewer: Player | None, staff: bool, to_table: str = "") -> Q:
    """may_view_matches_at as a filter: the rows whose table (reached by ``to_table``, such as
    "table__" from a match) shows its finished matches to ``viewer``. Every list of matches
    (a player's page, its count) filters with it, so an invite-only table's matches are named
    to its two players and staff only, as the archive's 404 promises."""
    if staff:
        return Q()
    shown = Q(**{f"{to_table}visibility": Table.Visibility.PUBLIC})
    if viewer is not None:
        shown |= Q(**{f"{to_table}seat0": viewer}) | Q(**{f"{to_table}seat1": viewer})
    return shown


def viewable_match(match_id: int, viewer: Player | None, staff: bool) -> Match:
    """The match with its table and players; NotFound (never "forbidden") when the viewer may
    not see it, so that a private table's matches are not even revealed to exist."""
    rows = Match.objects.select_related("table__seat0", "table__seat1", "table__game_board__game")
    match = rows.filter(pk=match_id).first()
    if match is None or not may_view(match, viewer, staff):
        raise NotFound("There is no such match.")
    return match


def board_of(match: Match) -> Board | None:
    """The board of a game of three or four the match was played at, if any (read with the
    match by viewable_match: no query)."""
    try:
        return match.table.game_board
    except Board.DoesNotExist:
        return None


def deals_of(match: Match) -> list[Deal]:
    return list(Deal.objects.filter(match=match).only(*_DEAL_FIELDS).order_by("number"))


def is_replayable(deal: Deal, staff: bool) -> bool:
    """Staff replay any deal; others a deal played to its end (of a match they may see)."""
    return staff or deal.status == Deal.Status.OVER


def replayable_deal(match: Match, number: int, staff: bool) -> Deal:
    deal = Deal.objects.filter(match=match, number=number).first()
    if deal is None or not is_replayable(deal, staff):
        raise NotFound("There is no such deal.")
    deal.match = match  # already read, with its table and players
    return deal


def actions_of(deal: Deal) -> list[str]:
    """The deal's move log, in order, as the engine reads it."""
    return list(deal.moves.order_by("seq").values_list("action", flat=True))


def finished_matches_of(player: Player) -> QuerySet[Match]:
    """The player's finished matches, the latest first (for /me/archive/, paged). A board's
    match is a deal of a game of three or four: it is listed under its game instead."""
    rows = Match.objects.filter(
        Q(table__seat0=player) | Q(table__seat1=player),
        status=Match.Status.OVER,
        table__game_board__isnull=True,
    )
    return rows.select_related("table__seat0", "table__seat1").order_by("-ended_at", "-pk")


def finished_matches_at(table: Table, viewer: Player | None, staff: bool, limit: int = 10) -> list[Match]:
    """The table's latest finished matches, if the viewer may see them (else none)."""
    if not may_view_matches_at(table, viewer, staff):
        return []
    rows = Match.objects.filter(table=table, status=Match.Status.OVER).order_by("-number")
    return list(
        rows.only("pk", "number", "table_id", "outcome", "winner", "final_scores", "ended_at")[:limit]
    )


def finished_games_of(player: Player) -> QuerySet[GameTable]:
    """The games of three and four the player sat at that are over, the latest first, with
    their seats' players (for /me/archive/, paged)."""
    rows = GameTable.objects.filter(seats__player=player, status=GameTable.Status.OVER)
    return rows.prefetch_related("seats__player").order_by("-ended_at", "-pk")


def board_matches(game: GameTable) -> dict[tuple[int, int], int]:
    """The match played at each board of the game, by (round, number): one per board."""
    rows = Match.objects.filter(table__game_board__game=game).values_list(
        "table__game_board__round", "table__game_board__number", "pk"
    )
    return {(round_number, number): match_id for round_number, number, match_id in rows}
