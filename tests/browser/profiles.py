"""Persistent browser profiles: Chromium never installs a site nor keeps a push registration
in an incognito profile, which is what a Playwright browser context is. A test module imports
``playwright`` and ``profile_fixture`` (the fixture ``profile``) from here to use them."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from .conftest import CHROMIUM, CHROMIUM_ARGS


@pytest.fixture(scope="module")
def playwright() -> Iterator[object]:
    if not Path(CHROMIUM).exists():
        pytest.skip(f"{CHROMIUM} is missing (.ci/run installs Debian's chromium package)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as running:
        yield running


@pytest.fixture(name="profile")
def profile_fixture(playwright, live_url, tmp_path) -> Iterator[Callable[..., object]]:
    """Open a persistent browser profile (a context) on the live site."""
    opened = []

    def open_profile(locale: str = "en-US", viewport: dict | None = None, **options):
        context = playwright.chromium.launch_persistent_context(
            str(tmp_path / f"profile-{len(opened)}"),
            executable_path=CHROMIUM,
            headless=True,
            args=CHROMIUM_ARGS,
            base_url=live_url,
            locale=locale,
            viewport=viewport or {"width": 1280, "height": 800},
            **options,
        )
        opened.append(context)
        return context

    yield open_profile
    for context in opened:
        context.close()
