"""Automatic vacation in the browser, on a desktop in English and a phone in Spanish: Alice opts
in on her profile; her turn at a slow table runs out and the sweeper starts a vacation day
instead of playing for her: Bob's open table page shows her on vacation and the clock stopped,
and her profile shows the vacation and a day fewer left."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from tables.accounts.models import Player, Vacation
from tables.accounts.vacation_days import ALLOWANCE_DAYS
from tables.play import services
from tables.play.models import Deal, Move, Table

from .test_table_time import DEVICES, TEXTS, WAIT_MS, bob_watching_alices_turn, press

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SAVED = {"en": "Automatic vacation is on.", "es": "Las vacaciones automáticas están activadas."}


@pytest.mark.parametrize(("device", "lang"), DEVICES)
def test_a_turn_that_runs_out_starts_a_vacation_day_the_opponent_sees(
    browser, live_url, known_deck, accounts, console, screenshots, device, lang
):
    text = TEXTS[lang]
    alice, _, token, bobs, profile = bob_watching_alices_turn(browser, live_url, accounts, console, device)
    expect(profile.locator("#auto-vacation-on")).not_to_be_checked()
    profile.locator("#auto-vacation-on").check()
    press(device, profile.locator("#auto-vacation-save"))
    expect(profile.locator(".messages")).to_contain_text(SAVED[lang])
    expect(profile.locator("#auto-vacation-on")).to_be_checked()
    assert Player.objects.get(pk=alice.pk).auto_vacation

    deal = Table.objects.get(invite_token=token).current_deal_id
    Deal.objects.filter(pk=deal).update(deadline=timezone.now() - dt.timedelta(seconds=1))
    assert services.sweep_overdue() == 1  # the sweeper finds her turn run out
    assert not Move.objects.filter(source=Move.Source.TIMEOUT).exists()
    [vacation] = Vacation.objects.filter(player=alice)
    assert vacation.first_day == vacation.last_day and vacation.started_at_table_id is not None

    expect(bobs.locator("#vacation-note")).to_contain_text(text["away"], timeout=WAIT_MS)
    expect(bobs.locator("#clock-paused")).to_contain_text(text["stopped"])
    expect(bobs.locator("#clock")).to_be_hidden()
    bobs.screenshot(path=str(screenshots / f"auto-vacation-opponent-{lang}.png"))

    profile.reload()
    expect(profile.locator("#vacation-status")).to_be_visible()
    expect(profile.locator("#vacation-left")).to_contain_text(str(ALLOWANCE_DAYS - 1))
    for page in (bobs, profile):
        page.context.close()
