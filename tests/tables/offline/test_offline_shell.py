"""The server's side of the app offline: the worker carries the shell's URLs and a version made
from their contents, and only a player's own pages say the worker may keep them."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from django.contrib.staticfiles import finders
from django.test import Client

from tables.offline import keeping, shell
from tests.tables.helpers import make_account_client, started

pytestmark = pytest.mark.django_db

PRELUDE = re.compile(rb'^const SHELL_VERSION = "([0-9a-f]{16})";\nconst SHELL_URLS = (\[.*\]);\n')


def served_shell() -> tuple[str, list[str]]:
    response = Client().get("/sw.js")
    found = PRELUDE.match(response.content)
    assert found, response.content[:200]
    return found.group(1).decode(), json.loads(found.group(2))


def test_the_worker_starts_with_the_shell_every_page_loads():
    _, urls = served_shell()
    for needed in ("css/site.css", "css/table.css", "js/site.js", "js/offline.js", "js/table.js",
                   "img/favicon.svg", "img/icons/icon-192.png"):  # fmt: skip
        assert f"/static/{needed}" in urls
    for url in urls:
        assert finders.find(url.removeprefix("/static/")), url
    assert "/static/sw.js" not in urls  # the worker is not part of the shell it keeps
    assert b'addEventListener("fetch"' in Client().get("/sw.js").content


def test_the_shell_version_follows_the_shell_files_contents(settings, tmp_path):
    source = Path(settings.STATICFILES_DIRS[0])
    copy = tmp_path / "static"
    shutil.copytree(source / "css", copy / "css")
    shutil.copyfile(source / "sw.js", copy / "sw.js")
    settings.STATICFILES_DIRS = [copy]
    first, urls = served_shell()
    assert urls == sorted(urls) and all(url.startswith("/static/css/") for url in urls)
    assert served_shell()[0] == first  # the same files, the same version
    (copy / "css" / "site.css").write_text((copy / "css" / "site.css").read_text() + "\n/* next */\n")
    assert served_shell()[0] != first


def test_a_table_page_is_kept_for_its_seated_players_only():
    alice, bob = make_account_client("alice@example.com"), make_account_client("bob@example.com")
    token, _players = started(alice, bob)
    for player in (alice, bob):
        response = player.client.get(f"/t/{token}/")
        assert response.status_code == 200
        assert response[keeping.KEEP_HEADER] == keeping.KEEP
        assert response["Cache-Control"] == "private, no-cache"
    watcher = make_account_client("carol@example.com")
    for visitor in (watcher.client, Client()):
        response = visitor.get(f"/t/{token}/")
        assert response.status_code == 200 and keeping.KEEP_HEADER not in response


def test_my_tables_is_kept_for_a_player_not_for_a_visitor():
    alice = make_account_client("alice@example.com")
    assert alice.client.get("/me/tables/")[keeping.KEEP_HEADER] == keeping.KEEP
    assert keeping.KEEP_HEADER not in Client().get("/me/tables/")


def test_no_other_page_is_kept():
    alice = make_account_client("alice@example.com")
    for path in ("/", "/lobby/", "/me/profile/", "/me/archive/", "/help/"):
        response = alice.client.get(path)
        assert response.status_code == 200 and keeping.KEEP_HEADER not in response, path


def test_the_page_says_where_the_offline_banner_goes():
    page = make_account_client("alice@example.com").client.get("/me/tables/").content.decode()
    assert (
        '<p class="offline-banner" id="offline-banner" role="status" aria-live="polite" hidden></p>' in page
    )
    assert "<body " in page  # the worker marks a kept page at this tag (static/sw.js markedOffline)


def test_shell_lists_only_its_folders():
    assert all(path.split("/")[0] in shell.SHELL_FOLDERS for path in shell.shell_files())


def test_the_help_page_tells_what_the_app_does_offline_in_both_languages():
    english = Client(HTTP_ACCEPT_LANGUAGE="en").get("/help/").content.decode()
    spanish = Client(HTTP_ACCEPT_LANGUAGE="es").get("/help/").content.decode()
    assert "With no network the app still opens My tables" in english
    assert "Sin red, la app abre igualmente Mis mesas" in spanish
