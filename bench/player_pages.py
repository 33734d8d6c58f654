"""HTTP benchmark of the pages that grow with the record: a player's page and the leaderboard
with 10,000 finished matches and 1,000 players, next to the table state in the same run, all
under daphne on loopback and measured with wrk (bench/http_load.py's harness). A benchmark,
not a test: see bench/README.md for the command and figures.

    .venv/bin/python -m bench.player_pages [--seconds 5] [--connections 8] [--processes 2]

The database is a fresh SQLite file in a temporary directory unless DATABASE_URL is set.
To measure another page, add a line to PAGES: its path may name {table}, {player} and {match}.
"""

from __future__ import annotations

import argparse
import os
import shutil
import tempfile
import time
from pathlib import Path

from bench.http_load import run_manage, wrk
from tests.tables.live import servers

SETUP = """
from django.contrib.auth import get_user_model
from tables import identity, services
from tables.models import Match
from tests.tables.seed_players import seed
players = seed(players=1000, matches=10_000)
users = [get_user_model().objects.create_user(username=n, email=f"{n}@example.com") for n in ("alice", "bob")]
alice, bob = (identity.player_for_user(user) for user in users)
table = services.create_table(alice)
services.join_table(table.pk, bob)
services.start_match(table.pk, alice)
regular = players[0]
match = Match.objects.filter(table__seat0=regular, status="over").order_by("-ended_at").first()
from django.db import connection
if connection.vendor == "postgresql":
    connection.cursor().execute("ANALYZE")  # as autovacuum would after such a bulk load
print("TABLE", table.invite_token, "TOKEN", identity.issue_api_token(users[0], "bench")[1],
      "PLAYER", regular.pk, "MATCH", match.pk)
"""

# (name, path, sent with the API token): measured one after the other against the same servers.
PAGES = [
    ("table state", "/api/tables/{table}", True),
    ("player page (2,000 matches)", "/players/{player}/", False),
    ("player page, page 50", "/players/{player}/?page=50", False),
    ("leaderboard", "/leaderboard/?pace=slow", False),
    ("leaderboard, page 5", "/leaderboard/?pace=slow&page=5", False),
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=int, default=5)
    parser.add_argument("--connections", type=int, default=8)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--processes", type=int, default=2, help="daphne processes, one wrk each")
    options = parser.parse_args()
    workdir = Path(tempfile.mkdtemp(prefix="ginmesa-bench-"))
    url = os.environ.get("DATABASE_URL") or f"sqlite:////{workdir}/bench.sqlite3"
    env = servers.child_env(
        DATABASE_URL=url,
        DEBUG="false",
        SECRET_KEY="bench-" + "x" * 40,
        ALLOWED_HOSTS="127.0.0.1",
        LOG_LEVEL="WARNING",
    )
    run_manage(env, "migrate", "--noinput")
    run_manage(env, "collectstatic", "--noinput")  # pages name their static files (DEBUG off: a manifest)
    started = time.monotonic()
    words = run_manage(env, "shell", "-c", SETUP).split()
    print(f"seeded 10,000 matches and 1,000 players in {time.monotonic() - started:.0f} s")
    names = {key.lower(): words[words.index(key) + 1] for key in ("TABLE", "TOKEN", "PLAYER", "MATCH")}
    ports = [servers.free_port() for _ in range(options.processes)]
    pool = [servers.daphne(port, env, workdir / f"{port}.log") for port in ports]
    try:
        time.sleep(1)
        for name, path, with_token in PAGES:
            urls = [f"http://127.0.0.1:{port}{path.format(**names)}" for port in ports]
            token = names["token"] if with_token else None
            wrk(urls, 1, options.connections, options.threads, token)  # warm-up
            figures = wrk(urls, options.seconds, options.connections, options.threads, token)
            print(
                f"{name}: {figures['rps']:.0f} req/s, p50 {figures['p50_ms']:.1f} ms, "
                f"p99 {figures['p99_ms']:.1f} ms, non-2xx {figures['non_2xx']:.0f}"
            )
    finally:
        for server in pool:
            servers.stop(server)
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    main()
