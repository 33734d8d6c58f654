"""Real server processes for the live tests: daphne / runserver / Celery on loopback."""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

from django.conf import settings

ROOT = Path(__file__).resolve().parents[3]
PYTHON = sys.executable


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def database_url() -> str:
    """The test database as a URL another process can open (PostgreSQL, or a SQLite file)."""
    db = settings.DATABASES["default"]
    if db["ENGINE"].endswith("sqlite3"):
        name = str(db["NAME"])
        if name.startswith("file:") or name == ":memory:":
            raise RuntimeError("the test database is SQLite in memory: no other process can open it")
        return f"sqlite:///{name}" if name.startswith("/") else f"sqlite:////{Path(name).resolve()}"
    auth = db["USER"] + (f":{db['PASSWORD']}" if db["PASSWORD"] else "")
    return f"postgres://{auth}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


def child_env(**extra: str) -> dict[str, str]:
    """The environment of a server process: never pytest's markers (they keep the embedded
    scheduler from starting) and, unless given, no Redis."""
    env = {key: value for key, value in os.environ.items() if not key.startswith("PYTEST")}
    env.pop("REDIS_URL", None)
    env.update(extra)
    return env


def start(args: list[str], env: dict[str, str], log: Path) -> subprocess.Popen[bytes]:
    handle = log.open("w")
    return subprocess.Popen(
        args, cwd=ROOT, env=env, stdout=handle, stderr=subprocess.STDOUT, start_new_session=True
    )


def wait_for_port(port: int, process: subprocess.Popen[bytes], log: Path, seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"server exited early:\n{log.read_text()[-3000:]}")
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.1)
    raise RuntimeError(f"nothing listens on {port}:\n{log.read_text()[-3000:]}")


def wait_for_text(log: Path, text: str, process: subprocess.Popen[bytes], seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if text in log.read_text(errors="replace"):
            return
        if process.poll() is not None:
            raise RuntimeError(f"process exited early:\n{log.read_text()[-3000:]}")
        time.sleep(0.1)
    raise RuntimeError(f"{text!r} never appeared:\n{log.read_text()[-3000:]}")


def tasks_done(log: Path, work_name: str) -> int:
    """How many runs of the task ``work_name`` (registry.Work.name) a worker's log shows ended:
    Celery logs "Task <name>[<id>] succeeded in ..." at INFO (or "raised" on an error)."""
    ended = re.compile(re.escape(work_name) + r"\[[^\]]+\] (succeeded|raised)")
    return len(ended.findall(log.read_text(errors="replace")))


def stop(process: subprocess.Popen[bytes], sig: int = signal.SIGTERM, seconds: float = 10) -> int:
    """Signal the process's group (it and its children); kill it if it lingers."""
    if process.poll() is None:
        os.killpg(process.pid, sig)
        try:
            process.wait(seconds)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
    return process.returncode


def redis_server(port: int, log: Path) -> subprocess.Popen[bytes]:
    """A private redis-server on loopback, keeping nothing on disk."""
    args = ["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"]
    process = start(args, {}, log)
    wait_for_port(port, process, log)
    return process


def daphne(port: int, env: dict[str, str], log: Path) -> subprocess.Popen[bytes]:
    args = [PYTHON, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port), "config.asgi:application"]
    process = start(args, env, log)
    wait_for_port(port, process, log)
    return process


def celery_worker(
    env: dict[str, str], log: Path, *, beat: bool = False, queues: str | None = None
) -> subprocess.Popen[bytes]:
    """A worker of one process; ``queues``: its -Q (README, "Production"), every queue if None."""
    args = [PYTHON, "-m", "celery", "-A", "config", "worker", "--pool=solo", "--without-gossip"]
    args += ["--without-mingle", "--loglevel=INFO", "-n", f"test-{time.monotonic_ns()}@%h"]
    if queues is not None:
        args += ["-Q", queues]
    if beat:
        args += ["-B", "-s", str(log.with_suffix(".beat"))]
    process = start(args, env, log)
    wait_for_text(log, "ready.", process)
    return process
