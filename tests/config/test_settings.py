import os
import subprocess
import sys
from pathlib import Path

import pytest

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


PRODUCTION = {"DEBUG": "false", "SECRET_KEY": "x" * 50, "ALLOWED_HOSTS": "ginmesa.example"}
HSTS_OF = (
    "from django.conf import settings as s; "
    "print(s.SECURE_HSTS_SECONDS, s.SECURE_HSTS_INCLUDE_SUBDOMAINS, s.SECURE_HSTS_PRELOAD)"
)
# Two requests through the whole middleware stack: over HTTPS as the proxy reports it, and plain.
HSTS_HEADERS = """
import django; django.setup()
from django.test import Client
client = Client(HTTP_HOST="ginmesa.example")
secure = client.get("/api/openapi.json", HTTP_X_FORWARDED_PROTO="https", secure=True)
plain = client.get("/api/openapi.json")
print(secure.status_code, secure.headers.get("Strict-Transport-Security"))
print(plain.status_code, plain.headers.get("Strict-Transport-Security"))
"""


def run_code(code: str, **environ):
    ours = ("SECRET_KEY", "ALLOWED_HOSTS", "DEBUG", "SECURE_HSTS_")
    clean = {k: v for k, v in os.environ.items() if not k.startswith(ours)}
    clean.update(environ, DJANGO_SETTINGS_MODULE="config.settings")
    return subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=clean, capture_output=True, text=True, check=False
    )


def test_production_sends_hsts_for_a_year_by_default_and_development_none():
    production = run_code(HSTS_OF, **PRODUCTION)
    assert production.returncode == 0, production.stderr
    assert production.stdout.split() == ["31536000", "False", "False"]
    # DEBUG on (make run on http://127.0.0.1): no HSTS, whatever the environment says.
    development = run_code(HSTS_OF, DEBUG="true", SECURE_HSTS_SECONDS="600")
    assert development.returncode == 0, development.stderr
    assert development.stdout.split() == ["0", "False", "False"]


def test_hsts_settings_come_from_the_environment_and_bad_ones_are_refused():
    chosen = run_code(
        HSTS_OF,
        **PRODUCTION,
        SECURE_HSTS_SECONDS="63072000",
        SECURE_HSTS_INCLUDE_SUBDOMAINS="true",
        SECURE_HSTS_PRELOAD="true",
    )
    assert chosen.returncode == 0, chosen.stderr
    assert chosen.stdout.split() == ["63072000", "True", "True"]
    assert run_code(HSTS_OF, **PRODUCTION, SECURE_HSTS_SECONDS="0").stdout.split()[0] == "0"
    negative = run_code(HSTS_OF, **PRODUCTION, SECURE_HSTS_SECONDS="-1")
    assert negative.returncode != 0 and "SECURE_HSTS_SECONDS must be 0" in negative.stderr
    preload = run_code(HSTS_OF, **PRODUCTION, SECURE_HSTS_PRELOAD="true")
    assert preload.returncode != 0 and "SECURE_HSTS_PRELOAD needs" in preload.stderr


@pytest.mark.slow  # starts production servers in subprocesses, some 5 s
def test_https_answers_carry_hsts_in_production_and_never_in_development(tmp_path):
    production = run_code(HSTS_HEADERS, **PRODUCTION, GINMESA_VAR_DIR=str(tmp_path))
    assert production.returncode == 0, production.stderr
    assert production.stdout.splitlines() == ["200 max-age=31536000", "200 None"]  # HTTPS only
    development = run_code(
        HSTS_HEADERS, DEBUG="true", ALLOWED_HOSTS="ginmesa.example", GINMESA_VAR_DIR=str(tmp_path)
    )
    assert development.returncode == 0, development.stderr
    assert development.stdout.splitlines() == ["200 None", "200 None"]
