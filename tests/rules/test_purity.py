"""The engine is a pure library: every import under rules/ is the standard library or rules itself."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

RULES_DIR = Path(__file__).resolve().parents[2] / "rules"
MODULES = sorted(RULES_DIR.glob("*.py"))


def imported_roots(path: Path) -> list[tuple[int, str]]:
    """(line, top-level package) of every absolute import in a file; relative imports stay inside rules."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    roots = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            roots += [(node.lineno, alias.name.split(".")[0]) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            roots.append((node.lineno, node.module.split(".")[0]))
    return roots


def test_the_rules_package_has_modules():
    assert {"deal.py", "match.py", "__init__.py"} <= {path.name for path in MODULES}


@pytest.mark.parametrize("path", MODULES, ids=lambda path: path.name)
def test_only_the_standard_library_and_rules_are_imported(path):
    allowed = set(sys.stdlib_module_names) | {"rules", "__future__"}
    outside = [
        f"{path.name}:{line} imports {root}" for line, root in imported_roots(path) if root not in allowed
    ]
    assert not outside, "; ".join(outside)


def test_the_check_catches_django(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text("import json\nfrom django.db import models\n", encoding="utf-8")
    assert imported_roots(sample) == [(1, "json"), (2, "django")]
    assert "django" not in sys.stdlib_module_names
