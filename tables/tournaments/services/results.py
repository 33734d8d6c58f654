"""A match's result reaching its tournament, withdrawals during the event, round 1 and the next
rounds, the end, and the sweep that guarantees all of it.

The end of a match is announced after its commit (tables.core.announcements.match_ended); the
result is written under the tournament's lock and only while the pairing is open, so a match end
seen twice (a retried move and a timeout, or the announcement and the sweep) counts once. The
round it completes is marked over there, and its next step (the next round, or the end) is taken
by a task (advance) under the lock again, once. The start is a step of its own transaction too:
round 1 of an event just started is the same task's (advance, with ``round_number`` 0).
"""

from __future__ import annotations

import contextlib
import datetime as dt

from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone

from tables.alerts import services as inbox_lines
from tables.core.errors import Conflict
from tables.play import engine
from tables.play.models import Match
from tables.play.services.matches import resign
from tables.tournaments import selectors
from tables.tournaments.announcements import announce_round_ended_on_commit
from tables.tournaments.engine.standings import Standing
from tables.tournaments.models import Entry, Pairing, Round, Tournament
from tables.tournaments.services.common import bump, lock_tournament, tournament_path
from tables.tournaments.services.running import (
    MIN_PLAYERS,
    advancing_from,
    group_standings,
    open_round,
    start_locked,
    swiss_standings,
)

# Round 1 is its task's, handed over by the start's commit; the sweep opens it only once the
# task had time enough (a lost task), so that it does not pair 128 tables beside the task.
FIRST_ROUND_GRACE = dt.timedelta(seconds=30)


def record_match_end(table_id: int) -> bool:
    """The match at ``table_id`` ended: its pairing takes the result. One indexed query for a
    table outside any tournament. True if a result was written now."""
    found = (
        Pairing.objects.filter(table_id=table_id, finished_at__isnull=True)
        .values_list("pk", "round__tournament_id")
        .first()
    )
    if found is None:
        return False
    pairing_id, tournament_id = found
    with transaction.atomic():
        tournament = lock_tournament(tournament_id)
        pairing = Pairing.objects.select_for_update().select_related("round").get(pk=pairing_id)
        match = _finished_match(table_id)
        if pairing.finished_at is not None or match is None:
            return False
        _write_result(pairing, match, forfeited=False)
        bump(tournament)  # the page's crosstable follows the version
        after_result(tournament, pairing.round)
        return True


def _finished_match(table_id: int) -> Match | None:
    return Match.objects.filter(table_id=table_id, number=1, status=Match.Status.OVER).first()


def _write_result(pairing: Pairing, match: Match, forfeited: bool) -> None:
    record = engine.load_match(match)
    totals = record.totals
    if record.games and record.final_scores is not None:  # Hollywood: the three games' sums
        totals = (record.final_scores[0].total, record.final_scores[1].total)
    pairing.first_points, pairing.second_points = totals[0], totals[1]  # the first sits in seat 0
    pairing.winner_id = (
        None if record.winner is None else (pairing.first_id, pairing.second_id)[record.winner]
    )
    pairing.forfeited = forfeited
    pairing.finished_at = timezone.now()
    pairing.save(update_fields=["first_points", "second_points", "winner", "forfeited", "finished_at"])


def after_result(tournament: Tournament, round_row: Round) -> None:
    """With the round's last result in, the round is over and its next step is due: told after
    commit, and taken by a task (advance), since opening a round of a hundred matches takes
    seconds that the last move of the round must not wait for."""
    if Pairing.objects.filter(round=round_row, finished_at__isnull=True).exists():
        return
    if round_row.ended_at is not None or tournament.status != Tournament.Status.RUNNING:
        return
    round_row.ended_at = timezone.now()
    round_row.save(update_fields=["ended_at"])
    announce_round_ended_on_commit(tournament.pk)


def advance(tournament_id: int) -> bool:
    """The event's next step: round 1 of an event that has started (``round_number`` 0), or
    after a round that is over the next round or the end. Under the tournament's lock and only
    while that step is still due (opening a round moves ``round_number``), so the task, a retry
    of it and the sweep take the step once between them. True if taken now."""
    with transaction.atomic():
        tournament = lock_tournament(tournament_id)
        if tournament.status != Tournament.Status.RUNNING:
            return False
        if tournament.round_number == 0:
            _first_step(tournament)
            return True
        round_row = Round.objects.filter(tournament=tournament, number=tournament.round_number).first()
        if round_row is None or round_row.ended_at is None:
            return False
        _next_step(tournament, round_row)
        return True


def _first_step(tournament: Tournament) -> None:
    """Round 1, unless withdrawals since the start left fewer than two players: then the end."""
    if tournament.entries.filter(withdrawn_at__isnull=True).count() >= MIN_PLAYERS:
        open_round(tournament, 1)
    else:
        finish(tournament)


def _next_step(tournament: Tournament, round_row: Round) -> None:
    active = tournament.entries.filter(withdrawn_at__isnull=True).count()
    if tournament.is_swiss:
        if round_row.number < tournament.swiss_rounds and active >= 2:
            open_round(tournament, round_row.number + 1)
        else:
            finish(tournament)
        return
    groups = Pairing.objects.filter(round=round_row).values("group").distinct().count()
    if groups > 1:  # one group left: its round was the final
        going_on = advancing_from(tournament, round_row.number)
        _mark_eliminated(tournament, round_row.number, set(going_on))
        if len(going_on) >= 2:
            open_round(tournament, round_row.number + 1)
            return
    finish(tournament)


def _mark_eliminated(tournament: Tournament, number: int, going_on: set[int]) -> None:
    played = {s.player for group in group_standings(tournament, number) for s in group}
    Entry.objects.filter(pk__in=played - going_on).update(eliminated_in=number)


def withdraw_running(tournament: Tournament, entry: Entry) -> None:
    """The locked tournament's player leaves during the event: the matches still on are
    resigned at their tables and recorded as forfeits; the finished ones stand."""
    entry.withdrawn_at = timezone.now()
    entry.save(update_fields=["withdrawn_at"])
    bump(tournament)
    open_pairings = (
        Pairing.objects.select_for_update().select_related("round").filter(finished_at__isnull=True)
    )
    rounds: dict[int, Round] = {}
    for pairing in open_pairings.filter(Q(first=entry) | Q(second=entry)):
        if pairing.table_id is not None:
            with contextlib.suppress(Conflict):  # the match had just ended: its result stands
                resign(pairing.table_id, entry.player)
            match = _finished_match(pairing.table_id)
            if match is not None:
                _write_result(pairing, match, forfeited=match.outcome == Match.Outcome.RESIGNED)
        rounds[pairing.round_id] = pairing.round
    for round_row in rounds.values():
        after_result(tournament, round_row)


def finish(tournament: Tournament) -> None:
    """The event is over: every entry's place, the winner, and every player told."""
    order = _final_order(tournament)
    entries = {entry.pk: entry for entry in tournament.entries.select_related("player")}
    for place, pk in enumerate(order, start=1):
        entries[pk].place = place
    Entry.objects.bulk_update(list(entries.values()), ["place"])
    winner = entries[order[0]] if order else None
    tournament.winner = winner.player if winner else None
    tournament.status = Tournament.Status.FINISHED
    tournament.ended_at = timezone.now()
    bump(tournament, "winner", "status", "ended_at")
    for entry in entries.values():
        inbox_lines.tell(
            entry.player,
            "tournament_over",
            f"tournament:{tournament.pk}",
            tournament_path(tournament),
            name=tournament.name,
            place=entry.place or "–",
            winner=winner.player.name if winner else "–",
        )


def _final_order(tournament: Tournament) -> list[int]:
    """Entries best first: active before withdrawn. A Swiss by its standings; groups by the
    last round reached, then within it by the group standings compared across groups (one who
    withdrew before round 1 was paired reached none: after them, by seed)."""
    withdrawn = set(tournament.entries.filter(withdrawn_at__isnull=False).values_list("pk", flat=True))
    if tournament.is_swiss:
        ranked = [s.player for s in swiss_standings(tournament, selectors.all_pairings(tournament))]
    else:
        ranked = []
        for number in range(tournament.round_number, 0, -1):
            groups = group_standings(tournament, number)
            reached = [s for group in groups for s in group if s.player not in ranked]
            if len(groups) == 1:
                ranked += [s.player for s in reached]
            else:
                ranked += [s.player for s in sorted(reached, key=_across_groups)]
        seeds = selectors.seeds_of(tournament)  # who left before round 1: never in a group
        ranked += sorted((pk for pk in seeds if pk not in ranked), key=lambda pk: (seeds[pk], pk))
    return [pk for pk in ranked if pk not in withdrawn] + [pk for pk in ranked if pk in withdrawn]


def _across_groups(standing: Standing) -> tuple[float, float, int]:
    played = max(1, standing.played)
    return (-standing.half_points / played, -standing.difference / played, standing.seed)


def start(tournament_id: int) -> Tournament:
    """Start the event now if it is still registering (the sweeper at its date): exactly once."""
    with transaction.atomic():
        tournament = lock_tournament(tournament_id)
        start_locked(tournament)
        return tournament


def sweep_tournaments(now: dt.datetime | None = None) -> int:
    """The guarantee behind the fast paths: round 1 of an event started FIRST_ROUND_GRACE ago or
    more and still not opened (a lost task) is opened, events whose start date has come are
    started (round 1 then follows in their task), a match that ended without its result
    reaching the pairing (a lost announcement) is recorded, and a round over whose next step was
    not taken (a lost task) is advanced. How many rounds 1 were opened, events started, results
    written or rounds advanced."""
    now = now or timezone.now()
    done = 0
    waiting = Tournament.objects.filter(
        status=Tournament.Status.RUNNING, round_number=0, started_at__lte=now - FIRST_ROUND_GRACE
    )
    for tournament_id in waiting.values_list("pk", flat=True):
        done += advance(tournament_id)
    due = Tournament.objects.filter(status=Tournament.Status.REGISTERING, starts_at__lte=now)
    for tournament_id in due.values_list("pk", flat=True):
        start(tournament_id)
        done += 1
    stuck = Pairing.objects.filter(
        finished_at__isnull=True,
        round__tournament__status=Tournament.Status.RUNNING,
        table__matches__number=1,
        table__matches__status=Match.Status.OVER,
    )
    for table_id in stuck.values_list("table_id", flat=True):
        if table_id is not None and record_match_end(table_id):
            done += 1
    over = Round.objects.filter(
        ended_at__isnull=False,
        tournament__status=Tournament.Status.RUNNING,
        number=F("tournament__round_number"),
    )
    for tournament_id in over.values_list("tournament_id", flat=True):
        done += advance(tournament_id)
    return done
