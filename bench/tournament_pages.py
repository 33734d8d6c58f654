"""HTTP benchmark of the tournament pages with 1,000 finished events: the list (page and API)
and one finished event's page and API, next to the table state in the same run, all under
daphne on loopback and measured with wrk (bench/http_load.py's harness). A benchmark, not a
test: see bench/README.md for the command and figures.

    .venv/bin/python -m bench.tournament_pages [--seconds 5] [--connections 8] [--processes 2]

The database is a fresh SQLite file in a temporary directory unless DATABASE_URL is set. The
servers listen on free ports, or from BENCH_FIRST_PORT on when it is set. The events are
written in bulk (8 players, a 3-round Swiss each, every result in): rows only, no tables.
"""

from __future__ import annotations

import os
import tempfile
import time
from pathlib import Path

from bench.http_load import daphnes, fresh_site, load_options, measure, run_manage
from bench.player_pages import check
from tests.tables.live import servers

SETUP = """
import random
from django.contrib.auth import get_user_model
from django.utils import timezone
from tables.accounts import identity
from tables.accounts.models import Player
from tables.play import services
from tables.tournaments.models import Entry, Pairing, Round, Tournament
rng = random.Random(1)
users = [get_user_model().objects.create_user(username=n, email=f"{n}@example.com") for n in ("alice", "bob")]
alice, bob = (identity.player_for_user(user) for user in users)
table = services.create_table(alice)
services.join_table(table.pk, bob)
services.start_match(table.pk, alice)
many = get_user_model().objects.bulk_create(
    get_user_model()(username=f"t{n}", email=f"t{n}@example.com", password="!") for n in range(400)
)
players = Player.objects.bulk_create(Player(user=user, display_name=user.username) for user in many)
now = timezone.now()
events = Tournament.objects.bulk_create(
    Tournament(name=f"Event {n}", creator=players[n % 400], format="swiss", status="finished",
               table_options={"rated": False}, ruleset_name=("playgridia", "classic", "reino")[n % 3],
               turn_seconds=86400, max_players=8, swiss_rounds=3, round_number=3,
               winner=players[(n * 8) % 400], started_at=now, ended_at=now)
    for n in range(1000)
)
entries = Entry.objects.bulk_create(
    Entry(tournament=event, player=players[(n * 8 + k) % 400], seed=k + 1, place=k + 1, rating=1500.0)
    for n, event in enumerate(events) for k in range(8)
)
rounds = Round.objects.bulk_create(Round(tournament=event, number=r, ended_at=now) for event in events for r in (1, 2, 3))
pairings = []
for n, event in enumerate(events):
    field = entries[n * 8:(n + 1) * 8]
    for r in range(3):
        order = field[r:] + field[:r]
        for k in range(4):
            first, second = order[k], order[7 - k]
            pairings.append(Pairing(round=rounds[n * 3 + r], first=first, second=second, finished_at=now,
                                    winner=rng.choice([first, second]), first_points=rng.randrange(150),
                                    second_points=rng.randrange(150)))
Pairing.objects.bulk_create(pairings)
from django.db import connection
if connection.vendor == "postgresql":
    connection.cursor().execute("ANALYZE")
print("TABLE", table.invite_token, "TOKEN", identity.issue_api_token(users[0], "bench")[1],
      "EVENT", events[500].invite_token)
"""

PAGES = [
    ("table state", "/api/tables/{table}", True, '"version"'),
    ("tournament list, finished", "/tournaments/?status=finished", False, "/tournaments/"),
    ("tournament list API, finished", "/api/tournaments?status=finished", True, '"tournaments"'),
    ("a finished event's page", "/tournaments/{event}/", False, "crosstable"),
    ("a finished event's API", "/api/tournaments/{event}", True, '"rounds"'),
]


def ports(count: int) -> list[int]:
    first = os.environ.get("BENCH_FIRST_PORT")
    return [int(first) + n for n in range(count)] if first else [servers.free_port() for _ in range(count)]


def main() -> None:
    options = load_options(__doc__.splitlines()[0], seconds=5, connections=8, processes=2)
    workdir = Path(tempfile.mkdtemp(prefix="ginmesa-bench-"))
    env = fresh_site(workdir)
    run_manage(env, "collectstatic", "--noinput")
    started = time.monotonic()
    words = run_manage(env, "shell", "-c", SETUP).split()
    print(f"seeded 1,000 finished tournaments in {time.monotonic() - started:.0f} s")
    names = {key.lower(): words[words.index(key) + 1] for key in ("TABLE", "TOKEN", "EVENT")}
    listening = ports(options.processes)
    with daphnes(listening, env, workdir):
        for name, path, with_token, marker in PAGES:
            urls = [f"http://127.0.0.1:{port}{path.format(**names)}" for port in listening]
            headers = [f"Authorization: Bearer {names['token']}"] if with_token else []
            for url in urls:
                check(url, headers, marker.format(**names), None)
            measure(name, urls, options, headers)


if __name__ == "__main__":
    main()
