"""The installable site: the manifest, its icons and the service worker at the site's root."""

from __future__ import annotations

import json
import struct

import pytest
from django.contrib.staticfiles import finders
from django.test import Client

pytestmark = pytest.mark.django_db


def png_size(path: str) -> tuple[int, int]:
    with open(path, "rb") as file:
        head = file.read(24)
    assert head[:8] == b"\x89PNG\r\n\x1a\n" and head[12:16] == b"IHDR"
    return struct.unpack(">II", head[16:24])


def test_the_manifest_is_served_as_a_manifest_with_its_icons():
    response = Client().get("/manifest.webmanifest")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/manifest+json"
    data = json.loads(response.content)
    assert data["start_url"] == "/" and data["scope"] == "/" and data["display"] == "standalone"
    assert data["short_name"] == "Ginmesa" and data["theme_color"] and data["background_color"]
    sizes = {(icon["sizes"], icon["purpose"]) for icon in data["icons"]}
    assert sizes == {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")}
    for icon in data["icons"]:
        assert icon["type"] == "image/png"
        found = finders.find(icon["src"].removeprefix("/static/"))
        width, height = png_size(found)
        assert f"{width}x{height}" == icon["sizes"]


def test_the_manifest_speaks_the_visitors_language():
    english = json.loads(Client(HTTP_ACCEPT_LANGUAGE="en").get("/manifest.webmanifest").content)
    spanish = json.loads(Client(HTTP_ACCEPT_LANGUAGE="es").get("/manifest.webmanifest").content)
    assert english["lang"] == "en" and spanish["lang"] == "es"
    assert english["description"] == "Gin Rummy at persistent tables"
    assert spanish["description"] != english["description"]


def test_the_service_worker_is_served_from_the_root():
    response = Client().get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert b'addEventListener("push"' in response.content
    assert Client().post("/sw.js").status_code == 405


def test_every_page_links_the_manifest():
    for path in ("/", "/lobby/", "/new/", "/accounts/login/"):
        page = Client().get(path).content.decode()
        assert '<link rel="manifest" href="/manifest.webmanifest">' in page, path
        assert '<meta name="theme-color"' in page
