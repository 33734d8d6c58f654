"""Which build of the engine runs: the modules compiled with mypyc by ``make engine``
(build/engine/rules/, outside the sources) or these pure-Python sources.

``rules/__init__.py`` calls `choose` before importing anything else, so the compiled directory,
when chosen, comes first on the package's path and each of its modules shadows the source of the
same name (the modules it lacks still come from here). GINMESA_RULES=pure runs the sources
whatever is built; GINMESA_RULES=compiled fails the import unless the compiled build runs; unset,
the compiled build runs when it is there and was built from the current sources. This module is
never compiled: it is what chooses.
"""

from __future__ import annotations

import hashlib
import os
import warnings
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

SOURCES = Path(__file__).resolve().parent
COMPILED = SOURCES.parent / "build" / "engine" / "rules"
MANIFEST = COMPILED / "MANIFEST"  # written last by build_engine.py: "module sha256-of-its-source" a line


def source_digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def compiled_build_problem() -> str | None:
    """Why the compiled build cannot run (absent, for another Python, older than the sources), or None."""
    if not MANIFEST.exists():
        return "there is no compiled build (make engine)"
    for line in MANIFEST.read_text(encoding="utf-8").splitlines():
        module, digest = line.split()
        if not (COMPILED / f"{module}{EXTENSION_SUFFIXES[0]}").exists():
            return f"the compiled build has no {module} for this Python (make engine)"
        if source_digest(SOURCES / f"{module}.py") != digest:
            return f"rules/{module}.py changed since the compiled build (make engine)"
    return None


def choose(package_path: list[str]) -> str:
    """The build the package will import, "compiled" or "pure"; puts the compiled one first on
    ``package_path`` (the package's ``__path__``) when it is chosen."""
    wanted = os.environ.get("GINMESA_RULES", "")
    if wanted not in ("", "pure", "compiled"):
        raise ImportError(f"GINMESA_RULES is pure or compiled (or unset), not {wanted!r}")
    if wanted == "pure":
        return "pure"
    problem = compiled_build_problem()
    if problem is None:
        package_path.insert(0, str(COMPILED))
        return "compiled"
    if wanted == "compiled":
        raise ImportError(f"GINMESA_RULES=compiled, but {problem}")
    if MANIFEST.exists():  # built but stale: worth a word; no build at all is the ordinary pure install
        warnings.warn(f"running the pure-Python rules engine: {problem}", stacklevel=2)
    return "pure"
