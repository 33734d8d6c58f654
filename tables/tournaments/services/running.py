"""Starting a tournament and opening its rounds: every match of a round at once, each at its own
table with both players seated and the match started (the services a challenge uses). The start
and round 1 are two transactions: round 1, as every later round, is opened by a task."""

from __future__ import annotations

from django.urls import reverse
from django.utils import timezone

from tables.alerts import services as inbox_lines
from tables.play.services.matches import start_match
from tables.play.services.seats import create_table, join_table
from tables.tournaments import selectors
from tables.tournaments.announcements import announce_round_opened_on_commit
from tables.tournaments.engine.groups import round_robin, snake_groups
from tables.tournaments.engine.pairing import SwissField, pair_round
from tables.tournaments.engine.standings import Standing, advancing, standings
from tables.tournaments.models import Entry, Pairing, Round, Tournament
from tables.tournaments.services.common import bump, cancel_locked

MIN_PLAYERS = 2


def start_locked(tournament: Tournament) -> None:
    """Start the locked tournament, if it is still registering: the seeds are fixed and it is
    running, in a few queries whatever its size. Round 1 is not opened here: the new version's
    announcement after commit hands it to a task (services.results.advance), so the join that
    took the last place does not wait seconds for 128 tables. Too few players at the start date
    call it off."""
    if tournament.status != Tournament.Status.REGISTERING:
        return
    entries = list(tournament.entries.all())
    if len(entries) < MIN_PLAYERS:
        cancel_locked(tournament)
        return
    ratings = selectors.ratings_at([entry.player_id for entry in entries], tournament.pace)
    for entry in entries:
        entry.rating = ratings[entry.player_id]
    entries.sort(key=lambda entry: (-entry.rating, entry.joined_at, entry.pk))
    for seed, entry in enumerate(entries, start=1):
        entry.seed = seed
    Entry.objects.bulk_update(entries, ["rating", "seed"])
    tournament.status = Tournament.Status.RUNNING
    tournament.started_at = timezone.now()
    bump(tournament, "status", "started_at")  # round_number 0: round 1 is due (announcements)


def open_round(tournament: Tournament, number: int) -> Round:
    """Pair round ``number`` and open every one of its matches."""
    tournament.round_number = number
    bump(tournament, "round_number")
    round_row = Round.objects.create(tournament=tournament, number=number)
    entries = {entry.pk: entry for entry in selectors.active_entries(tournament)}
    if tournament.is_swiss:
        planned = _swiss_pairs(tournament, entries)
    else:
        planned = _group_pairs(tournament, number, entries)
    for group, first, second in planned:
        pairing = Pairing.objects.create(round=round_row, group=group, first_id=first, second_id=second)
        if second is None:
            pairing.finished_at = timezone.now()  # a bye: a win without a match
            pairing.winner_id = first
            pairing.save(update_fields=["finished_at", "winner"])
        else:
            _open_match(tournament, pairing, entries[first], entries[second])
    announce_round_opened_on_commit(round_row.pk)
    return round_row


def _swiss_pairs(tournament: Tournament, entries: dict[int, Entry]) -> list[tuple[int, int, int | None]]:
    history = selectors.all_pairings(tournament)
    table = swiss_standings(tournament, history)
    field = SwissField(
        order=[standing.player for standing in table if standing.player in entries],
        scores={standing.player: standing.half_points for standing in table},
        met=frozenset(frozenset((p.first_id, p.second_id)) for p in history if p.second_id is not None),
        byes=_byes(history),
    )
    paired = pair_round(field)
    planned: list[tuple[int, int, int | None]] = [(0, first, second) for first, second in paired.pairs]
    if paired.bye is not None:
        planned.append((0, paired.bye, None))
    return planned


def swiss_standings(tournament: Tournament, history: list[Pairing]) -> list[Standing]:
    seeds = selectors.seeds_of(tournament)
    results = [result for result in map(selectors.result_of, history) if result is not None]
    return standings(seeds, results, seeds, _byes(history), swiss=True)


def _byes(history: list[Pairing]) -> dict[int, int]:
    byes: dict[int, int] = {}
    for pairing in history:
        if pairing.second_id is None:
            byes[pairing.first_id] = byes.get(pairing.first_id, 0) + 1
    return byes


def _group_pairs(
    tournament: Tournament, number: int, entries: dict[int, Entry]
) -> list[tuple[int, int, int | None]]:
    if number == 1:
        field = sorted(entries, key=lambda pk: entries[pk].seed or 0)
    else:
        field = [pk for pk in advancing_from(tournament, number - 1) if pk in entries]
    planned: list[tuple[int, int, int | None]] = []
    for index, members in enumerate(snake_groups(field, tournament.group_size), start=1):
        planned += [
            (index, first, second) for first, second in round_robin(members, tournament.home_and_away)
        ]
    return planned


def group_standings(tournament: Tournament, number: int) -> list[list[Standing]]:
    """Each group of round ``number``, its standings best first (groups in order)."""
    pairings = selectors.round_pairings(tournament, number)
    seeds = selectors.seeds_of(tournament)
    groups: dict[int, list[Pairing]] = {}
    for pairing in pairings:
        groups.setdefault(pairing.group, []).append(pairing)
    tables = []
    for group in sorted(groups):
        members = {p.first_id for p in groups[group]} | {p.second_id for p in groups[group] if p.second_id}
        results = [result for result in map(selectors.result_of, groups[group]) if result is not None]
        tables.append(standings(sorted(members), results, seeds))
    return tables


def advancing_from(tournament: Tournament, number: int) -> list[int]:
    """Who goes on from group round ``number``: withdrawn players are passed over."""
    active = set(tournament.entries.filter(withdrawn_at__isnull=True).values_list("pk", flat=True))
    groups = [[s for s in group if s.player in active] for group in group_standings(tournament, number)]
    return advancing(
        [group for group in groups if group], tournament.advance_per_group, tournament.runners_up
    )


def _open_match(tournament: Tournament, pairing: Pairing, first: Entry, second: Entry) -> None:
    """The pairing's table, both seated (the first deals first) and the match started."""
    options = {
        **tournament.options(),
        "vacation_stops_clock": tournament.vacation_allowed,
        "rematches": False,
    }
    table = create_table(first.player, **options)
    join_table(table, second.player, paired=True)
    start_match(table, first.player, first_dealer=0)
    pairing.table = table
    pairing.save(update_fields=["table"])
    path = reverse("table", args=[table.invite_token])
    for mine, theirs in ((first, second), (second, first)):
        inbox_lines.tell(
            mine.player,
            "tournament_match",
            f"pairing:{pairing.pk}",
            path,
            name=tournament.name,
            opponent=theirs.player.name,
        )
