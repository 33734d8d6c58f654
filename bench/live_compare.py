"""Live load of two (or more) checkouts in alternation, on one machine (a benchmark, not a test).

For each run and each checkout in turn: a fresh PostgreSQL database (dropped, created,
migrated with that checkout's code), Redis database --redis-db flushed (that one only), the
stack of bench/README.md ("Live load": two daphnes, the threads worker, beat) started from the
checkout with its own virtualenv, then this checkout's bench/load.py (the same client for every
checkout; accounts are made with the checkout's models) with moves on the sockets. The CPU of
the daphnes and of the worker is read from /proc when the load starts and when it ends, so
"stack CPU per move" is what the stack spent on the load itself (not on opening tables and
connecting). Every process it started is stopped at the end of each run, by its id.

    .venv/bin/python -m bench.live_compare --checkout /work/old-39c8f00 --checkout . \\
        --rate 250 --runs 3 --duration 60

prints one line per run (p50, p99, moves/s reached, stack CPU per move, daphnes' and worker's
CPU, lost, duplicated; with --four-seat-share, the tables of four's moves, p99, rounds netted,
lost and duplicated) and a JSON summary. --profile DIR records each daphne and the worker with py-spy (samples of the thread holding the GIL: its Python CPU)
(`pip install py-spy`, not a dependency of the project) during the load, as collapsed stacks
(DIR/<label>-<run>-daphne<N>.txt, DIR/<label>-<run>-worker.txt) for flame graphs or `bench.live_compare --top FILE`.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
LOAD = HERE / "load.py"
PORTS = (8100, 8101)
TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    """User and system CPU of a process (its threads included) from /proc."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def stack_env(options: argparse.Namespace) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        DATABASE_URL=f"{options.postgres}/{options.database}",
        REDIS_URL=f"redis://{options.redis_host}/{options.redis_db}",
        DEBUG="false",
        SECRET_KEY="bench-secret",
        ALLOWED_HOSTS="127.0.0.1,localhost",
        LOG_LEVEL="WARNING",
        EMAIL_BACKEND="django.core.mail.backends.dummy.EmailBackend",
        PYTHONUNBUFFERED="1",
    )
    return env


def fresh_database(options: argparse.Namespace, checkout: Path, env: dict[str, str]) -> None:
    admin = f"{options.postgres}/postgres"
    run(["psql", admin, "-qc", f'DROP DATABASE IF EXISTS "{options.database}" WITH (FORCE)'])
    run(["psql", admin, "-qc", f'CREATE DATABASE "{options.database}"'])
    run([str(checkout / ".venv/bin/python"), "manage.py", "migrate", "-v", "0"], cwd=checkout, env=env)
    run(["redis-cli", "-h", options.redis_host.split(":")[0], "-n", str(options.redis_db), "flushdb"])


def run(command: list[str], **kwargs: Any) -> None:
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, **kwargs)


def start_stack(checkout: Path, env: dict[str, str], logs: Path) -> dict[str, subprocess.Popen[bytes]]:
    python = str(checkout / ".venv/bin/python")
    commands = {
        f"daphne{index}": [
            python,
            "-m",
            "daphne",
            "-v",
            "0",
            "-b",
            "127.0.0.1",
            "-p",
            str(port),
            "config.asgi:application",
        ]
        for index, port in enumerate(PORTS)
    }
    commands["worker"] = [
        python, "-m", "celery", "-A", "config", "worker", "--pool=threads", "--concurrency=8",
        "--without-gossip", "--without-mingle", "-l", "WARNING",
    ]  # fmt: skip
    commands["beat"] = [
        python,
        "-m",
        "celery",
        "-A",
        "config",
        "beat",
        "-l",
        "WARNING",
        "-s",
        str(logs / "beat-schedule"),
    ]
    processes = {}
    for name, command in commands.items():
        log = open(logs / f"{name}.log", "ab")  # noqa: SIM115 (closed with the process)
        processes[name] = subprocess.Popen(
            command, cwd=checkout, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
        )
    deadline = time.monotonic() + 60
    for port in PORTS:
        while not answers(port):
            if time.monotonic() > deadline:
                stop_stack(processes)
                raise RuntimeError(f"daphne on port {port} did not start (logs in {logs})")
            time.sleep(0.3)
    time.sleep(3)  # the worker and beat connect to Redis
    return processes


def answers(port: int) -> bool:
    with socket.socket() as probe:
        probe.settimeout(0.5)
        return probe.connect_ex(("127.0.0.1", port)) == 0


def stop_stack(processes: dict[str, subprocess.Popen[bytes]]) -> None:
    for process in processes.values():
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGTERM)
    for process in processes.values():
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


def one_run(options: argparse.Namespace, checkout: Path, label: str, number: int) -> dict[str, Any]:
    env = stack_env(options)
    logs = Path(options.logs) / f"{label}-{number}"
    logs.mkdir(parents=True, exist_ok=True)
    fresh_database(options, checkout, env)
    processes = start_stack(checkout, env, logs)
    spies: list[subprocess.Popen[bytes]] = []
    try:
        measured = ("daphne0", "daphne1", "worker")
        load_command = [
            str(checkout / ".venv/bin/python"), "-c",
            "import runpy, sys; sys.argv = sys.argv[1:]; runpy.run_path(sys.argv[0], run_name='__main__')",
            str(LOAD), "--base", ",".join(f"http://127.0.0.1:{port}" for port in PORTS),
            "--tables", str(options.tables), "--rate", str(options.rate), "--duration", str(options.duration),
            "--moves-via", "socket", "--deadlines", "0",
        ]  # fmt: skip
        if options.four_seat_share:  # only then: a checkout's own load.py may not know the option
            load_command += ["--four-seat-share", str(options.four_seat_share)]
        load = subprocess.Popen(
            load_command, cwd=checkout, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )
        assert load.stderr is not None and load.stdout is not None
        before: dict[str, float] = {}
        after: dict[str, float] = {}
        for line in load.stderr:
            sys.stderr.write(f"  {label} {number}: {line}")
            if "load for" in line:
                before = {name: cpu_seconds(processes[name].pid) for name in measured}
                if options.profile:
                    spies = profile(options, processes, label, number)
            elif "load done" in line:
                after = {name: cpu_seconds(processes[name].pid) for name in measured}
        outcome = json.loads(load.stdout.read())
        if load.wait() != 0:
            raise RuntimeError(f"bench.load failed for {label}")
        for spy in spies:
            spy.wait(timeout=120)
    finally:
        for spy in spies:
            if spy.poll() is None:
                spy.terminate()
        stop_stack(processes)
    figures = outcome["load"]
    spent = {name: after[name] - before[name] for name in measured}
    moves = figures["moves"]
    four_seat = {"four_seat": outcome["four_seat"]} if "four_seat" in outcome else {}
    return {
        "checkout": label,
        "run": number,
        "moves": moves,
        "moves_per_second": figures["moves_per_second"],
        "p50_ms": figures["latency_ms"]["p50"],
        "p99_ms": figures["latency_ms"]["p99"],
        "stack_cpu_ms_per_move": round(1000 * sum(spent.values()) / moves, 3),
        "daphnes_cpu_s": round(spent["daphne0"] + spent["daphne1"], 2),
        "worker_cpu_s": round(spent["worker"], 2),
        "lost": figures["lost_versions"],
        "duplicated": figures["duplicated_events"],
        "undelivered": figures["undelivered"],
        "errors": figures["errors"],
        "stages_p99_ms": {name: value["p99"] for name, value in figures["stages_ms"].items()},
        **four_seat,
    }


def profile(
    options: argparse.Namespace, processes: dict[str, subprocess.Popen[bytes]], label: str, number: int
) -> list[subprocess.Popen[bytes]]:
    spy = shutil.which("py-spy") or str(Path(sys.executable).parent / "py-spy")
    folder = Path(options.profile)
    folder.mkdir(parents=True, exist_ok=True)
    spies = []
    for name in ("daphne0", "daphne1", "worker"):
        output = folder / f"{label}-{number}-{name}.txt"
        command = [spy, "record", "--pid", str(processes[name].pid), "--duration", str(int(options.duration))]
        command += ["--rate", "200", "--format", "raw", "--nonblocking", "--gil", "--output", str(output)]
        spies.append(subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
    return spies


def top(files: list[str], count: int = 40) -> None:
    """The functions with the most samples in collapsed stacks, self and inclusive (% of samples)."""
    own: collections.Counter[str] = collections.Counter()
    inclusive: collections.Counter[str] = collections.Counter()
    total = 0
    for name in files:
        for line in Path(name).read_text().splitlines():
            stack, _, samples = line.rpartition(" ")
            weight = int(samples)
            frames = [frame.split(" (")[0] + " (" + frame.split(" (")[-1] for frame in stack.split(";")]
            total += weight
            own[frames[-1]] += weight
            for frame in set(frames):
                inclusive[frame] += weight
    print(f"{total} samples")
    print("inclusive:")
    for frame, weight in inclusive.most_common(count):
        print(f"{100 * weight / total:6.2f}%  {frame}")
    print("self:")
    for frame, weight in own.most_common(count):
        print(f"{100 * weight / total:6.2f}%  {frame}")


def four_seat_line(row: dict[str, Any]) -> str:
    four = row.get("four_seat")
    if four is None:
        return ""
    return (
        f"  tables of four: {four['moves']} moves, p99 {four['latency_ms']['p99']:.1f} ms, "
        f"{four['rounds_netted']} rounds netted, lost {four['lost_versions']}  "
        f"duplicated {four['duplicated_events']}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--checkout", action="append", help="a work tree with .venv (repeat; run in turn)")
    parser.add_argument("--rate", type=float, default=250.0)
    parser.add_argument("--runs", type=int, default=3, help="runs of each checkout, alternating")
    parser.add_argument("--duration", type=float, default=60.0)
    parser.add_argument("--tables", type=int, default=500)
    parser.add_argument("--four-seat-share", type=float, default=0.0, help="bench/load.py's option")
    parser.add_argument("--postgres", default="postgres://postgres@127.0.0.1:5432")
    parser.add_argument("--database", default="ginmesa_bench", help="dropped and created for every run")
    parser.add_argument("--redis-host", default="127.0.0.1:6379")
    parser.add_argument("--redis-db", type=int, default=5, help="flushed for every run")
    parser.add_argument("--logs", default="runs/live_compare", help="the stack's logs, per run")
    parser.add_argument("--profile", help="record the daphnes and the worker with py-spy into this folder")
    parser.add_argument(
        "--top", nargs="+", help="print the hottest functions of these py-spy files, and exit"
    )
    options = parser.parse_args()
    if options.top:
        top(options.top)
        return
    checkouts = [Path(path).resolve() for path in options.checkout or ["."]]
    rows = []
    for number in range(1, options.runs + 1):
        for checkout in checkouts:
            label = checkout.name
            row = one_run(options, checkout, label, number)
            rows.append(row)
            print(
                f"{label:>16} run {number}: p50 {row['p50_ms']:7.1f} ms  p99 {row['p99_ms']:7.1f} ms  "
                f"{row['moves_per_second']:6.1f} moves/s  stack CPU {row['stack_cpu_ms_per_move']:.2f} ms/move "
                f"(daphnes {row['daphnes_cpu_s']} s, worker {row['worker_cpu_s']} s)  "
                f"lost {row['lost']}  duplicated {row['duplicated']}{four_seat_line(row)}",
                flush=True,
            )
    print(json.dumps(rows, indent=2))


if __name__ == "__main__":
    main()
