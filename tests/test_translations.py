"""The translation catalogs: every .po compiles cleanly (a duplicate entry makes compilemessages
fail, and the site would keep serving a stale catalog) and the committed .mo is its compilation."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

LOCALE = Path(__file__).resolve().parents[1] / "locale"
CATALOGS = sorted(LOCALE.glob("*/LC_MESSAGES/*.po"))


@pytest.mark.skipif(shutil.which("msgfmt") is None, reason="needs gettext's msgfmt (Debian's gettext)")
@pytest.mark.parametrize("catalog", CATALOGS, ids=lambda path: str(path.relative_to(LOCALE)))
def test_each_catalog_compiles_to_the_committed_mo(catalog: Path, tmp_path: Path) -> None:
    compiled = tmp_path / "catalog.mo"
    run = subprocess.run(
        ["msgfmt", "--check", "-o", str(compiled), str(catalog)], capture_output=True, text=True, check=False
    )
    assert run.returncode == 0, run.stderr
    assert compiled.read_bytes() == catalog.with_suffix(".mo").read_bytes(), (
        f"{catalog.with_suffix('.mo')} is not the compilation of {catalog.name}: run manage.py compilemessages"
    )
