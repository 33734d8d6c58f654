"""Staff's actions, one by one: dismiss, handle, warn (the player reads it in the inbox), mute;
each logged with who, what, why, when and until; the reporter told in the inbox when a report is
handled, in each player's language, once."""

from __future__ import annotations

import pytest

from tables.accounts.identity import player_for_user
from tables.accounts.models import Player
from tables.alerts.models import InboxItem
from tables.core.errors import BadRequest, Conflict
from tables.play import services as play_services
from tables.social import services
from tables.social.models import ModerationAction, Report
from tables.social.services import moderation
from tables.social.services.outcomes import tell_outcomes
from tests.tables.helpers import make_account_client, started

pytestmark = pytest.mark.django_db

Kind = ModerationAction.Kind


@pytest.fixture
def staff():
    client = make_account_client("staff@example.com", staff=True)
    client.user.is_superuser = True
    client.user.save()
    return client


def _speaks(client, language: str) -> None:
    Player.objects.filter(pk=client.player.pk).update(language=language)
    client.player.refresh_from_db()


def _lines(client) -> list[InboxItem]:
    return list(InboxItem.objects.filter(player=client.player).order_by("pk"))


def test_a_report_handled_with_a_warning_and_a_mute_logs_each_and_tells_both(
    ana, ben, staff, django_capture_on_commit_callbacks
):
    _speaks(ana, "en")
    _speaks(ben, "es")
    report = services.report(ana.player, ben.player, "abuse", "rude")
    assert not InboxItem.objects.exists()
    with django_capture_on_commit_callbacks(execute=True):  # the lines follow the commit
        moderation.handle_report(
            report, staff.user, "handled", "Insults at the table.", warn=True, mute_days=2
        )
    actions = list(ModerationAction.objects.order_by("pk"))
    assert [(a.kind, a.player, a.staff, a.reason, a.report) for a in actions] == [
        (kind, ben.player, staff.user, "Insults at the table.", report)
        for kind in (Kind.HANDLE, Kind.WARN, Kind.MUTE)
    ]
    assert actions[2].until is not None and actions[0].until is None
    report.refresh_from_db()
    assert (report.status, report.handled_by, report.muted_until) == ("handled", staff.user, actions[2].until)
    [told] = _lines(ana)
    assert (told.kind, told.title) == ("report_handled", "Your report about Ben was handled")
    assert told.path == f"/players/{ben.player.pk}/"
    [warned] = _lines(ben)
    assert (warned.kind, warned.title) == ("warning", "Un aviso del equipo")
    assert "Insultos o acoso" in warned.body  # the report's reason, in Ben's language
    # The lines' writer run again keeps one line each.
    tell_outcomes(actions)
    assert len(_lines(ana)) == len(_lines(ben)) == 1
    inbox = ana.ok("get", "/me/inbox")
    assert inbox["lines"][0]["kind"] == "report_handled" and inbox["unread"] == 1


def test_a_dismissed_report_tells_nobody_and_a_report_closes_once(
    ana, ben, staff, django_capture_on_commit_callbacks
):
    report = services.report(ana.player, ben.player, "cheating")
    with django_capture_on_commit_callbacks(execute=True):
        moderation.handle_report(report, staff.user, "dismissed", "Nothing wrong in the move log.")
    assert list(ModerationAction.objects.values_list("kind", flat=True)) == [Kind.DISMISS]
    assert not InboxItem.objects.exists()
    with pytest.raises(Conflict):
        moderation.handle_report(report, staff.user, "handled", "again")
    other = services.report(ana.player, ben.player, "spam")
    for status, note, options in (
        ("dismissed", "why", {"warn": True}),  # an action closes it as handled
        ("handled", "   ", {}),  # no why
        ("open", "why", {}),
        ("handled", "why", {"mute_days": 366}),
    ):
        with pytest.raises(BadRequest):
            moderation.handle_report(other, staff.user, status, note, **options)
    assert Report.objects.get(pk=other.pk).status == "open" and ModerationAction.objects.count() == 1


def test_staff_act_on_an_account_from_the_moderation_log(ana, ben, staff, django_capture_on_commit_callbacks):
    _speaks(ben, "en")
    add = "/admin/tables/moderationaction/add/"
    page = staff.client.get(add).content.decode()
    assert 'value="suspend"' in page and 'value="dismiss"' not in page
    with django_capture_on_commit_callbacks(execute=True):
        response = staff.client.post(
            add, {"player": ben.player.pk, "kind": "warn", "reason": "Stalling, again."}
        )
    assert response.status_code == 302
    action = ModerationAction.objects.get()
    assert (action.kind, action.player, action.staff, action.reason) == (
        "warn",
        ben.player,
        staff.user,
        "Stalling, again.",
    )
    [line] = _lines(ben)
    assert line.title == "A warning from staff" and "Stalling, again." in line.body
    refused = staff.client.post(add, {"player": ben.player.pk, "kind": "mute", "reason": "no days"})
    assert refused.status_code == 200 and ModerationAction.objects.count() == 1  # the form, with why
    staff.client.post(add, {"player": ben.player.pk, "kind": "mute", "reason": "Spam.", "days": "3"})
    token, _ = started(ana, ben)
    assert ben.post(f"/tables/{token}/chat", {"text": "buy"}).status_code == 403
    log = staff.client.get("/admin/tables/moderationaction/").content.decode()
    assert "Stalling, again." in log and "Spam." in log
    # Who, what, why, when and until stay as they were written.
    change = staff.client.post(
        f"/admin/tables/moderationaction/{action.pk}/change/",
        {"player": ana.player.pk, "kind": "warn", "reason": "edited"},
    )
    assert (
        change.status_code == 403 and ModerationAction.objects.get(pk=action.pk).reason == "Stalling, again."
    )
    guest = Player.objects.create(display_name="Guest", guest_key="k")
    with pytest.raises(BadRequest):
        moderation.warn(guest, staff.user, "x")
    with pytest.raises(BadRequest):
        moderation.mute_chat(ben.player, staff.user, "x", days=0)
    assert ana.client.get("/admin/tables/moderationaction/").status_code == 302  # staff only
    play_services.post_chat(token, ana.player, "still free")  # Ana is not muted


def test_the_queue_suspends_from_a_report_refuses_what_cannot_be_done_and_keeps_closed_ones(
    ana, ben, staff, django_capture_on_commit_callbacks
):
    other_staff = make_account_client("staff2@example.com", staff=True)
    staff_report = services.report(ana.player, player_for_user(other_staff.user), "abuse")
    url = f"/admin/tables/report/{staff_report.pk}/change/"
    refused = staff.client.post(url, {"status": "handled", "staff_note": "no", "suspend": "on"})
    assert refused.status_code == 200 and "not suspended from here" in refused.content.decode()
    report = services.report(ana.player, ben.player, "abuse")
    url = f"/admin/tables/report/{report.pk}/change/"
    with django_capture_on_commit_callbacks(execute=True):
        done = staff.client.post(url, {"status": "handled", "staff_note": "Threats.", "suspend": "on"})
    assert done.status_code == 302
    assert list(ModerationAction.objects.order_by("pk").values_list("kind", flat=True)) == [
        "handle",
        "suspend",
    ]
    assert not Player.objects.get(pk=ben.player.pk).user.is_active
    assert ben.client.get("/api/me").status_code == 401
    # A closed report shows what was done and changes no more.
    page = staff.client.get(url).content.decode()
    assert "Threats." in page and 'name="staff_note"' not in page
    staff.client.post(url, {"status": "dismissed", "staff_note": "changed my mind"})
    report.refresh_from_db()
    assert (report.status, report.staff_note) == ("handled", "Threats.")
    assert ModerationAction.objects.count() == 2
