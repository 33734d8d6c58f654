"""The app's shell: the static files the service worker keeps so that pages open offline.

The worker (static/sw.js, served at /sw.js by tables.core.app_shell) is sent with the shell's
URLs and a version made from their contents: a release that changes any of them changes the
worker's bytes, so browsers install it and swap the old shell for the new one.
"""

from __future__ import annotations

import hashlib
import json
from functools import lru_cache
from pathlib import Path

from django.conf import settings
from django.templatetags.static import static

# Folders of static/ every page may load: styles, scripts, images (icons, suits) and fonts (the
# pages use the system's fonts today; a font added here is kept like the rest).
SHELL_FOLDERS = ("css", "js", "img", "fonts")


def _source_root() -> Path:
    return Path(settings.STATICFILES_DIRS[0])


def shell_files() -> list[str]:
    """The shell's paths inside static/, sorted."""
    root = _source_root()
    return sorted(
        path.relative_to(root).as_posix()
        for folder in SHELL_FOLDERS
        if (root / folder).is_dir()
        for path in (root / folder).rglob("*")
        if path.is_file()
    )


def _signature(paths: list[str]) -> tuple[tuple[str, int, int], ...]:
    root = _source_root()
    return tuple((path, (root / path).stat().st_mtime_ns, (root / path).stat().st_size) for path in paths)


@lru_cache(maxsize=4)
def _version(signature: tuple[tuple[str, int, int], ...], worker: bytes) -> str:
    """Read each file once per change of the shell (its names, sizes and times)."""
    digest = hashlib.sha256(worker)
    root = _source_root()
    for path, _mtime, _size in signature:
        digest.update(path.encode())
        digest.update((root / path).read_bytes())
    return digest.hexdigest()[:16]


def worker_prelude(worker: bytes) -> bytes:
    """The lines put before the worker's own code: the shell's version and URLs."""
    paths = shell_files()
    version = _version(_signature(paths), worker)
    urls = [static(path) for path in paths]
    return (
        f"const SHELL_VERSION = {json.dumps(version)};\nconst SHELL_URLS = {json.dumps(urls)};\n"
    ).encode()
