"""The records' one writer: a match that just ended is counted in its players' records and in
their pair's, inside the transaction that ends it (tables.play.services.matches.end_match), and
``rebuild`` recounts every record from the finished matches (the data migration's backfill).

Each player's list of finished matches (PlayerMatch) gets its line here too.

Exactly once: end_match runs under the table's lock while the match is still playing, and the
RecordedMatch row is the guard behind that, so a second handling of the same end adds nothing.
Both players' rows are updated in player order, as the ratings are, so two matches of one player
ending at once cannot deadlock."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable
from typing import Any

from django.apps import apps as django_apps
from django.apps.registry import Apps
from django.db.models import F

from rules import scoring
from tables.play.models import Deal, Match, Table
from tables.records.models import PairRecord, PlayerMatch, PlayerRecord, RecordedMatch

KNOCKS = (scoring.KNOCK, scoring.UNDERCUT)  # knocked with deadwood (a gin has none to average)
GINS = (scoring.GIN, scoring.BIG_GIN)
# What a record reads of each deal (the columns written as the deal is played).
DEAL_FIGURES = (
    *("status", "outcome", "winner", "knocker", "knocker_deadwood"),
    *("turns0", "turns1", "timeouts0", "timeouts1"),
)
PUBLIC = Table.Visibility.PUBLIC.value
BATCH = 2000

Figures = dict[str, Any]  # one deal's DEAL_FIGURES


def record_match(table: Table, match: Match, last: Deal, board: bool = False) -> bool:
    """Count ``match``, just ended at ``table``, in the records; ``last``: its last deal as it
    stands in memory (the move that ended the match may not have saved it yet). ``board``: one
    deal of a game of three or four (tables.variants), whose deals count but which is no match
    of its own: no match, win, list line or pair record. False: counted already."""
    if RecordedMatch.objects.filter(match=match).exists():
        return False
    RecordedMatch.objects.create(match=match)
    earlier = Deal.objects.filter(match=match).exclude(pk=last.pk).values(*DEAL_FIGURES)
    deals = [*earlier, {name: getattr(last, name) for name in DEAL_FIGURES}]
    public = table.visibility == PUBLIC
    seats = (table.seat0_id, table.seat1_id)
    _add_to_players(seats, match, public, deals, board)
    pair = None if board else _pair(seats, match.winner, public)
    if pair is not None:
        (low, high), added = pair
        PairRecord.objects.bulk_create([PairRecord(low_id=low, high_id=high)], ignore_conflicts=True)
        PairRecord.objects.filter(low_id=low, high_id=high).update(**_added(added), last_on=match.ended_at)
    return True


def _add_to_players(
    seats: tuple[int | None, int | None], match: Match, public: bool, deals: list[Figures], board: bool
) -> None:
    """Each seated player's record (created if new, updated in player order) and list line (none
    for a board)."""
    counts = {
        player: _counts(seat, match.winner, public, deals, board)
        for seat, player in enumerate(seats)
        if player
    }
    PlayerRecord.objects.bulk_create(
        [PlayerRecord(player_id=key) for key in sorted(counts)], ignore_conflicts=True
    )
    for player in sorted(counts):
        PlayerRecord.objects.filter(pk=player).update(**_added(counts[player]))
    if board:
        return
    lines = [_line(player, seats, match.pk, match.ended_at, public) for player in sorted(counts)]
    PlayerMatch.objects.bulk_create(lines)


def _added(counts: dict[str, int]) -> dict[str, Any]:
    return {name: F(name) + value for name, value in counts.items()}


def _line(
    player: int, seats: tuple[int | None, int | None], match_id: int, ended_at: Any, public: bool
) -> PlayerMatch:
    """The line of ``player``'s list (one of ``seats``), its opponent the other seat."""
    opponent = seats[1] if seats[0] == player else seats[0]
    return PlayerMatch(
        player_id=player,
        match_id=match_id,
        ended_at=ended_at,
        public=public,
        opponent_id=opponent,
    )


def _counts(
    seat: int, winner: int | None, public: bool, deals: Iterable[Figures], board: bool = False
) -> dict[str, int]:
    """What one finished match (or a board: its deals only) adds to the record of the player at
    ``seat``."""
    played = list(deals)
    knocked = [deal for deal in played if deal["knocker"] == seat and deal["outcome"] in KNOCKS]
    return {
        "matches": int(not board),
        "public_matches": int(public and not board),
        "wins": int(winner == seat and not board),
        "deals": sum(deal["status"] == Deal.Status.OVER for deal in played),
        "gins": sum(deal["outcome"] in GINS and deal["winner"] == seat for deal in played),
        "knocks": len(knocked),
        "undercuts": sum(deal["outcome"] == scoring.UNDERCUT for deal in knocked),
        "knock_deadwood": sum(deal["knocker_deadwood"] or 0 for deal in knocked),
        "turns": sum(deal[f"turns{seat}"] for deal in played),
        "timeouts": sum(deal[f"timeouts{seat}"] for deal in played),
    }


def _pair(
    seats: tuple[int | None, int | None], winner: int | None, public: bool
) -> tuple[tuple[int, int], dict[str, int]] | None:
    """The pair (lower id first) and what one finished match adds to its record; None when a
    seat is empty."""
    first, second = seats
    if first is None or second is None:
        return None
    low_seat = 0 if first < second else 1
    added = {
        "matches": 1,
        "low_wins": int(winner == low_seat),
        "high_wins": int(winner == 1 - low_seat),
        "invite_matches": int(not public),
    }
    return (min(first, second), max(first, second)), added


def rebuild(registry: Apps = django_apps) -> None:
    """Every record recounted from the finished matches and their deals (the data migration's
    backfill, with its historical models in ``registry``; the benchmark's seeding, in bulk)."""
    models = {name: registry.get_model("tables", name) for name in REBUILT}
    for name in REBUILT[2:]:
        models[name].objects.all().delete()
    over = Match.Status.OVER.value
    deals: dict[int, list[Figures]] = defaultdict(list)
    for row in models["Deal"].objects.filter(match__status=over).values("match_id", *DEAL_FIGURES):
        deals[row["match_id"]].append(row)
    tally = _Tally()
    columns = (
        *("pk", "winner", "ended_at", "table__seat0_id", "table__seat1_id", "table__visibility"),
        "record__board",
    )
    for row in models["Match"].objects.filter(status=over).values_list(*columns).iterator():
        tally.add(row, deals[row[0]])
    _write(models, tally)


REBUILT = ("Match", "Deal", "RecordedMatch", "PlayerMatch", "PairRecord", "PlayerRecord")


class _Tally:
    """The records of every finished match, counted in memory (``rebuild``)."""

    def __init__(self) -> None:
        self.recorded: list[int] = []
        self.lines: list[PlayerMatch] = []
        self.players: dict[int, Counter[str]] = defaultdict(Counter)
        self.pairs: dict[tuple[int, int], Counter[str]] = defaultdict(Counter)
        self.last_on: dict[tuple[int, int], Any] = {}

    def add(self, row: tuple[Any, ...], deals: list[Figures]) -> None:
        key, winner, ended_at, seat0, seat1, visibility, board = row
        public, seats, board = visibility == PUBLIC, (seat0, seat1), board is not None
        self.recorded.append(key)
        for seat, player in enumerate(seats):
            if player is not None:
                self.players[player].update(_counts(seat, winner, public, deals, board))
                if not board:
                    self.lines.append(_line(player, seats, key, ended_at, public))
        pair = None if board else _pair(seats, winner, public)
        if pair is not None:
            self.pairs[pair[0]].update(pair[1])
            self.last_on[pair[0]] = max(filter(None, (self.last_on.get(pair[0]), ended_at)), default=None)


def _write(models: dict[str, Any], tally: _Tally) -> None:
    models["RecordedMatch"].objects.bulk_create(
        (models["RecordedMatch"](match_id=key) for key in tally.recorded), batch_size=BATCH
    )
    models["PlayerMatch"].objects.bulk_create(
        (models["PlayerMatch"](**_fields(line)) for line in tally.lines), batch_size=BATCH
    )
    models["PlayerRecord"].objects.bulk_create(
        (models["PlayerRecord"](player_id=key, **counts) for key, counts in tally.players.items()),
        batch_size=BATCH,
    )
    models["PairRecord"].objects.bulk_create(
        (
            models["PairRecord"](low_id=low, high_id=high, last_on=tally.last_on[low, high], **counts)
            for (low, high), counts in tally.pairs.items()
        ),
        batch_size=BATCH,
    )


def _fields(line: PlayerMatch) -> dict[str, Any]:
    """A line's columns, for the historical model of a migration."""
    names = ("player_id", "match_id", "ended_at", "public", "opponent_id")
    return {name: getattr(line, name) for name in names}
