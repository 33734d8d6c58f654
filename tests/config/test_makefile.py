"""`make run` on another address or port: the links in emails and notifications follow it."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.skipif(shutil.which("make") is None, reason="needs GNU make")
def test_make_run_gives_the_site_its_own_address_for_links() -> None:
    dry_run = subprocess.run(
        ["make", "-n", "run", "HOST=localhost", "PORT=8080"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    [serve] = [line for line in dry_run.stdout.splitlines() if "runserver" in line]
    assert 'SITE_URL="${SITE_URL:-http://localhost:8080}"' in serve and serve.endswith(
        "runserver localhost:8080"
    )
