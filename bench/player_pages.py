"""HTTP benchmark of the pages that grow with the record: a player's page, the leaderboard and
the archive with 10,000 finished matches and 1,000 players, next to the table state in the same run, all
under daphne on loopback and measured with wrk (bench/http_load.py's harness). A benchmark,
not a test: see bench/README.md for the command and figures.

    .venv/bin/python -m bench.player_pages [--seconds 5] [--connections 8] [--processes 2]

The database is a fresh SQLite file in a temporary directory unless DATABASE_URL is set.
To measure another page, add a line to PAGES: its path may name {table}, {player}, {match} (a
finished match of that player) and {replayed} (a real finished match at a public table, played
move by move, for the archive's pages).
"""

from __future__ import annotations

import shutil
import tempfile
import time
from pathlib import Path

from bench.http_load import fresh_site, load_options, run_manage, wrk
from tests.tables.live import servers

SETUP = """
from django.contrib.auth import get_user_model
from tables.accounts import identity
from tables.play import services
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
# A real finished match at a public table, for the step-by-step replay: alice against TITO
# (eager Celery here: the robot answers each move at once), alice playing a plain strategy.
import rules
from tables.play import engine, selectors
played = services.create_table(alice, visibility="public")
services.add_bot(played.pk, alice, "tito")
services.start_match(played.pk, alice)
while True:
    now = selectors.get_table(played.pk)
    if now.current_deal.match.status == "over":
        break
    state = engine.load_deal(now.current_deal)
    legal = [str(action) for action in state.legal_actions()]
    finish = [action for action in legal if action.split()[0] in ("big_gin", "gin", "knock")]
    if finish:
        chosen = finish[0]
    elif state.phase == "discard":
        chosen = f"discard {rules.best_discard(state.hand(0), exclude=state.just_taken).card}"
    else:
        chosen = "draw_stock" if "draw_stock" in legal else "pass"
    services.apply_move(played.pk, alice, chosen, now.version)
replayed = now.current_deal.match
from django.db import connection
if connection.vendor == "postgresql":
    connection.cursor().execute("ANALYZE")  # as autovacuum would after such a bulk load
print("TABLE", table.invite_token, "TOKEN", identity.issue_api_token(users[0], "bench")[1],
      "PLAYER", regular.pk, "MATCH", match.pk, "REPLAYED", replayed.pk,
      "REGULAR", identity.issue_api_token(regular.user, "bench")[1])
"""

# (name, path, the API token it is sent with: alice's, the regular player's, or none):
# measured one after the other against the same servers.
PAGES = [
    ("table state", "/api/tables/{table}", "token"),
    ("player page (2,000 matches)", "/players/{player}/", None),
    ("player page, page 50", "/players/{player}/?page=50", None),
    ("leaderboard", "/leaderboard/?pace=slow", None),
    ("leaderboard, page 5", "/leaderboard/?pace=slow&page=5", None),
    ("archive: a match page", "/matches/{replayed}/", None),
    ("archive: a deal's replay", "/matches/{replayed}/deals/1/", None),
    ("archive: a player's 2,000 matches (API)", "/api/me/archive", "regular"),
    ("archive: a player's 2,000 matches, page 50 (API)", "/api/me/archive?page=50", "regular"),
]


def main() -> None:
    options = load_options(__doc__.splitlines()[0], seconds=5, connections=8, processes=2)
    workdir = Path(tempfile.mkdtemp(prefix="ginmesa-bench-"))
    env = fresh_site(workdir)
    run_manage(env, "collectstatic", "--noinput")  # pages name their static files (DEBUG off: a manifest)
    started = time.monotonic()
    words = run_manage(env, "shell", "-c", SETUP).split()
    print(f"seeded 10,000 matches and 1,000 players in {time.monotonic() - started:.0f} s")
    keys = ("TABLE", "TOKEN", "PLAYER", "MATCH", "REPLAYED", "REGULAR")
    names = {key.lower(): words[words.index(key) + 1] for key in keys}
    ports = [servers.free_port() for _ in range(options.processes)]
    pool = [servers.daphne(port, env, workdir / f"{port}.log") for port in ports]
    try:
        time.sleep(1)
        for name, path, token_name in PAGES:
            urls = [f"http://127.0.0.1:{port}{path.format(**names)}" for port in ports]
            token = names[token_name] if token_name else None
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
