"""Browser tests: Debian's Chromium driven by Playwright (headless, never a downloaded browser)
against a live daphne server with Channels that runs in this process, so that a test can seed
the deck the services deal. Any console error or uncaught page error fails the test."""

from __future__ import annotations

import os
import shutil
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tables.accounts import services as account_services

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "screenshots"
# The screenshots README.md shows: with REFRESH_DOCS_SCREENSHOTS=1 in the environment, each
# browser test that passes copies those it took over the ones in docs/screenshots/ (README.md,
# "Screenshots").
DOCS_SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
DOCS_SCREENSHOT_NAMES = (
    "desktop-classic.png",
    "desktop-dark.png",
    "desktop-summary.png",
    "laptop-1366x768.png",
    "phone-classic.png",
    "phone-four-colour.png",
    "phone-eleven-cards.png",
    "score-sheet-long-names.png",
)
SERVER_START_SECONDS = 20

# Playwright's sync API keeps an event loop in the test thread; the test's own ORM calls are
# plain synchronous code all the same.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


def pytest_configure(config: pytest.Config) -> None:
    """With SQLite the test database must be a file: the server's threads open their own
    connections, which an in-memory database would not share."""
    from django.conf import settings

    database = settings.DATABASES["default"]
    if database["ENGINE"].endswith("sqlite3"):
        var = Path(settings.VAR_DIR)
        var.mkdir(parents=True, exist_ok=True)
        database.setdefault("TEST", {})["NAME"] = str(var / "test-browser.sqlite3")


@pytest.fixture(autouse=True)
def _clean_cache():
    """No claim of an earlier test (an on-site alert's, kept a day under ids that the next
    test's new rows reuse) or rate limit carries over: the cache starts empty, as in tables/."""
    from django.core.cache import cache

    cache.clear()


@pytest.fixture(autouse=True)
def _tasks_run_in_the_server(monkeypatch):
    """The live server runs in this process with no Celery worker: its background work (a bot's
    turn, an alert, a review) runs inline, as in embedded mode, with Redis (.ci/run) or without."""
    from config.celery import app

    monkeypatch.setitem(app.conf, "task_always_eager", True)


@pytest.fixture(scope="session")
def live_url(django_db_setup, django_db_blocker) -> Iterator[str]:
    """daphne serving config.asgi (HTTP, static files and the sockets) on a free port, or on
    BROWSER_TEST_PORT where a shared machine gives each session its own ports."""
    from daphne.server import Server  # installs the asyncio reactor before Twisted's default
    from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler
    from twisted.internet import reactor

    from config.asgi import application

    server = Server(
        application=ASGIStaticFilesHandler(application),
        endpoints=[f"tcp:port={int(os.environ.get('BROWSER_TEST_PORT', '0'))}:interface=127.0.0.1"],
        signal_handlers=False,
    )
    thread = threading.Thread(target=server.run, name="live-daphne", daemon=True)
    thread.start()
    deadline = time.monotonic() + SERVER_START_SECONDS
    while not server.listening_addresses:
        if time.monotonic() > deadline:
            raise RuntimeError("daphne did not start listening")
        time.sleep(0.05)
    host, port = server.listening_addresses[0]
    yield f"http://{host}:{port}"
    reactor.callFromThread(reactor.stop)
    thread.join(timeout=5)
    with django_db_blocker.unblock():
        _drop_server_connections()


def _drop_server_connections() -> None:
    """The server's worker threads keep PostgreSQL sessions open; the test database can only
    be dropped once they are gone."""
    from django.db import connection

    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                " WHERE datname = current_database() AND pid <> pg_backend_pid()"
            )


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    """Per module: Playwright's sync API keeps an event loop running in this thread while it is
    open, which other suites' asyncio.run() must not find."""
    if not Path(CHROMIUM).exists():
        pytest.skip(f"{CHROMIUM} is missing (.ci/run installs Debian's chromium package)")
    from playwright.sync_api import expect, sync_playwright

    # An expectation waits for the server's answer, which on a loaded machine (a whole suite on
    # each of two cores) took longer than Playwright's 5 s: a bound, not a speed.
    expect.set_options(timeout=15_000)
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


class ConsoleWatch:
    """Collects console errors, uncaught exceptions, failed requests and 4xx/5xx answers of every
    page it watches. A request cut short because the test navigated or reloaded the page
    (net::ERR_ABORTED) is not a failure of the site."""

    def __init__(self) -> None:
        self.errors: list[str] = []

    def watch(self, page, who: str):
        page.on("console", lambda message: self._console(who, message))
        page.on("pageerror", lambda error: self.errors.append(f"{who}: uncaught {error}"))
        page.on("requestfailed", lambda request: self._failed(who, request))
        page.on("response", lambda response: self._answer(who, response))
        return page

    def _failed(self, who: str, request) -> None:
        if request.failure != "net::ERR_ABORTED":
            self.errors.append(f"{who}: {request.method} {request.url} failed: {request.failure}")

    def _answer(self, who: str, response) -> None:
        if response.status >= 400:
            self.errors.append(f"{who}: {response.request.method} {response.url} answered {response.status}")

    def _console(self, who: str, message) -> None:
        if message.type == "error":
            self.errors.append(f"{who}: console error {message.text} at {message.location}")


@pytest.fixture
def console() -> Iterator[ConsoleWatch]:
    watch = ConsoleWatch()
    yield watch
    assert not watch.errors, "JavaScript errors or failed requests during the test:\n" + "\n".join(
        watch.errors
    )


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[pytest.TestReport]:
    report = yield
    if report.when == "call":
        item.stash[CALL_PASSED] = report.passed
    return report


CALL_PASSED = pytest.StashKey[bool]()


@pytest.fixture
def screenshots(request: pytest.FixtureRequest) -> Iterator[Path]:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    started = time.time()
    yield SCREENSHOTS
    if os.environ.get("REFRESH_DOCS_SCREENSHOTS") == "1" and request.node.stash.get(CALL_PASSED, False):
        refresh_docs_screenshots(since=started)


def refresh_docs_screenshots(since: float) -> list[str]:
    """Copy the documented screenshots this test took (newer than ``since``) into docs/."""
    copied = []
    for name in DOCS_SCREENSHOT_NAMES:
        taken = SCREENSHOTS / name
        if taken.exists() and taken.stat().st_mtime >= since:
            shutil.copyfile(taken, DOCS_SCREENSHOTS / name)
            copied.append(name)
    return copied


# The deal the tests play (dealer: seat 1, so the table's owner in seat 0 plays first). Seat 0
# holds 2-3-4♠, 7♥ 7♦ 7♣, 9-10-J♣ and K♦; seat 1 holds nothing that melds; the upcard is 4♦;
# the stock starts 5♥, A♥. Seat 1 can lay 5♠ and 8♣ off onto seat 0's runs.
SEAT0 = "2S 3S 4S 7H 7D KD 7C 9C TC JC"
SEAT1 = "8S QS 3H 9H KH AD 6D JD 8C 5S"
UPCARD_AND_STOCK_TOP = "4D 5H AH"


def seeded_deck() -> list[str]:
    import rules

    first, second = SEAT0.split(), SEAT1.split()
    dealt = [card for pair in zip(first, second, strict=True) for card in pair]
    top = dealt + UPCARD_AND_STOCK_TOP.split()
    return top + [str(card) for card in rules.CARDS if str(card) not in top]


@pytest.fixture
def known_deck(monkeypatch) -> list[str]:
    """Every deal of the test is dealt from `seeded_deck`, seat 1 dealing first: the test's hook
    at the engine boundary (the server runs in this process); nothing of the kind is served."""
    import rules
    from tables.play import engine

    deck = seeded_deck()
    monkeypatch.setattr(rules, "new_deck", lambda: rules.parse_cards(deck))
    monkeypatch.setattr(
        engine,
        "new_match",
        lambda ruleset, first_dealer=None, board=None: rules.Match.new(ruleset, first_dealer=1, board=board),
    )
    return deck


@pytest.fixture
def accounts(transactional_db):
    """Make verified accounts and the session cookie a browser context logs in with."""
    from allauth.account.models import EmailAddress
    from django.contrib.auth import get_user_model
    from django.test import Client

    def make(email: str, name: str):
        user = get_user_model().objects.create_user(username=email.split("@")[0], email=email, password="x")
        EmailAddress.objects.create(user=user, email=email, verified=True, primary=True)
        from tables.accounts import identity

        player = identity.player_for_user(user)
        account_services.update_profile(player, display_name=name)
        client = Client()
        client.force_login(user)
        return player, client.cookies["sessionid"].value

    return make


# The two screens the browser tests play on (a test module may define its own).
PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
DESKTOP = {"viewport": {"width": 1366, "height": 768}}


def new_context(browser, live_url: str, *, session: str | None = None, **options):
    defaults = {"viewport": {"width": 1280, "height": 800}, "locale": "en-US"}
    context = browser.new_context(base_url=live_url, **{**defaults, **options})
    if session:
        context.add_cookies([{"name": "sessionid", "value": session, "url": live_url}])
    return context
