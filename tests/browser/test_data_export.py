"""Download my data in a real browser, in both languages, on a desktop and a phone: from the
profile, ask for the archive (built by its task in the server), download it from the link the
page then offers, and read it: the JSON holds the account's finished matches with their move
logs. No console error and no failed request."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from .conftest import new_context
from .test_archive_pages import finished_match

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
LABELS = {
    "en-US": ("DOWNLOAD YOUR DATA", "MAKE A NEW ARCHIVE", "DOWNLOAD THE ARCHIVE"),
    "es-ES": ("DESCARGAR TUS DATOS", "PREPARAR UN ARCHIVO NUEVO", "DESCARGAR EL ARCHIVO"),
}


@pytest.mark.parametrize(
    ("locale", "device"), [("en-US", {}), ("es-ES", PHONE)], ids=["en-desktop", "es-phone"]
)
def test_ask_for_the_archive_on_the_profile_download_it_and_find_the_matches(
    browser, live_url, accounts, console, screenshots, tmp_path: Path, locale, device
):
    from tables.accounts.models import DataExport

    alice, session = accounts("alice@example.com", "Alice")
    bob, _ = accounts("bob@example.com", "Bob")
    match = finished_match(alice, bob)
    profile_link, ask, download = LABELS[locale]
    context = new_context(browser, live_url, session=session, locale=locale, accept_downloads=True, **device)
    page = console.watch(context.new_page(), "alice")

    page.goto("/me/profile/")
    expect(page.locator("#data-export-link")).to_have_text(profile_link)
    page.locator("#data-export-link").click()
    expect(page).to_have_url(re.compile(r"/me/export/$"))
    expect(page.locator("#export-request")).to_have_text(ask)
    page.locator("#export-request").click()
    link = page.locator("#export-download")
    expect(link).to_have_text(download)  # the server built it at once (its task runs inline)
    assert DataExport.objects.filter(player=alice, status=DataExport.Status.READY).count() == 1
    page.screenshot(path=screenshots / f"data-export-{locale}.png")
    with page.expect_download() as started:
        link.click()
    saved = tmp_path / "archive.json"
    started.value.save_as(saved)
    assert re.fullmatch(r"ginmesa-data-\d{4}-\d{2}-\d{2}\.json", started.value.suggested_filename)
    context.close()

    data = json.loads(saved.read_text(encoding="utf-8"))
    assert data["format"] == "ginmesa-data-export/1"
    assert data["profile"]["display_name"] == "Alice"
    (played,) = data["matches"]
    assert (played["id"], played["opponent"], played["seat"]) == (match.pk, "Bob", 0)
    deals = played["export"]["deals"]
    assert [deal["number"] for deal in deals] == list(
        match.deals.filter(status="over").order_by("number").values_list("number", flat=True)
    )
    assert all(deal["actions"] for deal in deals)
