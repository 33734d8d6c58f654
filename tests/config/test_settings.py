import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def load_settings(**environ):
    clean = {k: v for k, v in os.environ.items() if k not in ("SECRET_KEY", "ALLOWED_HOSTS", "DEBUG")}
    clean.update(environ)
    return subprocess.run(
        [sys.executable, "-c", "import config.settings as s; print(s.DATABASES['default']['ENGINE'])"],
        cwd=ROOT,
        env=clean,
        capture_output=True,
        text=True,
        check=False,
    )


def test_production_without_secret_key_says_what_to_set():
    result = load_settings(DEBUG="false", ALLOWED_HOSTS="ginmesa.example")
    assert result.returncode != 0
    assert "Set SECRET_KEY" in result.stderr


def test_production_without_allowed_hosts_says_what_to_set():
    result = load_settings(DEBUG="false", SECRET_KEY="x" * 50)
    assert result.returncode != 0
    assert "Set ALLOWED_HOSTS" in result.stderr


def test_production_with_its_values_loads_and_uses_the_database_url():
    result = load_settings(
        DEBUG="false",
        SECRET_KEY="x" * 50,
        ALLOWED_HOSTS="ginmesa.example",
        DATABASE_URL="postgres://gin@127.0.0.1:5432/ginmesa",
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "config.postgresql"


def test_malformed_debug_value_is_refused():
    result = load_settings(DEBUG="perhaps")
    assert result.returncode != 0
    assert "DEBUG must be true or false" in result.stderr
