"""The time bank in the browser, on a desktop in English and a phone in Spanish: at a slow table
(a bank by default) the player to play runs out of turn time; the opponent's page shows the turn
clock at zero and the bank ticking down, then, once the bank is spent too, the server plays for
them (the sweeper) and the turn, with its own full clock and bank, passes to the opponent."""

from __future__ import annotations

import datetime as dt
import re
import time

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from tables.play import services
from tables.play.models import Deal, Match, Move

from .test_table_time import DEVICES, WAIT_MS, open_page

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TURN_LEFT, BANK_LEFT = 3, 8  # seconds: the turn's own time, then the bank behind it

TEXTS = {
    "en": {
        "bank": "Bank:",
        "full_bank": "Bank: 3 days left",
        "your_move": "Your move: take the upcard or pass.",
    },
    "es": {
        "bank": "Reserva:",
        "full_bank": "Reserva: quedan 3 días",
        "your_move": "Tu turno: toma la abierta o pasa.",
    },
}


def _table_running_out(alice, bob) -> tuple[str, int, int]:
    """A slow classic table whose player to play has TURN_LEFT seconds of turn and BANK_LEFT of
    bank: (its token, the seat to play, the deal's id)."""
    table = services.create_table(alice, ruleset="classic")
    services.join_table(table.invite_token, bob)
    services.start_match(table.invite_token, alice)
    deal = Deal.objects.get(pk=type(table).objects.get(pk=table.pk).current_deal_id)
    seat = deal.to_play
    match = Match.objects.get(pk=deal.match_id)
    banks = list(match.banks)
    banks[seat] = BANK_LEFT
    Match.objects.filter(pk=match.pk).update(banks=banks)
    deadline = timezone.now() + dt.timedelta(seconds=TURN_LEFT + BANK_LEFT)
    Deal.objects.filter(pk=deal.pk).update(deadline=deadline)
    return table.invite_token, seat, deal.pk


@pytest.mark.parametrize(("device", "lang"), DEVICES)
def test_the_bank_ticks_after_the_turn_clock_then_the_server_plays(
    browser, live_url, known_deck, accounts, console, screenshots, device, lang
):
    text = TEXTS[lang]
    alice, alice_session = accounts("alice@example.com", "Alice")
    bob, bob_session = accounts("bob@example.com", "Bob")
    token, seat, deal = _table_running_out(alice, bob)
    watcher_session = bob_session if seat == 0 else alice_session
    page = open_page(browser, live_url, watcher_session, device, console, "watcher", f"/t/{token}/")
    bank = page.locator("#clock-bank")
    expect(bank).to_be_visible()
    expect(bank).to_contain_text(text["bank"])

    # The turn's own time runs out: the turn clock stays at zero and the bank counts down.
    expect(bank).to_have_class(re.compile(r"\bspending\b"), timeout=WAIT_MS)
    expect(page.locator("#clock")).to_have_text("0:00")
    seen = bank.inner_text()
    expect(bank).not_to_have_text(seen, timeout=WAIT_MS)  # a second later, a second less
    page.screenshot(path=str(screenshots / f"time-bank-ticking-{lang}.png"))
    assert not Move.objects.filter(source=Move.Source.TIMEOUT).exists()
    assert services.sweep_overdue() == 0 or Deal.objects.get(pk=deal).deadline <= timezone.now()

    # The bank is spent too: the sweeper plays for the absent player, and the turn passes.
    while Deal.objects.get(pk=deal).deadline > timezone.now():
        time.sleep(0.2)
    assert services.sweep_overdue() == 1
    assert Move.objects.filter(source=Move.Source.TIMEOUT, seat=seat).count() == 1
    assert Match.objects.get(deals=deal).banks[seat] == 0
    expect(page.locator("#status-line")).to_contain_text(text["your_move"], timeout=WAIT_MS)
    expect(bank).to_have_text(text["full_bank"])
    expect(bank).not_to_have_class(re.compile(r"\bspending\b"))
    page.context.close()
