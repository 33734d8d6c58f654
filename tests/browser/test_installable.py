"""The site installs as an app: Chromium's own checks of the manifest and of installability,
in a persistent profile (Chromium never installs from an incognito one)."""

from __future__ import annotations

import json

import pytest

from .profiles import playwright, profile_fixture  # noqa: F401  (fixtures)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


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
