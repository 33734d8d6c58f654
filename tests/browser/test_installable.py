"""The site installs as an app: Chromium's own checks of the manifest and of installability.

Chromium never installs from an incognito profile, which is what a Playwright browser context
is: these tests open a persistent profile of their own."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from .conftest import CHROMIUM, CHROMIUM_ARGS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture(scope="module")
def playwright() -> Iterator[object]:
    if not Path(CHROMIUM).exists():
        pytest.skip(f"{CHROMIUM} is missing (.ci/run installs Debian's chromium package)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as running:
        yield running


@pytest.fixture
def profile(playwright, live_url, tmp_path) -> Iterator[Callable[..., object]]:
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


@pytest.mark.parametrize(
    ("locale", "viewport"),
    [("en-US", {"width": 1280, "height": 800}), ("es-ES", {"width": 390, "height": 844})],
)
def test_chromium_finds_the_manifest_valid_and_the_site_installable(
    profile, live_url, console, locale, viewport
):
    context = profile(locale, viewport)
    page = console.watch(context.new_page(), "visitor")
    page.goto("/")
    scope = page.evaluate("navigator.serviceWorker.ready.then((registration) => registration.scope)")
    assert scope == f"{live_url}/"
    cdp = context.new_cdp_session(page)
    manifest = cdp.send("Page.getAppManifest")
    assert manifest["url"] == f"{live_url}/manifest.webmanifest"
    assert manifest["errors"] == []
    data = json.loads(manifest["data"])
    assert data["display"] == "standalone" and data["start_url"] == "/"
    assert {icon["purpose"] for icon in data["icons"]} == {"any", "maskable"}
    assert cdp.send("Page.getInstallabilityErrors")["installabilityErrors"] == []
