"""The end of a deal and what surrounds the play, in a real browser: against a robot the deal's
end stays on screen until NEXT DEAL; a match's end shows the last showdown with the bonuses;
the move log (on and off, never naming a hidden card); any target score; the count of
spectators; the classic knock's face-down discard. Phone and desktop, English and Spanish."""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import Page, expect

from .conftest import new_context

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WAIT_MS = 15000
PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
DESKTOP = {"viewport": {"width": 1280, "height": 800}}
LAYOUTS = [
    pytest.param({**DESKTOP, "locale": "en-US"}, id="desktop-en"),
    pytest.param({**PHONE, "locale": "es-ES"}, id="phone-es"),
]
CARD_PATTERN = re.compile(r"(?<![A-Za-z0-9_-])([A2-9TJQK][SHDC])(?![A-Za-z0-9_-])")


def open_table(page: Page, token: str) -> Page:
    page.goto(f"/t/{token}/")
    expect(page.locator("#table-app[data-ready='1']")).to_be_attached()
    return page


def robot_table(owner, ruleset: str, **options) -> str:
    from tables.play import services

    table = services.create_table(owner, ruleset=ruleset, **options)
    services.add_bot(table.invite_token, owner, "tito")
    services.start_match(table.invite_token, owner)
    return table.invite_token


def knock_at_once(page: Page) -> None:
    """The seeded deal: seat 0 takes the upcard 4♦ and knocks with K♦ (deadwood 4)."""
    page.locator("#discard").click()
    expect(page.locator("#hand .card")).to_have_count(11)
    page.locator("#btn-knock").click()


@pytest.mark.parametrize("layout", LAYOUTS)
def test_against_a_robot_the_deals_end_stays_until_next_deal(
    browser, live_url, known_deck, accounts, console, screenshots, layout
):
    alice, session = accounts("alice@example.com", "Alice")
    token = robot_table(alice, "classic", turn_seconds=90, move_log=True)
    page = console.watch(new_context(browser, live_url, session=session, **layout).new_page(), "alice")
    open_table(page, token)
    knock_at_once(page)
    summary = page.locator("#summary")
    expect(summary).to_be_visible(timeout=WAIT_MS)
    # what is tested: the box stays, so a wait as long as the robot once took to deal on here
    page.wait_for_timeout(2500)
    expect(summary).to_be_visible()
    expect(page.locator("#summary-title")).to_have_text(re.compile(r"1$"))
    expect(page.locator("#summary .shown")).to_have_count(2)
    spanish = layout["locale"].startswith("es")
    expect(page.locator("#summary .robot-waits")).to_contain_text(
        "SIGUIENTE MANO" if spanish else "NEXT DEAL"
    )
    # The classic knock: its discard lies face down on the pile, and the box and the log say so.
    face_down = "cerró con el descarte boca abajo" if spanish else "knocked with a face-down discard"
    expect(page.locator("#discard .card.back")).to_have_count(1)
    expect(page.locator("#discard .card.face")).to_have_count(0)
    expect(page.locator("#summary .face-down")).to_contain_text(face_down)
    expect(page.locator("#move-log-list")).to_contain_text(face_down)
    page.screenshot(path=str(screenshots / f"deal-end-robot-{layout['locale']}.png"))
    # Closing the box and opening it again, then NEXT DEAL: the player deals on.
    page.locator("#summary-close").click()
    expect(summary).to_be_hidden()
    page.screenshot(path=str(screenshots / f"face-down-knock-{layout['locale']}.png"))
    page.locator("#btn-summary").click()
    expect(summary).to_be_visible()
    page.locator("#summary-next").click()
    expect(page.locator("#deal-pill")).to_contain_text("2", timeout=WAIT_MS)
    expect(summary).to_be_hidden()


def test_when_the_wait_runs_out_the_server_deals_and_the_box_stays_until_closed(
    browser, live_url, known_deck, accounts, console
):
    import datetime as dt

    from django.utils import timezone

    from tables.play import services
    from tables.play.models import Deal, Table

    alice, session = accounts("alice@example.com", "Alice")
    token = robot_table(alice, "classic", turn_seconds=90)
    page = console.watch(new_context(browser, live_url, session=session, **PHONE).new_page(), "alice")
    open_table(page, token)
    knock_at_once(page)
    summary = page.locator("#summary")
    expect(summary).to_be_visible(timeout=WAIT_MS)
    # The player walks away: the wait between deals runs out and the sweeper deals.
    deal_id = Table.objects.get(invite_token=token).current_deal_id
    Deal.objects.filter(pk=deal_id).update(deadline=timezone.now() - dt.timedelta(seconds=1))
    assert services.sweep_overdue() == 1
    expect(page.locator("#deal-pill")).to_contain_text("2", timeout=WAIT_MS)
    expect(summary).to_be_visible()
    expect(page.locator("#summary-title")).to_have_text(re.compile(r"1$"))
    expect(summary).to_contain_text("The clock ran out: the next deal has started.")
    expect(page.locator("#summary-next")).to_be_hidden()
    page.locator("#summary-close").click()
    expect(summary).to_be_hidden()


@pytest.mark.parametrize("layout", LAYOUTS)
def test_a_one_deal_match_shows_both_hands_with_the_bonuses(
    browser, live_url, known_deck, accounts, console, screenshots, layout
):
    alice, session = accounts("alice@example.com", "Alice")
    token = robot_table(alice, "playgridia", turn_seconds=90)
    page = console.watch(new_context(browser, live_url, session=session, **layout).new_page(), "alice")
    open_table(page, token)
    knock_at_once(page)
    summary = page.locator("#summary")
    expect(summary).to_be_visible(timeout=WAIT_MS)
    spanish = layout["locale"].startswith("es")
    expect(summary.locator(".match-end")).to_be_visible()
    expect(summary.locator(".final-scores")).to_be_visible()
    # Without a further click: both hands in melds, the layoffs and the deadwood.
    expect(summary.locator(".shown")).to_have_count(2)
    expect(summary.locator(".shown").first.locator(".mini-group.meld")).to_have_count(3)
    expect(summary.locator(".layoffs li")).not_to_have_count(0)
    expect(summary).to_contain_text("Puntos sueltos" if spanish else "Deadwood")
    page.screenshot(path=str(screenshots / f"match-end-one-deal-{layout['locale']}.png"))


def secret_cards(token: str, seat: int | None) -> set[str]:
    """What ``seat`` (None: a spectator) must never have received: the stock and every card of
    a hand it may not see (a card in them now was never public before)."""
    from tables.play import engine
    from tables.play.models import Table

    table = Table.objects.select_related("current_deal").get(invite_token=token)
    deal = engine.load_deal(table.current_deal)
    public = deal.view(None)
    secret = {str(card) for card in deal.deck[52 - deal.stock_count :]}
    for other in (0, 1):
        if other != seat:
            secret |= {str(card) for card in deal.hand(other)} - {
                str(card) for card in public.known_cards[other]
            }
    return secret


def record_frames(page: Page) -> list[str]:
    frames: list[str] = []
    page.on(
        "websocket", lambda socket: socket.on("framereceived", lambda payload: frames.append(str(payload)))
    )
    return frames


def test_the_move_log_and_the_spectators_count_never_naming_a_hidden_card(
    browser, live_url, known_deck, accounts, console, screenshots
):
    from tables.play import services
    from tables.play.models import Table

    alice, alice_session = accounts("alice@example.com", "Alice")
    bob, _ = accounts("bob@example.com", "Bob")
    _, carol_session = accounts("carol@example.com", "Carol")
    table = services.create_table(alice)  # a day's clock: the move log is on by default
    token = table.invite_token
    services.join_table(token, bob)
    services.start_match(token, alice)

    a = console.watch(new_context(browser, live_url, session=alice_session).new_page(), "alice")
    alice_frames = record_frames(a)
    open_table(a, token)
    expect(a.locator("#move-log")).to_be_visible()
    expect(a.locator("#spectators")).to_be_hidden()
    carol_context = new_context(browser, live_url, session=carol_session, **PHONE, locale="es-ES")
    c = console.watch(carol_context.new_page(), "carol")
    carol_frames = record_frames(c)
    open_table(c, token)
    expect(a.locator("#spectators")).to_contain_text("1 watching", timeout=WAIT_MS)
    expect(a.locator("#spectators")).to_be_visible()

    # Alice draws 5♥ from the stock and discards K♦; Bob draws A♥ and discards 9♥.
    a.locator("#stock").click()
    expect(a.locator("#hand .card")).to_have_count(11)
    a.locator("#hand .card[data-card='KD']").click()
    a.locator("#hand .card[data-card='KD']").click()
    expect(a.locator("#hand .card")).to_have_count(10)
    version = Table.objects.get(pk=table.pk).version
    services.apply_move(token, bob, "draw_stock", version)
    services.apply_move(token, bob, "discard 9H", version + 1)
    log = a.locator("#move-log-list")
    expect(log).to_contain_text("Alice drew 5♥ from the stock")
    expect(log).to_contain_text("Alice discarded K♦")
    expect(log).to_contain_text("Bob drew from the stock", timeout=WAIT_MS)
    expect(log).to_contain_text("Bob discarded 9♥")
    expect(log).not_to_contain_text("A♥")
    spectator_log = c.locator("#move-log-list")
    expect(spectator_log).to_contain_text("Bob descartó 9♥", timeout=WAIT_MS)
    expect(spectator_log).to_contain_text("Alice robó del mazo")
    expect(spectator_log).not_to_contain_text("5♥")
    expect(spectator_log).not_to_contain_text("A♥")
    a.screenshot(path=str(screenshots / "move-log-desktop-en.png"))

    # Every byte of every state the player and the spectator received: no hidden card.
    pages = {0: (a, alice_frames), None: (c, carol_frames)}
    for seat, (page, frames) in pages.items():
        initial = page.locator("#table-state").text_content()
        received = [initial, *frames]
        # The log came over the socket (frames are compact JSON, the page's state is not).
        assert any(re.search(r'"log":\s?\[', frame) for frame in received[1:])
        leaked = set().union(*(CARD_PATTERN.findall(frame) for frame in received)) & secret_cards(token, seat)
        assert not leaked, f"seat {seat} received hidden cards {leaked}"

    carol_context.close()
    expect(a.locator("#spectators")).to_be_hidden(timeout=WAIT_MS)


def test_without_the_move_log_nothing_of_it_is_sent(browser, live_url, known_deck, accounts, console):
    from tables.play import services
    from tables.play.models import Table

    alice, alice_session = accounts("alice@example.com", "Alice")
    bob, _ = accounts("bob@example.com", "Bob")
    table = services.create_table(alice, turn_seconds=45)  # a live clock: the move log is off
    token = table.invite_token
    services.join_table(token, bob)
    services.start_match(token, alice)
    a = console.watch(
        new_context(browser, live_url, session=alice_session, locale="es-ES").new_page(), "alice"
    )
    frames = record_frames(a)
    open_table(a, token)
    a.locator("#stock").click()
    expect(a.locator("#hand .card")).to_have_count(11)
    a.locator("#hand .card[data-card='KD']").click()
    a.locator("#hand .card[data-card='KD']").click()
    expect(a.locator("#hand .card")).to_have_count(10)
    version = Table.objects.get(pk=table.pk).version
    services.apply_move(token, bob, "draw_stock", version)
    services.apply_move(token, bob, "discard 9H", version + 1)
    expect(a.locator("#last-action")).to_contain_text("9♥", timeout=WAIT_MS)
    expect(a.locator("#move-log-list li")).to_have_count(0)
    expect(a.locator("#move-log-off")).to_contain_text("no se repasan los descartes")
    states = [json.loads(a.locator("#table-state").text_content())]
    states += [json.loads(frame)["state"] for frame in frames if '"state"' in frame]
    assert len(states) > 2
    for state in states:
        assert state["options"]["move_log"] is False and state["deal"]["log"] is None
    # Not even the history: Alice's own draw and discard are gone once Bob has moved.
    last = states[-1]["deal"]["view"]["history"]
    assert [event["kind"] for event in last] == ["draw_stock", "discard"]
    assert all(event["seat"] == 1 for event in last)


@pytest.mark.parametrize("layout", LAYOUTS)
def test_any_target_score_from_the_form(browser, live_url, accounts, console, layout):
    from tables.play.models import Table

    _, session = accounts("alice@example.com", "Alice")
    page = console.watch(new_context(browser, live_url, session=session, **layout).new_page(), "alice")
    page.goto("/new/")
    page.locator("#ruleset").select_option("classic")
    page.locator("#target").fill("150")
    page.locator('form[action="/new/"] button[type=submit]:not([value=seek])').click()  # not POST A SEEK
    expect(page.locator("#table-app[data-ready='1']")).to_be_attached()
    table = Table.objects.get()
    assert table.ruleset["target"] == 150 and table.ruleset_name == "classic"
    assert table.move_log is True  # the form's default clock is a day: the log is on
