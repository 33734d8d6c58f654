"""A tournament in a real browser, phone and desktop, Spanish and English: an account creates an
unrated event with a robot, two accounts join by the invite link, the event starts when full,
each player is alerted to the new match and finds it on the tournament page, which follows the
event over the user socket, and opens its table; the page follows the results without a reload
and shows the winner; a player who misses an entry rule is told
which one."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect

from .conftest import DESKTOP, PHONE, new_context

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WAIT_MS = 20_000  # a loaded machine: the page hears within moments over the user socket
LABELS = {
    "en-US": {"create": "CREATE", "join": "JOIN", "robot": "ADD A ROBOT", "winner": "Winner:"},
    "es-ES": {"create": "CREAR", "join": "INSCRIBIRME", "robot": "AÑADIR UN ROBOT", "winner": "Ganador:"},
}
CASES = [("en-US", DESKTOP), ("es-ES", PHONE)]


@pytest.mark.parametrize(("locale", "device"), CASES, ids=["en-desktop", "es-phone"])
def test_an_event_with_a_robot_is_joined_by_link_played_and_won(
    browser, live_url, accounts, console, locale, device
):
    from tables.play import services as play
    from tables.tournaments.models import Pairing, Tournament

    label = LABELS[locale]
    people = {name: accounts(f"{name}@example.com", name.title()) for name in ("alice", "bob", "carol")}
    pages = {
        name: console.watch(
            new_context(browser, live_url, session=session, locale=locale, **device).new_page(), name
        )
        for name, (_, session) in people.items()
    }
    alice = pages["alice"]
    sent_by_alice: list[str] = []
    alice.on("websocket", lambda socket: socket.on("framesent", lambda frame: sent_by_alice.append(frame)))
    alice.goto("/tournaments/new/")
    alice.fill("#nt-name", "Friday club")
    alice.fill("#nt-max", "4")
    alice.fill("#nt-rounds", "1")
    alice.select_option("#nt-visibility", "invite")
    alice.get_by_role("button", name=label["create"], exact=True).click()
    expect(alice.locator("h1")).to_have_text("Friday club")
    alice.get_by_role("button", name=label["join"], exact=True).click()
    alice.get_by_role("button", name=label["robot"], exact=True).click()
    invite = alice.url
    for name in ("bob", "carol"):
        pages[name].goto(invite)
        pages[name].get_by_role("button", name=label["join"], exact=True).click()
    tournament = Tournament.objects.get()
    assert tournament.status == Tournament.Status.RUNNING
    alerted = alice.locator("#toasts .toast", has_text="Friday club")
    expect(alerted).to_be_visible(timeout=WAIT_MS)  # the new match's alert, on the page she is on
    watch = {"type": "watch_tournament", "tournament": tournament.invite_token}
    assert json.dumps(watch, separators=(",", ":")) in sent_by_alice  # her page follows the event
    tokens = {}
    for name, page in pages.items():
        own = Pairing.objects.filter(round__tournament=tournament, table__isnull=False).filter(
            first__player=people[name][0]
        ) | Pairing.objects.filter(round__tournament=tournament, second__player=people[name][0])
        tokens[name] = own.get().table.invite_token
        link = page.locator(f"#tournament-live a[href='/t/{tokens[name]}/']").first
        expect(link).to_be_visible(timeout=WAIT_MS)  # the new match, shown without a reload
    pages["bob"].locator(f"#tournament-live a[href='/t/{tokens['bob']}/']").first.click()
    expect(pages["bob"].locator("#hand .card")).not_to_have_count(0, timeout=WAIT_MS)
    for pairing in Pairing.objects.filter(round__tournament=tournament, table__isnull=False):
        humans = [entry.player for entry in (pairing.first, pairing.second) if not entry.player.is_bot]
        play.resign(pairing.table_id, humans[0])  # its end reaches the tournament after commit
    for name in ("alice", "carol"):
        expect(pages[name].locator("#tournament-winner")).to_contain_text(label["winner"], timeout=WAIT_MS)
    # Bob's table shows the match's end, and no rematch: the pairing is played once.
    expect(pages["bob"].locator("#summary")).to_be_visible(timeout=WAIT_MS)
    expect(pages["bob"].locator("#btn-rematch")).to_be_hidden()


@pytest.mark.parametrize(("locale", "device"), CASES, ids=["en-desktop", "es-phone"])
def test_a_player_who_misses_an_entry_rule_is_told_which(
    browser, live_url, accounts, console, locale, device
):
    from tables.tournaments import services

    creator, _ = accounts("alice@example.com", "Alice")
    _, session = accounts("dave@example.com", "Dave")
    tournament = services.create_tournament(creator, name="Seasoned", max_players=8, min_rated_matches=5)
    page = console.watch(
        new_context(browser, live_url, session=session, locale=locale, **device).new_page(), "dave"
    )
    page.goto(f"/tournaments/{tournament.invite_token}/")
    rule = page.locator("#entry-rules li[data-rule='rated_matches']")
    expect(rule).to_have_attribute("data-met", "no")
    expect(rule).to_contain_text("5")
    expect(page.locator("#join-tournament")).to_have_count(0)
