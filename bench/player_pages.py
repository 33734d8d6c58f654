"""HTTP benchmark of the pages that grow with the record: a player's page, the leaderboard, the
archive and the social pages (the following list, the inbox, head-to-head) with 10,000 finished
matches and 1,000 players, next to the table state in the same run, all under daphne on loopback
and measured with wrk (bench/http_load.py's harness). A benchmark, not a test: see
bench/README.md for the command and figures.

    .venv/bin/python -m bench.player_pages [--seconds 5] [--connections 8] [--processes 2] [--port 8730]

The database is a fresh SQLite file in a temporary directory unless DATABASE_URL is set.
To measure another page, add a line to PAGES: its path may name {table}, {player} (the heavy
player, in 2,000 matches), {rival} (the account with the most matches against the heavy player
among the first 50), {match} (a finished match of the heavy player) and {replayed} (a real
finished match at a public table, played move by move, for the archive's pages). Each page is
asked once before wrk drives it: anything but a 200, or a page without its marker (and, logged
in, without the logout link), stops the run.
"""

from __future__ import annotations

import http.client
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlsplit

from bench.http_load import daphnes, fresh_site, load_options, measure, run_manage, server_ports

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
from tables.play import engine, selectors
from tests.tables.plain_play import plain_action
played = services.create_table(alice, visibility="public")
services.add_bot(played.pk, alice, "tito")
services.start_match(played.pk, alice)
while True:
    now = selectors.get_table(played.pk)
    if now.current_deal.match.status == "over":
        break
    services.apply_move(played.pk, alice, plain_action(engine.load_deal(now.current_deal)), now.version)
replayed = now.current_deal.match
# The heavy player's social pages, through the writers: 200 followed accounts seen at different
# times, 500 inbox lines (the most kept) of which half read, and a rival with a head-to-head record.
import datetime as dt
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from tables.alerts import inbox, presence
from tables.alerts import services as inbox_lines
from tables.alerts.models import InboxItem
from tables.social import selectors as social, services as social_services
now = timezone.now()
for n, other in enumerate(players[1:201]):
    social_services.follow(regular, other)
    presence.touch_site(other.pk, now - dt.timedelta(minutes=7 * n))
for n in range(inbox.INBOX_MAX):
    assert inbox_lines.keep(regular, "match_over", f"bench:{n}", f"Result {n}", "", "/me/archive/")
kept = InboxItem.objects.filter(player=regular).order_by("pk").values_list("pk", flat=True)
inbox.mark_read(regular, list(kept)[1::2])
rival = max(players[1:51], key=lambda other: social.head_to_head(regular, other).matches)
def session(user):  # a login session as a browser's: its cookie's value
    browser = Client()
    browser.force_login(user)
    return browser.cookies[settings.SESSION_COOKIE_NAME].value
from django.db import connection
if connection.vendor == "postgresql":
    connection.cursor().execute("ANALYZE")  # as autovacuum would after such a bulk load
print("TABLE", table.invite_token, "TOKEN", identity.issue_api_token(users[0], "bench")[1],
      "PLAYER", regular.pk, "MATCH", match.pk, "REPLAYED", replayed.pk,
      "REGULAR", identity.issue_api_token(regular.user, "bench")[1],
      "RIVAL", rival.pk, "VERSUS", social.head_to_head(regular, rival).matches,
      "COOKIE", settings.SESSION_COOKIE_NAME, "HEAVY", session(regular.user), "RIVALS", session(rival.user),
      "LOGOUT", reverse("account_logout"))
"""

# (name, path, who asks: "token" (alice's API token), "regular" (the heavy player's API token),
# "heavy" or "rival" (that account's login session cookie) or None, a text the page must hold):
# measured one after the other against the same servers.
PAGES = [
    ("table state", "/api/tables/{table}", "token", '"version"'),
    ("player page (2,000 matches)", "/players/{player}/", None, "/players/{player}/"),
    ("player page, page 50", "/players/{player}/?page=50", None, "/players/{player}/"),
    ("leaderboard", "/leaderboard/?pace=slow", None, "/players/"),
    ("leaderboard, page 5", "/leaderboard/?pace=slow&page=5", None, "/players/"),
    ("archive: a match page", "/matches/{replayed}/", None, "/matches/{replayed}/"),
    ("archive: a deal's replay", "/matches/{replayed}/deals/1/", None, "/matches/{replayed}/"),
    ("archive: a player's 2,000 matches (API)", "/api/me/archive", "regular", '"matches"'),
    ("archive: a player's 2,000 matches, page 50 (API)", "/api/me/archive?page=50", "regular", '"matches"'),
    ("following list (200 followed), logged in", "/me/following/", "heavy", "?opponent="),
    ("inbox (500 lines), logged in", "/me/inbox/", "heavy", 'class="inbox-line'),
    ("inbox API (the bell)", "/api/me/inbox", "regular", '"unread"'),
    ("player page with head-to-head (the rival's)", "/players/{rival}/", "heavy", 'id="head-to-head"'),
    (
        "player page with head-to-head (the heavy player's)",
        "/players/{player}/",
        "rival",
        'id="head-to-head"',
    ),
    ("matches against the rival", "/players/{rival}/versus/", "heavy", "/matches/"),
]
SESSIONS = {"heavy": "heavy", "rival": "rivals"}  # who: the word of their session's cookie


def headers_of(who: str | None, names: dict[str, str]) -> list[str]:
    if who in ("token", "regular"):
        return [f"Authorization: Bearer {names[who]}"]
    if who in SESSIONS:
        return [f"Cookie: {names['cookie']}={names[SESSIONS[who]]}"]
    return []


def check(url: str, headers: list[str], marker: str, logged_in: str | None) -> None:
    """Ask the page once as wrk will: a 200 holding its marker (and the logout link if logged in),
    else stop the run with what came back."""
    parts = urlsplit(url)
    connection = http.client.HTTPConnection(parts.netloc, timeout=60)
    try:
        target = parts.path + (f"?{parts.query}" if parts.query else "")
        connection.request("GET", target, headers=dict(header.split(": ", 1) for header in headers))
        response = connection.getresponse()
        body = response.read().decode(errors="replace")
    finally:
        connection.close()
    missing = [text for text in (marker, logged_in) if text and text not in body]
    if response.status != 200 or missing:
        sys.exit(f"{url}: status {response.status}, missing {missing}\n{body[:1500]}")


def main() -> None:
    options = load_options(__doc__.splitlines()[0], seconds=5, connections=8, processes=2)
    workdir = Path(tempfile.mkdtemp(prefix="ginmesa-bench-"))
    env = fresh_site(workdir)
    run_manage(env, "collectstatic", "--noinput")  # pages name their static files (DEBUG off: a manifest)
    started = time.monotonic()
    words = run_manage(env, "shell", "-c", SETUP).split()
    print(f"seeded 10,000 matches and 1,000 players in {time.monotonic() - started:.0f} s")
    keys = ("TABLE", "TOKEN", "PLAYER", "MATCH", "REPLAYED", "REGULAR", "RIVAL", "VERSUS")
    keys += ("COOKIE", "HEAVY", "RIVALS", "LOGOUT")  # type: ignore[assignment]  # a longer tuple
    names = {key.lower(): words[words.index(key) + 1] for key in keys}
    print(f"the heavy player #{names['player']} and the rival #{names['rival']}: {names['versus']} matches")
    ports = server_ports(options)
    with daphnes(ports, env, workdir):
        for name, path, who, marker in PAGES:
            urls = [f"http://127.0.0.1:{port}{path.format(**names)}" for port in ports]
            headers = headers_of(who, names)
            for url in urls:
                check(url, headers, marker.format(**names), names["logout"] if who in SESSIONS else None)
            measure(name, urls, options, headers)


if __name__ == "__main__":
    main()
