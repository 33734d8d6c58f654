"""Benchmark of a 256-player Swiss of 8 rounds: the time to pair a round, in the pure engine
and through the services on the database (pairing, then every match of the round opened at its
own table with both players seated and the match started), and what the match-end hook costs
the move that ends a match (the round's next step is a task's, timed apart). A benchmark, not a
test: see bench/README.md for the command and figures.

    .venv/bin/python -m bench.tournament_pairing [--players 256] [--rounds 8] [--engine-only]

The services part needs a fresh, empty database in DATABASE_URL (it is migrated here). Each
match is ended by one of its players resigning through the play services (a random one), so the
matches' end reaches the tournament through its real announcement; the round's next step, a
task in production, is called here once the round is over; robot play of 1,024 whole matches would take most of an hour on a 2-core VM and
measures the rules engine, not the pairing.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from tables.tournaments.engine.pairing import SwissField, pair_round, standings_order


def engine_rounds(players: int, rounds: int, rng: random.Random) -> list[float]:
    """Seconds per ``pair_round`` over a whole Swiss with random results (the better seed
    winning two times in three)."""
    field = list(range(1, players + 1))
    seeds = {p: p for p in field}
    scores = dict.fromkeys(field, 0)
    met: set[frozenset[int]] = set()
    byes = dict.fromkeys(field, 0)
    times = []
    for _ in range(rounds):
        order = standings_order(field, scores, seeds)
        started = time.perf_counter()
        paired = pair_round(SwissField(order, scores, frozenset(met), byes))
        times.append(time.perf_counter() - started)
        assert paired.repeats == 0
        if paired.bye is not None:
            byes[paired.bye] += 1
            scores[paired.bye] += 2
        for a, b in paired.pairs:
            met.add(frozenset((a, b)))
            winner = min(a, b) if rng.random() < 2 / 3 else max(a, b)
            scores[winner] += 2
    return times


def timed(record: list[float], work: Callable[..., Any]) -> Callable[..., Any]:
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        started = time.perf_counter()
        try:
            return work(*args, **kwargs)
        finally:
            record.append(time.perf_counter() - started)

    return wrapper


def service_rounds(players: int, rounds: int, rng: random.Random) -> dict[str, list[float]]:
    """Seconds per pairing (the engine call inside the services), per round opened (pairing,
    tables, seats, matches started, inbox lines) and per match end heard by the hook, for a
    whole Swiss through the services."""
    import django  # a script: Django is set up only for this part

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    # the players' alert emails (every match of every round) are sent, to nowhere
    os.environ.setdefault("EMAIL_BACKEND", "django.core.mail.backends.locmem.EmailBackend")
    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    from tables.accounts.models import Player
    from tables.play import services as play
    from tables.tournaments import services, watchers
    from tables.tournaments.announcements import round_ended
    from tables.tournaments.models import Pairing
    from tables.tournaments.services import results, running

    call_command("migrate", verbosity=0)
    times: dict[str, list[float]] = {"pairing": [], "opening": [], "hook": []}
    running.pair_round = timed(times["pairing"], running.pair_round)  # type: ignore[attr-defined]
    running.open_round = timed(times["opening"], running.open_round)
    setattr(results, "open_round", running.open_round)  # noqa: B010  (the next rounds are opened from there)
    hook = timed(times["hook"], results.record_match_end)
    setattr(watchers, "record_match_end", hook)  # noqa: B010  (the receiver calls it from there)
    round_ended.disconnect(dispatch_uid="tables.tournaments")  # the task's work is called below
    users = get_user_model().objects.bulk_create(
        get_user_model()(username=f"bench{n}", email=f"bench{n}@example.com", password="!")
        for n in range(players)
    )
    accounts = Player.objects.bulk_create(Player(user=user, display_name=user.username) for user in users)
    tournament = services.create_tournament(
        accounts[0], name="Bench Swiss", max_players=players, swiss_rounds=rounds, turn_seconds=86400
    )
    for account in accounts:
        services.join(tournament.pk, account)
    for number in range(1, rounds + 1):
        on = Pairing.objects.filter(round__tournament=tournament, round__number=number, second__isnull=False)
        for pairing in on.select_related("first__player", "second__player"):
            assert pairing.second is not None and pairing.table_id is not None
            leaver = rng.choice([pairing.first.player, pairing.second.player])
            play.resign(pairing.table_id, leaver)
        assert services.advance(tournament.pk)  # what the task does once the round is over
    tournament.refresh_from_db()
    assert tournament.status == "finished", tournament.status
    return times


def report(name: str, times: list[float]) -> None:
    print(
        f"{name}: {len(times)} calls, median {statistics.median(times) * 1000:.1f} ms,"
        f" max {max(times) * 1000:.1f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=256)
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--engine-only", action="store_true")
    options = parser.parse_args()
    report("engine pair_round", engine_rounds(options.players, options.rounds, random.Random(1)))
    if not options.engine_only:
        times = service_rounds(options.players, options.rounds, random.Random(2))
        report("services: pairing", times["pairing"])
        report("services: round opened (pairing, tables, matches started)", times["opening"])
        report("match-end hook, on the path of the match's last move", times["hook"])


if __name__ == "__main__":
    main()
