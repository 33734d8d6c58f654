"""Report and suspension in a real browser: Ana reports Carla's chat message from the table's chat,
staff suspend Carla in the admin's queue; Carla's open page is logged out at once (her session
ended, its socket closed) and her next login is refused; Ana's bell rings and her inbox says the
report was handled. Phone and desktop, Spanish and English (staff use the admin in English)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tables.alerts.models import InboxItem
from tables.play import services
from tables.play.models import Match
from tests.polling import wait_until

from .conftest import DESKTOP, PHONE, new_context

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WAIT_MS = 10_000
LABELS = {
    "en-US": {
        "report": "report",
        "reason": "Insults or harassment",
        "send": "SEND THE REPORT",
        "log_in": "Log in",
        "inactive": "This account is inactive.",
        "handled": "Your report about Carla was handled",
    },
    "es-ES": {
        "report": "denunciar",
        "reason": "Insultos o acoso",
        "send": "ENVIAR LA DENUNCIA",
        "log_in": "Entrar",
        "inactive": "Esta cuenta está inactiva.",
        "handled": "Tu denuncia sobre Carla se ha atendido",
    },
}
CASES = [("en-US", DESKTOP), ("es-ES", PHONE)]


@pytest.mark.parametrize(("locale", "device"), CASES, ids=["en-desktop", "es-phone"])
def test_ana_reports_carlas_message_staff_suspend_her_and_ana_is_told(
    browser, live_url, accounts, console, locale, device
):
    label = LABELS[locale]
    ana_player, ana_session = accounts("ana@example.com", "Ana")
    carla_player, carla_session = accounts("carla@example.com", "Carla")
    staff_player, staff_session = accounts("staff@example.com", "Staff")
    staff_player.user.is_staff = staff_player.user.is_superuser = True
    staff_player.user.save(update_fields=["is_staff", "is_superuser"])
    ana_player.language = locale[:2]  # the inbox line is in the reporter's own language
    ana_player.save(update_fields=["language"])
    table = services.create_table(carla_player, rated=True, turn_seconds=86400)
    token = table.invite_token
    services.join_table(token, ana_player)
    services.start_match(token, carla_player)
    services.post_chat(token, carla_player, "a rude word")

    def page_of(who: str, session: str, locale: str, device: dict):
        context = new_context(browser, live_url, session=session, locale=locale, **device)
        return console.watch(context.new_page(), who)

    carla = page_of("carla", carla_session, locale, device)
    carla.goto("/lobby/")
    expect(carla.locator("#inbox-link")).to_be_visible()  # logged in, her user socket open

    ana = page_of("ana", ana_session, locale, device)
    ana.goto(f"/t/{token}/")
    expect(ana.locator("#inbox-badge")).to_be_hidden()  # nothing in her inbox yet
    if ana.locator("#btn-chat").is_visible():  # a phone keeps the chat behind its button
        ana.locator("#btn-chat").click()
    message = ana.locator("#chat-log li", has_text="a rude word")
    message.get_by_role("link", name=label["report"], exact=True).click()
    expect(ana.locator("#reported-message")).to_contain_text("a rude word")
    ana.get_by_label(label["reason"]).check()
    ana.get_by_role("button", name=label["send"]).click()
    expect(ana).to_have_url(f"{live_url}/players/{carla_player.pk}/")

    staff = page_of("staff", staff_session, "en-US", DESKTOP)
    staff.goto("/admin/tables/report/?status__exact=open")
    staff.locator("#result_list tbody tr a").first.click()  # the one open report
    expect(staff.locator("body")).to_contain_text("a rude word")
    staff.locator("#id_status").select_option("handled")
    staff.locator("#id_staff_note").fill("Insults in the chat: suspended.")
    staff.locator("#id_suspend").check()
    staff.locator("input[name=_save]").click()
    expect(staff.locator(".messagelist")).to_be_visible()

    # Carla's open page hears her session end and shows her logged out; logging in is refused.
    expect(carla.get_by_role("link", name=label["log_in"], exact=True)).to_be_visible(timeout=WAIT_MS)
    expect(carla.locator("#inbox-link")).to_have_count(0)
    carla.goto("/accounts/login/")
    carla.locator("#id_login").fill("carla@example.com")
    carla.locator("#id_password").fill("x")
    carla.locator("#id_password").press("Enter")
    expect(carla).to_have_url(f"{live_url}/accounts/inactive/")
    expect(carla.locator("body")).to_contain_text(label["inactive"])
    carla.goto("/me/profile/")
    expect(carla.get_by_role("link", name=label["log_in"], exact=True)).to_be_visible()
    match = Match.objects.get(table__invite_token=token)
    assert match.status == Match.Status.OVER and match.winner == match.table.seat_of(ana_player)

    # Ana, her page still open, hears of the outcome: the bell rings (her report handled, and
    # the result of the match Carla resigned, whenever its alert comes), and the inbox shows it.
    expect(ana.locator("#inbox-badge")).to_be_visible(timeout=WAIT_MS)
    wait_until(lambda: InboxItem.objects.filter(player=ana_player, kind="report_handled").exists())
    ana.locator("#inbox-link").click()
    expect(ana.locator("#inbox-list li.unread", has_text=label["handled"])).to_have_count(1)
