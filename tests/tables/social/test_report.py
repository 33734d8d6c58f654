"""Report a player or a chat message to staff, and the staff queue in the admin: reasons from a
list, free text, the chat around the message, the table's matches, earlier reports of the same
account, and every closing kept with who did it and why."""

from __future__ import annotations

import datetime as dt

import pytest

from tables.core.errors import BadRequest, Conflict, NotFound, RateLimited
from tables.play import services as play_services
from tables.play.models import ChatMessage
from tables.social import selectors, services
from tables.social.models import Report
from tables.social.services import moderation
from tests.tables.helpers import make_account_client, started

from .conftest import named

pytestmark = pytest.mark.django_db

EN = {"accept-language": "en"}


def test_a_player_is_reported_from_their_page(ana, ben):
    page = ana.client.get(f"/players/{ben.player.pk}/", headers=EN).content.decode()
    assert f"/players/{ben.player.pk}/report/" in page
    form = ana.client.get(f"/players/{ben.player.pk}/report/", headers=EN).content.decode()
    assert 'name="reason"' in form and "Cheating" in form
    spanish = ana.client.get(f"/players/{ben.player.pk}/report/", headers={"accept-language": "es"})
    assert "Trampas" in spanish.content.decode()
    response = ana.client.post(f"/players/{ben.player.pk}/report/", {"reason": "cheating", "text": "  odd  "})
    assert response.status_code == 302 and response["Location"] == f"/players/{ben.player.pk}/"
    report = Report.objects.get()
    assert (report.reporter, report.reported, report.reason, report.text, report.status) == (
        ana.player,
        ben.player,
        "cheating",
        "odd",
        Report.Status.OPEN,
    )
    again = ana.client.post(f"/players/{ben.player.pk}/report/", {"reason": "nonsense"}, headers=EN)
    assert again.status_code == 200 and Report.objects.count() == 1  # the form again, with the error


def test_refusals_are_clear(ana, ben, monkeypatch):
    with pytest.raises(BadRequest):
        services.report(ana.player, ana.player, "abuse")
    with pytest.raises(BadRequest):
        services.report(ana.player, ben.player, "boredom")
    services.report(ana.player, ben.player, "abuse")
    with pytest.raises(Conflict):
        services.report(ana.player, ben.player, "abuse")
    monkeypatch.setattr(services, "MAX_OPEN_REPORTS_PER_DAY", 1)
    carla = named(make_account_client("carla2@example.com"), "Carla")
    with pytest.raises(RateLimited):
        services.report(ana.player, carla.player, "spam")
    assert ana.post(f"/players/{ben.player.pk}/report", {"reason": "x"}).status_code == 400
    assert ana.post("/players/999999/report", {"reason": "abuse"}).status_code == 404
    assert (
        ana.post(f"/players/{carla.player.pk}/report", {"reason": "abuse", "text": "x" * 1001}).status_code
        == 413
    )
    assert ana.client.post("/players/999999/report/", {"reason": "abuse"}).status_code == 404


def test_the_api_reports(ana, ben):
    body = ana.ok("post", f"/players/{ben.player.pk}/report", {"reason": "name", "text": "rude"}, status=201)
    assert body["status"] == "open" and body["reason"] == "name"
    schema = ana.client.get("/api/openapi.json").json()
    assert "/api/players/{player_id}/report" in schema["paths"]


def test_a_chat_message_is_reported_by_who_could_read_it_only(ana, ben, carla):
    token, _ = started(ana, ben)
    message = play_services.post_chat(token, ben.player, "a rude word")
    play_services.post_chat(token, ana.player, "my own")
    form = ana.client.get(
        f"/players/{ben.player.pk}/report/?message={message.id}", headers=EN
    ).content.decode()
    assert "a rude word" in form
    report = services.report(ana.player, ben.player, "abuse", chat_message_id=message.id)
    assert (report.chat_message_id, report.table_id) == (message.id, message.table_id)
    # Carla never was at the table: the message is not hers to quote or report.
    stranger = carla.client.get(f"/players/{ben.player.pk}/report/?message={message.id}").content.decode()
    assert "a rude word" not in stranger
    with pytest.raises(NotFound):
        services.report(carla.player, ben.player, "abuse", chat_message_id=message.id)
    mine = ChatMessage.objects.get(text="my own")
    with pytest.raises(NotFound):  # not Ben's message
        services.report(carla.player, ben.player, "abuse", chat_message_id=mine.id)


def test_the_staff_queue_shows_the_context_and_keeps_who_closed_it_and_why(ana, ben, carla):
    staff = make_account_client("staff@example.com", staff=True)
    staff.user.is_superuser = True
    staff.user.save()
    token, _ = started(ana, ben)
    for text in ("hello", "a rude word", "bye"):
        play_services.post_chat(token, ben.player, text)
    message = ChatMessage.objects.get(text="a rude word")
    earlier = services.report(carla.player, ben.player, "name")
    report = services.report(ana.player, ben.player, "abuse", "at the table", chat_message_id=message.id)
    queue = staff.client.get("/admin/tables/report/?status__exact=open").content.decode()
    assert "a rude word" in queue
    page = staff.client.get(f"/admin/tables/report/{report.pk}/change/").content.decode()
    assert "hello" in page and "bye" in page  # the chat around it
    assert f"/admin/tables/report/{earlier.pk}/change/" in page  # earlier reports of Ben
    assert staff.client.get(f"/admin/tables/report/{earlier.pk}/change/").status_code == 200  # no message
    assert "/admin/tables/match/" in page and "/matches/" in page  # the table's match, move log, archive
    url = f"/admin/tables/report/{report.pk}/change/"
    refused = staff.client.post(url, {"status": "dismissed", "staff_note": ""})
    assert refused.status_code == 200  # the form again: a report is not closed without a why
    report.refresh_from_db()
    assert report.status == Report.Status.OPEN
    staff.client.post(url, {"status": "handled", "staff_note": "Warned by email."})
    report.refresh_from_db()
    assert (report.status, report.staff_note, report.handled_by) == (
        "handled",
        "Warned by email.",
        staff.user,
    )
    assert report.handled_at is not None
    assert ana.client.get("/admin/tables/report/").status_code == 302  # players do not see the queue


def test_staff_mute_the_reported_players_chat_everywhere_for_some_days(ana, ben):
    staff = make_account_client("staff2@example.com", staff=True)
    staff.user.is_superuser = True
    staff.user.save()
    token, _ = started(ana, ben)
    other, _ = started(ben, named(make_account_client("dora@example.com"), "Dora"))
    message = play_services.post_chat(token, ben.player, "a rude word")
    report = services.report(ana.player, ben.player, "abuse", chat_message_id=message.id)
    url = f"/admin/tables/report/{report.pk}/change/"
    refused = staff.client.post(url, {"status": "dismissed", "staff_note": "no", "mute_days": "3"})
    assert refused.status_code == 200  # a mute closes a report as handled, not dismissed
    staff.client.post(url, {"status": "handled", "staff_note": "Insults: 3 days.", "mute_days": "3"})
    report.refresh_from_db()
    assert report.status == "handled" and report.muted_until is not None
    for table in (token, other):  # every table, not only where it happened
        response = ben.post(f"/tables/{table}/chat", {"text": "hello"})
        assert response.status_code == 403 and response.json()["error"] == "forbidden"
    assert ana.post(f"/tables/{token}/chat", {"text": "still here"}).status_code == 201
    later = report.muted_until + dt.timedelta(seconds=1)
    assert selectors.chat_muted_until(ben.player, later) is None  # it ends by itself
    with pytest.raises(BadRequest):
        moderation.handle_report(report, staff.user, "handled", "why", mute_days=400)
