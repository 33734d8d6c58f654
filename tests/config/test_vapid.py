"""Web-push keys: embedded mode makes a pair beside its SQLite file and keeps it; production
reads its pair from the environment and never gets one invented."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

from config import vapid
from tables.alerts import checks

ROOT = Path(__file__).resolve().parents[2]
SHOW_KEYS = "import config.settings as s; print(s.VAPID_PUBLIC_KEY); print(s.VAPID_PRIVATE_KEY)"


def start(var_dir: Path, **environ: str) -> subprocess.CompletedProcess[str]:
    """Load the settings as a fresh process does, with ``environ`` and no push keys of the shell."""
    clean = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith("VAPID_")
        and key not in ("DATABASE_URL", "DEBUG", "SECRET_KEY", "ALLOWED_HOSTS")
    }
    clean.update(GINMESA_VAR_DIR=str(var_dir), **environ)
    return subprocess.run(
        [sys.executable, "-c", SHOW_KEYS], cwd=ROOT, env=clean, capture_output=True, text=True, check=False
    )


def test_embedded_mode_makes_a_key_pair_beside_the_sqlite_file_once(tmp_path):
    first = start(tmp_path)
    assert first.returncode == 0, first.stderr
    public, private = first.stdout.split()
    kept = tmp_path / vapid.KEYS_FILE
    assert "made a key pair" in first.stderr and str(kept) in first.stderr
    assert stat.S_IMODE(kept.stat().st_mode) == 0o600  # a private key: its owner's alone
    assert json.loads(kept.read_text()) == {"public_key": public, "private_key": private}
    assert len(vapid.b64url(b"\x04" + b"\0" * 64)) == len(public)  # an uncompressed P-256 point
    again = start(tmp_path)
    assert again.returncode == 0, again.stderr
    assert again.stdout.split() == [public, private]
    assert "made a key pair" not in again.stderr


def test_keys_in_the_environment_win_and_nothing_is_written(tmp_path):
    public, private = vapid.generate_keys()
    result = start(tmp_path, VAPID_PUBLIC_KEY=public, VAPID_PRIVATE_KEY=private)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == [public, private]
    assert not (tmp_path / vapid.KEYS_FILE).exists()


def test_production_never_invents_keys(tmp_path):
    result = start(
        tmp_path,
        DEBUG="false",
        SECRET_KEY="x" * 50,
        ALLOWED_HOSTS="ginmesa.example",
        DATABASE_URL="postgres://gin@127.0.0.1:5432/ginmesa",
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == []  # both empty: push is off
    assert not (tmp_path / vapid.KEYS_FILE).exists()


def test_half_a_key_pair_stops_start_up_saying_what_to_set(tmp_path):
    result = start(tmp_path, VAPID_PUBLIC_KEY=vapid.generate_keys()[0])
    assert result.returncode != 0
    assert "Set both VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY" in result.stderr


def test_two_processes_starting_at_once_agree_on_one_pair(tmp_path):
    found: list[tuple[str, str]] = []
    threads = [threading.Thread(target=lambda: found.append(vapid.embedded_keys(tmp_path))) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(found) == 8 and len(set(found)) == 1
    assert [path.name for path in tmp_path.iterdir()] == [vapid.KEYS_FILE]  # no temporary file left


def test_a_damaged_key_file_says_what_to_do(tmp_path):
    (tmp_path / vapid.KEYS_FILE).write_text("{not json")
    with pytest.raises(ImproperlyConfigured, match="delete it to make a new one"):
        vapid.embedded_keys(tmp_path)


def test_the_start_up_check_says_when_push_is_off(settings):
    settings.VAPID_PUBLIC_KEY = settings.VAPID_PRIVATE_KEY = ""
    [warning] = checks.web_push_keys(None)
    assert warning.id == "alerts.W001" and "manage.py vapid_keys" in warning.hint
    settings.VAPID_PUBLIC_KEY, settings.VAPID_PRIVATE_KEY = vapid.generate_keys()
    assert checks.web_push_keys(None) == []
