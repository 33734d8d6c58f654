"""HTTP benchmark: GET /api/tables/{token} (the table state, full middleware, its queries, a
bearer token) against a bare Django JSON view, both under daphne on loopback, measured with wrk
in the same run. A benchmark, not a test: see bench/README.md for the command and figures.

    .venv/bin/python -m bench.http_load [--seconds 20] [--connections 32] [--threads 2] [--processes 2]

``--processes N`` serves each endpoint with N daphne processes on N ports and drives each with
its own wrk and an equal share of the connections, as a balancer in front of them would.

The database is a fresh SQLite file in a temporary directory unless DATABASE_URL is set.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from pathlib import Path

from tests.tables.live import servers

SETUP = """
from django.contrib.auth import get_user_model
from tables.accounts import identity
from tables.play import services
users = [get_user_model().objects.create_user(username=n, email=f"{n}@example.com") for n in ("alice", "bob")]
alice, bob = (identity.player_for_user(user) for user in users)
table = services.create_table(alice)
services.join_table(table.pk, bob)
services.start_match(table.pk, alice)
print("TABLE", table.invite_token, "TOKEN", identity.issue_api_token(users[0], "bench")[1])
"""


def run_manage(env: dict[str, str], *args: str) -> str:
    done = subprocess.run(
        [servers.PYTHON, "manage.py", *args], cwd=servers.ROOT, env=env, capture_output=True, text=True
    )
    if done.returncode:
        sys.exit(done.stderr[-2000:])
    return done.stdout


def wrk(
    urls: list[str],
    seconds: int,
    connections: int,
    threads: int,
    token: str | None = None,
    headers: Sequence[str] = (),
) -> dict[str, float]:
    """One wrk per server process, at once, each with its share of the connections (as a balancer
    would spread them): requests add up; p50 and p99 are the worst process's (conservative).
    ``token`` is sent as a bearer token, ``headers`` ("Name: value", e.g. a session cookie) as they are."""
    sent = [*headers, f"Authorization: Bearer {token}"] if token else list(headers)
    runs = []
    for url in urls:
        command = [
            "wrk",
            f"-t{max(1, threads // len(urls))}",
            f"-c{connections // len(urls)}",
            f"-d{seconds}s",
        ]
        command += ["--latency", url]
        for header in sent:
            command[1:1] = ["-H", header]
        runs.append(subprocess.Popen(command, stdout=subprocess.PIPE, text=True))
    figures = [_figures(run.communicate()[0]) for run in runs]
    return {
        "rps": sum(figure["rps"] for figure in figures),
        "p50_ms": max(figure["p50_ms"] for figure in figures),
        "p99_ms": max(figure["p99_ms"] for figure in figures),
        "non_2xx": sum(figure["non_2xx"] for figure in figures),
    }


@contextlib.contextmanager
def daphnes(ports: list[int], env: dict[str, str], workdir: Path) -> Iterator[None]:
    """A daphne on each port for the block; then they stop and ``workdir`` goes."""
    pool = [servers.daphne(port, env, workdir / f"{port}.log") for port in ports]
    try:
        time.sleep(1)
        yield
    finally:
        for server in pool:
            servers.stop(server)
        shutil.rmtree(workdir, ignore_errors=True)


def measure(name: str, urls: list[str], options: argparse.Namespace, headers: Sequence[str] = ()) -> None:
    """A second of warm-up, then the measured run; one line of figures for ``name``."""
    wrk(urls, 1, options.connections, options.threads, headers=headers)
    figures = wrk(urls, options.seconds, options.connections, options.threads, headers=headers)
    print(
        f"{name}: {figures['rps']:.0f} req/s, p50 {figures['p50_ms']:.1f} ms, "
        f"p99 {figures['p99_ms']:.1f} ms, non-2xx {figures['non_2xx']:.0f}"
    )


def _figures(out: str) -> dict[str, float]:
    return {
        "rps": float(_found(r"Requests/sec:\s+([\d.]+)", out)),
        "p50_ms": _ms(_found(r"50%\s+([\d.]+\w+)", out)),
        "p99_ms": _ms(_found(r"99%\s+([\d.]+\w+)", out)),
        "non_2xx": float(m.group(1)) if (m := re.search(r"Non-2xx or 3xx responses: (\d+)", out)) else 0.0,
    }


def _found(pattern: str, out: str) -> str:
    """The first group of ``pattern`` in wrk's output, which always prints these lines."""
    found = re.search(pattern, out)
    if found is None:
        raise RuntimeError(f"wrk printed no {pattern!r}:\n{out}")
    return found.group(1)


def _ms(text: str) -> float:
    value, unit = _found(r"([\d.]+)", text), _found(r"[\d.]+(\w+)", text)
    return float(value) * {"us": 0.001, "ms": 1.0, "s": 1000.0}[unit]


def load_options(description: str, seconds: int, connections: int, processes: int) -> argparse.Namespace:
    """The command line of an HTTP load benchmark: how long, how many connections and servers."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--seconds", type=int, default=seconds)
    parser.add_argument("--connections", type=int, default=connections)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--processes", type=int, default=processes, help="daphne processes, one wrk each")
    parser.add_argument(
        "--port", type=int, help="the first daphne's port, the next ones follow (default: free ports)"
    )
    return parser.parse_args()


def server_ports(options: argparse.Namespace) -> list[int]:
    """The daphne processes' ports: from --port on (a range kept for this run), else free ones."""
    if options.port:
        return [options.port + n for n in range(options.processes)]
    return [servers.free_port() for _ in range(options.processes)]


def fresh_site(workdir: Path) -> dict[str, str]:
    """The environment of the benchmark's servers, on a fresh database (DATABASE_URL, else a
    SQLite file in ``workdir``), migrated: production settings but for the secret and the host."""
    url = os.environ.get("DATABASE_URL") or f"sqlite:////{workdir}/bench.sqlite3"
    env = servers.child_env(
        DATABASE_URL=url,
        DEBUG="false",
        SECRET_KEY="bench-" + "x" * 40,
        ALLOWED_HOSTS="127.0.0.1",
        LOG_LEVEL="WARNING",
    )
    run_manage(env, "migrate", "--noinput")
    return env


def main() -> None:
    options = load_options(__doc__.splitlines()[0], seconds=20, connections=32, processes=1)
    workdir = Path(tempfile.mkdtemp(prefix="ginmesa-bench-"))
    env = fresh_site(workdir)
    words = run_manage(env, "shell", "-c", SETUP).split()
    table, token = words[words.index("TABLE") + 1], words[words.index("TOKEN") + 1]
    results = {}
    for name, settings_module, path, auth in [
        ("table state", "config.settings", f"/api/tables/{table}", token),
        ("bare Django JSON view", "bench.bare_settings", "/bare/", None),
    ]:
        server_env = {**env, "DJANGO_SETTINGS_MODULE": settings_module}
        ports = server_ports(options)
        pool = [servers.daphne(port, server_env, workdir / f"{port}.log") for port in ports]
        urls = [f"http://127.0.0.1:{port}{path}" for port in ports]
        try:
            time.sleep(1)
            wrk(urls, 3, options.connections, options.threads, auth)  # warm-up
            results[name] = wrk(urls, options.seconds, options.connections, options.threads, auth)
        finally:
            for server in pool:
                servers.stop(server)
    shutil.rmtree(workdir, ignore_errors=True)
    state, bare = results["table state"], results["bare Django JSON view"]
    for name, figures in results.items():
        print(
            f"{name}: {figures['rps']:.0f} req/s, p50 {figures['p50_ms']:.1f} ms, "
            f"p99 {figures['p99_ms']:.1f} ms, non-2xx {figures['non_2xx']:.0f}"
        )
    print(f"ratio table state / bare: {state['rps'] / bare['rps']:.2f}")


if __name__ == "__main__":
    main()
