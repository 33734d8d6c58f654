"""Practice from your own mistakes: a player whose reviewed deal has marked decisions opens the
deal's replay, chooses "Practice these mistakes", and walks through two positions, each time
answering and reading LUNA's answer and its reason; in English on a desktop and in Spanish on a
phone. The review is real (a small budget, computed before the page opens); its verdicts on the
player's decisions are planted as mistakes so that the deal has positions to practise."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest
from playwright.sync_api import expect

from .conftest import DESKTOP as DESKTOP_SCREEN
from .conftest import PHONE as PHONE_SCREEN
from .conftest import new_context

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WAIT_MS = 20000
DESKTOP = {**DESKTOP_SCREEN, "locale": "en-US"}
PHONE = {**PHONE_SCREEN, "locale": "es-ES"}
TEXTS = {
    "en-US": {
        "button": "Practice these mistakes",
        "first": re.compile(r"^Position 1 of \d+"),
        "second": re.compile(r"^Position 2 of \d+"),
        "luna": re.compile(r"^LUNA plays"),
        "reason": re.compile(r"deadwood \d+"),
        "next": "Next position",
    },
    "es-ES": {
        "button": "Practicar estos errores",
        "first": re.compile(r"^Posición 1 de \d+"),
        "second": re.compile(r"^Posición 2 de \d+"),
        "luna": re.compile(r"^LUNA (también )?juega"),
        "reason": re.compile(r"puntos sueltos \d+"),
        "next": "Siguiente posición",
    },
}


def reviewed_deal_with_mistakes(alice, bob) -> tuple[int, int]:
    """A finished one-deal match of Alice's (a dead deal is dealt again: its last deal), reviewed,
    her decisions marked mistakes: the match's id and the deal's number."""
    from django.test import Client

    from bots.review import REVIEW_SETTINGS
    from tables.play.models import Match
    from tables.reviews import services as reviews
    from tables.reviews.models import DealReview
    from tests.tables.helpers import ApiClient, play_match, started

    clients = []
    for player in (alice, bob):
        client = Client()
        client.force_login(player.user)
        clients.append(ApiClient(client, name=player.display_name))
    token, players = started(*clients, visibility="public")
    seat = next(seat for seat, client in players.items() if client is clients[0])
    play_match(token, players)
    match = Match.objects.get(table__invite_token=token)
    number = match.deals.count()
    _, to_run = reviews.request_review(reviews.deal_by_match(match.pk, number), alice)
    cheap = replace(REVIEW_SETTINGS, draw_samples=8, discard_samples=6)
    for review_id in to_run:
        assert reviews.run_review(review_id, cheap) == "done"
    row = DealReview.objects.get(deal__match=match, deal__number=number, seat=seat)
    for decision in row.result["decisions"]:
        decision["verdict"] = "mistake"
    row.save(update_fields=["result"])
    return match.pk, number


@pytest.mark.parametrize("device", [DESKTOP, PHONE], ids=["desktop-english", "phone-spanish"])
def test_a_player_practises_two_of_their_mistakes(browser, live_url, accounts, console, screenshots, device):
    alice, session = accounts("alice@example.com", "Alice")
    bob, _ = accounts("bob@example.com", "Bob")
    match_id, number = reviewed_deal_with_mistakes(alice, bob)
    context = new_context(browser, live_url, session=session, **device)
    page = console.watch(context.new_page(), "alice")
    texts = TEXTS[device["locale"]]
    page.goto(f"/matches/{match_id}/deals/{number}/")
    page.get_by_role("button", name=texts["button"]).click(timeout=WAIT_MS)
    expect(page).to_have_url(re.compile(r"/me/practice/$"), timeout=WAIT_MS)
    practice = page.locator("#practice-app[data-ready='1']")
    for heading in (texts["first"], texts["second"]):
        expect(practice.locator("h2")).to_have_text(heading, timeout=WAIT_MS)
        expect(practice.locator(".practice-hand .card").first).to_be_visible()
        practice.locator(".practice-moves button").first.click()
        expect(practice.locator(".practice-luna")).to_have_text(texts["luna"], timeout=WAIT_MS)
        expect(practice.locator(".practice-reason")).to_contain_text(texts["reason"])
        if heading is texts["first"]:
            expect(practice.locator("#practice-next")).to_have_text(texts["next"])
            name = "phone" if device.get("is_mobile") else "desktop"
            page.screenshot(path=str(screenshots / f"{name}-practice.png"))
            practice.locator("#practice-next").click()
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= device["viewport"]["width"], f"the page scrolls sideways: {width}px"
    context.close()
