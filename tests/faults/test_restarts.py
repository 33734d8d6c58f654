"""PostgreSQL restarted, then the ASGI server sent SIGTERM, in the middle of a match played over
real HTTP: no acknowledged move is lost, nothing is half-applied, and afterwards every deal's
move log replays through the engine to exactly its stored state.

Runs against a private PostgreSQL cluster (initdb in a temporary directory, port 5440) and a
private daphne: the shared services are never touched."""

from __future__ import annotations

import http.client
import json
import os
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from pathlib import Path

import psycopg
import pytest
from django.conf import settings

import rules
from tests.tables.helpers import choose_action
from tests.tables.live import servers

PG_BIN = Path("/usr/lib/postgresql/15/bin")
PG_PORT = 5440
pytestmark = [
    pytest.mark.faults,
    pytest.mark.skipif(
        settings.DATABASES["default"]["ENGINE"].endswith("sqlite3") or not (PG_BIN / "initdb").exists(),
        reason="needs PostgreSQL (a PostgreSQL DATABASE_URL, as .ci/run sets) and its binaries",
    ),
]
MOVES = 60
RESTART_DATABASE_AT, STOP_SERVER_AT = 12, 30


def as_postgres(*args: str) -> None:
    command = [str(arg) for arg in args]
    if os.geteuid() == 0:
        command = ["runuser", "-u", "postgres", "--", *command]
    subprocess.run(command, check=True, capture_output=True, timeout=60)


@pytest.fixture
def private_postgres():
    """A throwaway cluster; its directory is outside pytest's (which the postgres user cannot enter)."""
    data = Path(tempfile.mkdtemp(prefix="ginmesa-faults-pg-"))
    if os.geteuid() == 0:
        shutil.chown(data, "postgres")
    as_postgres(PG_BIN / "initdb", "-D", data, "-A", "trust", "-U", "postgres")
    options = f"-p {PG_PORT} -k {data} -c listen_addresses=127.0.0.1"
    as_postgres(PG_BIN / "pg_ctl", "-D", data, "-o", options, "-w", "-l", data / "log", "start")
    try:
        as_postgres(PG_BIN / "createdb", "-h", "127.0.0.1", "-p", str(PG_PORT), "-U", "postgres", "ginmesa")
        yield data, f"postgres://postgres@127.0.0.1:{PG_PORT}/ginmesa"
    finally:
        as_postgres(PG_BIN / "pg_ctl", "-D", data, "-m", "immediate", "stop")
        shutil.rmtree(data, ignore_errors=True)


def manage(env: dict[str, str], *args: str) -> str:
    command = [servers.PYTHON, "manage.py", *args]
    done = subprocess.run(command, cwd=servers.ROOT, env=env, capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


MAKE_TOKENS = """
from django.contrib.auth import get_user_model
from tables.accounts.identity import issue_api_token
for name in ("alice", "bob"):
    user = get_user_model().objects.create_user(username=name, email=f"{name}@example.com")
    print(issue_api_token(user, name)[1])
"""


class Player:
    """A program playing over HTTP with its bearer token; transient failures are retried."""

    def __init__(self, port: int, token: str):
        self.port, self.token = port, token
        self.acknowledged: list[str] = []  # client move ids the server answered 200 for

    def call(self, method: str, path: str, body: dict | None = None) -> tuple[int, dict]:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        headers = {"Authorization": f"Bearer {self.token}", "Content-Type": "application/json"}
        try:
            connection.request(method, f"/api{path}", json.dumps(body) if body is not None else None, headers)
            response = connection.getresponse()
            return response.status, json.loads(response.read() or b"{}")
        finally:
            connection.close()

    def retrying(self, method: str, path: str, body: dict | None = None) -> tuple[int, dict]:
        for _ in range(120):  # up to about a minute of outage
            try:
                status, data = self.call(method, path, body)
            except (OSError, http.client.HTTPException, ValueError):
                status, data = 0, {}
            if status and status < 500:
                return status, data
            time.sleep(0.5)
        raise AssertionError(f"{method} {path} never answered")


def play_one_move(players: dict[int, Player], token: str) -> None:
    _, state = players[0].retrying("GET", f"/tables/{token}")
    if state["status"] == "between_deals":
        players[0].retrying("POST", f"/tables/{token}/next-deal", {"expected_version": state["version"]})
        return
    seat = state["deal"]["view"]["to_play"]
    _, mine = players[seat].retrying("GET", f"/tables/{token}")
    move_id = f"v{mine['version']}"
    body = {
        "action": choose_action(mine["deal"]["view"], mine["version"]),
        "expected_version": mine["version"],
        "client_move_id": move_id,
    }
    status, reply = players[seat].retrying("POST", f"/tables/{token}/moves", body)
    if status == 200:  # a retry after a lost answer comes back "replayed": the same move
        players[seat].acknowledged.append(move_id)
    else:
        assert status == 409, reply  # the table moved on meanwhile: the next round reads it again


def test_database_restart_and_server_sigterm_lose_nothing(private_postgres, tmp_path) -> None:
    data, url = private_postgres
    env = servers.child_env(DATABASE_URL=url, DEBUG="true")
    manage(env, "migrate", "--noinput")
    alice_token, bob_token = [
        word for word in manage(env, "shell", "-c", MAKE_TOKENS).split() if word.startswith("gm_")
    ]
    port = servers.free_port()
    server = servers.daphne(port, env, tmp_path / "daphne.log")
    alice, bob = Player(port, alice_token), Player(port, bob_token)
    try:
        _, table = alice.retrying("POST", "/tables", {"ruleset": "classic"})
        token = table["table"]
        bob.retrying("POST", f"/tables/{token}/join", {})
        alice.retrying("POST", f"/tables/{token}/start", {})
        players = {0: alice, 1: bob}
        restarted: list[None] = []
        for number in range(MOVES):
            if number == RESTART_DATABASE_AT:
                # -l: the new postmaster writes to the log file, not to the pipe this test reads
                # (an inherited pipe would keep pg_ctl's caller waiting after the restart).
                command = (PG_BIN / "pg_ctl", "-D", data, "-m", "fast", "-w", "-l", data / "log", "restart")
                restart = threading.Thread(target=lambda args=command: restarted.append(as_postgres(*args)))
                restart.start()
            if number == STOP_SERVER_AT:
                assert servers.stop(server, signal.SIGTERM) is not None
                server = servers.daphne(port, env, tmp_path / "daphne-2.log")
            play_one_move(players, token)
        restart.join(60)
        assert restarted, "pg_ctl restart did not finish"
    finally:
        servers.stop(server)
    check_stored_state(url, alice.acknowledged + bob.acknowledged)


def check_stored_state(url: str, acknowledged: list[str]) -> None:
    with psycopg.connect(url) as connection:
        deals = connection.execute(
            "select id, ruleset, dealer, deck, snapshot, version, phase, to_play from tables_deal"
        ).fetchall()
        moves = connection.execute("select deal_id, seq, action, client_move_id from tables_move").fetchall()
    assert deals and len(moves) >= MOVES // 2
    logged_ids = {move[3] for move in moves}
    assert set(acknowledged) <= logged_ids, f"acknowledged but lost: {set(acknowledged) - logged_ids}"
    for deal_id, ruleset, dealer, deck, snapshot, version, phase, to_play in deals:
        log = sorted((seq, action) for owner, seq, action, _ in moves if owner == deal_id)
        assert [seq for seq, _ in log] == list(range(1, len(log) + 1)), f"deal {deal_id}: gap in the log"
        replayed = rules.replay(rules.Ruleset.from_dict(ruleset), dealer, deck.split(), [a for _, a in log])
        assert replayed.to_dict() == snapshot, f"deal {deal_id}: stored state differs from its replay"
        assert (replayed.version, replayed.phase, replayed.to_play) == (version, phase, to_play)
