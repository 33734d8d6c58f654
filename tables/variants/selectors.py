"""Reads of game tables for pages and the API (no writes)."""

from __future__ import annotations

from django.db.models import Case, Count, QuerySet, Subquery, Value, When
from django.utils.translation import gettext

from tables.accounts.models import Player
from tables.core.errors import NotFound
from tables.play.models import ChatMessage, Deal, Table
from tables.play.selectors import SharedChat, chat_history, get_table
from tables.variants.models import Board, GameSeat, GameTable


def game_by_token(token: str) -> GameTable:
    rows = GameTable.objects.filter(invite_token=token).select_related("owner", "next_game")
    found = rows.first()
    if found is None:
        raise NotFound(gettext("No such table."))
    return found


def seats(game: GameTable) -> list[GameSeat]:
    return list(game.seats.select_related("player").order_by("number"))


def boards(game: GameTable) -> list[Board]:
    return list(game.boards.select_related("table").order_by("round", "number"))


def board_of_table(table_id: int) -> Board | None:
    """The board played at a table, with its game, if the table is one (the table page's link)."""
    return Board.objects.filter(table_id=table_id).select_related("game").first()


def board_at(table: Table) -> Board | None:
    """The board played at ``table``, with its game, read once per page: the answer (a board or
    none) is kept on the table as Django keeps a reverse one-to-one, so every part of a table
    page that asks (the game's pill, its panel) shares one query, and a two-player table's page
    costs that one query as before."""
    relation = Table.game_board.related
    if relation.is_cached(table):
        cached = relation.get_cached_value(table)
        return cached if isinstance(cached, Board) else None
    board = board_of_table(table.pk)
    if board is not None:
        board.table = table  # the page's own row: no query to read it back
    relation.set_cached_value(table, board)
    return board


def board_by_table_token(game: GameTable, token: str | None) -> Board | None:
    """The game's board played at the table ``token`` (None: no board asked for); NotFound for
    a table that is none of the game's boards."""
    if token is None:
        return None
    found = game.boards.filter(table__invite_token=token).select_related("table").first()
    if found is None:
        raise NotFound(gettext("This table has no such deal."))
    return found


def round_boards(game: GameTable, round_number: int | None = None) -> list[Board]:
    """The boards of a round (None: the newest), each with its table's deal and match: what the
    spectator's view of each is built from. One query."""
    rows = Board.objects.filter(game=game).select_related("table__current_deal__match")
    if round_number is None:
        newest = Board.objects.filter(game=game).order_by("-round").values("round")[:1]
        rows = rows.filter(round=Subquery(newest))
    else:
        rows = rows.filter(round=round_number)
    return list(rows.order_by("number"))


def games_of(player_id: int, limit: int = 20) -> list[GameTable]:
    """The game tables ``player_id`` sits at, those still on first, then the newest."""
    rows = GameTable.objects.filter(seats__player_id=player_id).order_by("-created_at")[:limit]
    games = list(rows)
    games.sort(key=lambda game: game.status == GameTable.Status.OVER)
    return games


def open_board_tokens(game_ids: list[int], seats_of: dict[int, int]) -> dict[int, str]:
    """Per game, the table of its open board where the player (``seats_of``: its seat per game)
    plays, if any."""
    found: dict[int, str] = {}
    boards = Board.objects.filter(game_id__in=game_ids, recorded_at__isnull=True).select_related("table")
    for board in boards:
        if seats_of.get(board.game_id) in board.players:
            found[board.game_id] = board.table.invite_token
    return found


def shared_chat(table_id: int) -> SharedChat | None:
    """The game's one chat, if the table is one of its boards: every board's table, and the
    game's players. For any other table, one indexed query (the boards of its game: none)."""
    boards = Board.objects.filter(game__boards__table_id=table_id).order_by("round", "number")
    tables = tuple(boards.values_list("table_id", flat=True))
    if not tables:
        return None
    players = GameSeat.objects.filter(game__boards__table_id=table_id).values_list("player_id", flat=True)
    return SharedChat(tables, frozenset(players))


def chat_table(game: GameTable) -> int | None:
    """The board's table where the game page keeps and reads the game's chat: its newest (each
    board shows the whole conversation). None before the start: no board yet."""
    newest = game.boards.order_by("-round", "-number").values_list("table_id", flat=True)
    found: int | None = newest.first()
    return found


def game_chat(game: GameTable, viewer: Player | None, after: int = 0) -> list[ChatMessage]:
    """The game's chat as ``viewer`` may read it (the table chat's rules), after message ``after``."""
    table_id = chat_table(game)
    return [] if table_id is None else chat_history(get_table(table_id), viewer, after=after)


def may_be_board(table: Table) -> bool:
    """Whether ``table`` can be a board's, read from its own row (no query): every board's table
    is opened unrated, by invite and without rematches (services.setup.create_game)."""
    return not table.rematches and not table.rated and table.visibility == Table.Visibility.INVITE


def _boards_with_variant() -> QuerySet[Board]:
    # The round, the number and the game's variant: what an alert names (not the game's record).
    return Board.objects.select_related("game").only("round", "number", "table_id", "game__variant")


def board_for_alerts(table: Table) -> Board | None:
    """The board played at ``table`` with its game's variant, for the alerts that name the game
    and the deal: one indexed query for a table that may be a board, none for any other."""
    return _boards_with_variant().filter(table_id=table.pk).first() if may_be_board(table) else None


def boards_for_alerts(tables: list[Table]) -> dict[int, Board]:
    """As board_for_alerts, by table, for those of ``tables`` that are boards' tables: one
    query, none when no table may be a board."""
    keys = [table.pk for table in tables if may_be_board(table)]
    if not keys:
        return {}
    return {board.table_id: board for board in _boards_with_variant().filter(table_id__in=keys)}


def opens_board(deal: Deal | None) -> bool:
    """Whether ``deal`` is its board's first deal and no turn of it has ended yet: it has just
    opened (no query: the deal and its match come read with the table)."""
    if deal is None:
        return False
    return deal.match.number == 1 and deal.number == 1 and deal.turns0 + deal.turns1 == 0


def lobby_games(apart: set[int], limit: int = 50) -> list[GameTable]:
    """Public game tables waiting for players with a seat free, newest first, leaving out those
    where anyone in ``apart`` sits (the viewer blocks them or is blocked: they could not sit)."""
    seats = Case(*(When(variant=variant, then=Value(count)) for variant, count in GameTable.SEATS.items()))
    rows = GameTable.objects.filter(visibility=Table.Visibility.PUBLIC, status=GameTable.Status.WAITING)
    rows = rows.annotate(taken=Count("seats")).filter(taken__lt=seats)
    rows = rows.select_related("owner").prefetch_related("seats__player").order_by("-created_at")
    games = (game for game in rows[:limit] if not apart & {seat.player_id for seat in game.seats.all()})
    return list(games)
