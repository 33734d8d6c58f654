"""Alert rules: preferences, quiet hours, away detection, one per turn, email and unsubscribe,
the digest and the 80% reminder. The project's own push sender is mocked here (unit tests);
test_alerts_push.py sends real web pushes to a fake push service."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core import mail
from django.test import Client
from django.utils import timezone

from tables.accounts.models import Player
from tables.alerts import digest, notify, presence
from tables.alerts.models import Activity, SentAlert
from tables.background import registry
from tables.core.announcements import Alerts, table_changed
from tables.play import selectors, services
from tables.play.models import Deal, Table
from tests.tables.helpers import play_match, started, to_play

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("pushes", "later")]

LONG_AGO = dt.timedelta(hours=2)


def _your_move(alice, bob, **prefs) -> tuple[notify.Alert, Table]:
    token, _ = started(alice, bob)
    table = Table.objects.select_related("seat0", "seat1", "current_deal__match").get(invite_token=token)
    player = table.seats[table.current_deal.to_play]
    if prefs:
        player.alert_prefs = prefs
        player.save()
    Activity.objects.update_or_create(player=player, defaults={"last_seen": timezone.now() - LONG_AGO})
    [alert] = notify.alerts_for(table, Alerts.TURN)
    assert alert.kind == "your_move" and alert.player == player
    return alert, table


def test_default_preferences_alert_on_site_by_push_and_by_email(alice, bob, pushes, site):
    alert, _ = _your_move(alice, bob)
    assert notify.deliver(alert) == {"site", "push", "email"}
    assert [pid for pid, _ in site] == [alert.player.pk] and len(pushes) == 1 and len(mail.outbox) == 1


@pytest.mark.parametrize(
    "channels",
    [[], ["site"], ["push"], ["email"], ["site", "email"], ["push", "email"]],
)
def test_each_channel_follows_the_preference(alice, bob, pushes, site, channels):
    alert, _ = _your_move(alice, bob, your_move=channels)
    assert notify.deliver(alert) == set(channels)
    assert bool(site) == ("site" in channels)
    assert bool(pushes) == ("push" in channels)
    assert bool(mail.outbox) == ("email" in channels)


def test_no_push_is_claimed_where_push_is_not_set_up(alice, bob, pushes, site, settings):
    settings.VAPID_PUBLIC_KEY = settings.VAPID_PRIVATE_KEY = ""
    alert, _ = _your_move(alice, bob)
    assert notify.deliver(alert) == {"site", "email"}
    assert not pushes and not SentAlert.objects.filter(channel="push").exists()


def test_a_draw_alerts_nobody_the_turn_began_with_the_alert(
    alice, bob, site, django_capture_on_commit_callbacks
):
    token, players = started(alice, bob)
    mover, _, state = to_play(token, players)
    while "draw_stock" not in state["deal"]["view"]["legal_actions"]:  # the offer round: pass
        mover.ok("post", f"/tables/{token}/moves", {"action": "pass", "expected_version": state["version"]})
        mover, _, state = to_play(token, players)
    site.clear()
    announced = []

    def heard(sender, change, **kwargs):
        announced.append(change.kind)

    table_changed.connect(heard)
    try:
        with django_capture_on_commit_callbacks(execute=True):
            body = {"action": "draw_stock", "expected_version": state["version"]}
            mover.ok("post", f"/tables/{token}/moves", body)
    finally:
        table_changed.disconnect(heard)
    table = Table.objects.select_related("seat0", "seat1", "current_deal__match").get(invite_token=token)
    assert table.current_deal.phase == "discard" and selectors.mid_turn(table.current_deal)
    [kind] = announced  # the kind the writer announced the draw with
    notify.on_table_change(table, kind)
    assert site == []  # neither an alert nor a pending-count refresh for the same turn


def test_one_alert_per_turn_however_often_it_is_delivered(alice, bob, pushes, site):
    alert, _ = _your_move(alice, bob)
    notify.deliver(alert)
    assert notify.deliver(alert) == set()
    assert len(site) == len(pushes) == len(mail.outbox) == 1


def test_nothing_outside_the_site_while_the_table_page_is_visible(alice, bob, pushes, site, later):
    alert, table = _your_move(alice, bob)
    presence.touch_table(alert.player.pk, table.pk, visible=True)
    assert notify.deliver(alert) == {"site"}
    assert not pushes and not mail.outbox and not later


def test_a_hidden_page_does_not_count_as_looking(alice, bob, pushes):
    alert, table = _your_move(alice, bob)
    presence.touch_table(alert.player.pk, table.pk, visible=False)
    Activity.objects.filter(player=alert.player).update(last_seen=timezone.now() - LONG_AGO)
    assert notify.deliver(alert) == {"site", "push", "email"}


def test_email_waits_until_the_player_has_been_away(alice, bob, later, settings):
    alert, _ = _your_move(alice, bob)
    presence.touch_site(alert.player.pk)  # on another page of the site just now
    assert notify.deliver(alert) == {"site", "push"}
    assert not mail.outbox
    [(task, args, eta)] = later
    assert task == registry.DELIVER_ALERT and args == (
        "your_move",
        alert.player.pk,
        alert.table.pk,
        alert.occasion,
    )
    assert eta > timezone.now() + dt.timedelta(seconds=settings.ALERT_EMAIL_AWAY_SECONDS - 5)
    Activity.objects.filter(player=alert.player).update(last_seen=timezone.now() - LONG_AGO)
    assert notify.deliver_later(*args) == {"email"}
    assert len(mail.outbox) == 1


def test_one_your_move_email_per_table_until_the_player_looks(alice, bob):
    alert, table = _your_move(alice, bob)
    assert "email" in notify.deliver(alert)
    next_turn = notify.Alert("your_move", alert.player, table, alert.occasion + "-next", alert.context)
    assert "email" not in notify.deliver(next_turn)  # still away, never looked: no second email
    presence.touch_table(alert.player.pk, table.pk, visible=True)
    presence.touch_table(alert.player.pk, table.pk, visible=False)
    Activity.objects.filter(player=alert.player).update(last_seen=timezone.now() - LONG_AGO)
    third = notify.Alert("your_move", alert.player, table, alert.occasion + "-third", alert.context)
    assert "email" in notify.deliver(third)
    assert len(mail.outbox) == 2


def test_a_put_off_alert_is_dropped_once_the_turn_was_played(alice, bob):
    alert, table = _your_move(alice, bob)
    Deal.objects.filter(pk=table.current_deal_id).update(deadline=timezone.now() + dt.timedelta(hours=3))
    assert notify.deliver_later("your_move", alert.player.pk, table.pk, alert.occasion) == set()


def test_quiet_hours_put_push_and_email_off_until_they_end(alice, bob, pushes, site, later):
    alert, _ = _your_move(alice, bob)
    player = alert.player
    player.time_zone = "America/Bogota"  # UTC-5 all year
    player.alert_prefs = {"quiet_hours": {"start": "22:00", "end": "08:00"}}
    player.save()
    alert.player = Player.objects.get(pk=player.pk)
    tomorrow = (timezone.now() + dt.timedelta(days=1)).date()
    night = dt.datetime.combine(tomorrow, dt.time(4, 30), tzinfo=dt.UTC)  # 23:30 in Bogotá
    assert notify.deliver(alert, now=night) == {"site"}
    assert not pushes and not mail.outbox
    [(_, _, eta)] = later
    assert eta == dt.datetime.combine(tomorrow, dt.time(13, 0), tzinfo=dt.UTC)  # 08:00 in Bogotá
    day = dt.datetime.combine(tomorrow, dt.time(18, 0), tzinfo=dt.UTC)
    assert notify.deliver(alert, now=day) == {"push", "email"}


def test_the_digest_replaces_per_move_emails(alice, bob, pushes):
    alert, table = _your_move(alice, bob, digest=True)
    assert notify.deliver(alert) == {"site", "push"}
    assert not mail.outbox
    morning = dt.datetime(2026, 1, 15, 9, 0, tzinfo=dt.UTC)
    assert digest.send_digests(morning) == 1
    assert digest.send_digests(morning + dt.timedelta(hours=3)) == 0  # one a day
    [email] = mail.outbox
    assert table.invite_token in email.body and email.to == [alert.player.user.email]
    assert "List-Unsubscribe" in email.extra_headers


def test_email_in_the_players_language_with_a_link_and_one_click_unsubscribe(alice, bob):
    alert, table = _your_move(alice, bob)
    alert.player.language = "en"
    alert.player.save()
    notify.deliver(alert)
    [email] = mail.outbox
    html = email.alternatives[0][0]
    assert email.subject.startswith("Your move against")
    assert f"/t/{table.invite_token}/" in email.body and f"/t/{table.invite_token}/" in html
    unsubscribe = email.extra_headers["List-Unsubscribe"].strip("<>")
    assert unsubscribe in email.body
    assert email.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    path = unsubscribe.split("://", 1)[1].split("/", 1)[1]
    response = Client().post(f"/{path}", {"List-Unsubscribe": "One-Click"})  # no login, no CSRF
    assert response.status_code == 200
    prefs = Player.objects.get(pk=alert.player.pk).alert_prefs
    assert "email" not in prefs["your_move"] and "email" in prefs["reminder"]
    assert Client().get(f"/{path[:-5]}xxxx/").status_code == 400  # a forged token


def test_alert_texts_in_spanish_by_default(alice, bob, site):
    alert, _ = _your_move(alice, bob)
    notify.deliver(alert)
    [(_, message)] = site
    assert message["title"].startswith("Te toca contra") and message["tag"].startswith("table-")


def test_reminder_once_when_80_percent_of_a_slow_turn_has_gone(alice, bob, pushes):
    _, table = _your_move(alice, bob)
    Table.objects.filter(pk=table.pk).update(turn_seconds=24 * 3600)
    deadline = timezone.now() + dt.timedelta(hours=4)  # 20 of 24 hours gone
    Deal.objects.filter(pk=table.current_deal_id).update(deadline=deadline)
    assert notify.send_due_reminders() == 1
    assert notify.send_due_reminders() == 0
    assert SentAlert.objects.filter(kind="reminder", channel="email").count() == 1
    assert any("left to move" in m.subject or "Quedan" in m.subject for m in mail.outbox)


def test_no_reminder_for_a_player_who_looked_this_turn_nor_before_80_percent(alice, bob):
    alert, table = _your_move(alice, bob)
    Table.objects.filter(pk=table.pk).update(turn_seconds=24 * 3600)
    Deal.objects.filter(pk=table.current_deal_id).update(deadline=timezone.now() + dt.timedelta(hours=10))
    assert notify.send_due_reminders() == 0
    Deal.objects.filter(pk=table.current_deal_id).update(deadline=timezone.now() + dt.timedelta(hours=2))
    presence.touch_table(alert.player.pk, table.pk, visible=True)
    presence.touch_table(alert.player.pk, table.pk, visible=False)
    assert notify.send_due_reminders() == 0


def test_no_reminder_while_the_players_clock_is_stopped_for_a_vacation(alice, bob):
    alert, table = _your_move(alice, bob)
    Table.objects.filter(pk=table.pk).update(turn_seconds=24 * 3600)
    now = timezone.now()
    deal = Deal.objects.filter(pk=table.current_deal_id)
    deal.update(deadline=now + dt.timedelta(hours=4))  # 20 of 24 hours gone, then the vacation began
    Player.objects.filter(pk=alert.player.pk).update(
        vacation_started_at=now - dt.timedelta(minutes=1), vacation_until=now + dt.timedelta(days=2)
    )
    assert notify.send_due_reminders() == 0  # the sweep stops that clock; nobody is reminded of it
    occasion = notify.turn_occasion(Deal.objects.get(pk=table.current_deal_id))
    assert notify.rebuild("reminder", alert.player.pk, table.pk, occasion) is None  # one put off
    deal.update(deadline=None, paused_left=4 * 3600)  # stopped
    assert notify.send_due_reminders() == 0
    assert notify.rebuild("reminder", alert.player.pk, table.pk, alert.occasion) is None
    assert not SentAlert.objects.filter(kind="reminder").exists()


def test_chat_alerts_the_other_player_only(alice, bob, site):
    token, _ = started(alice, bob)
    table = Table.objects.select_related("seat0", "seat1").get(invite_token=token)
    alice.ok("post", f"/tables/{token}/chat", {"text": "hola"}, status=201)
    [alert] = notify.alerts_for(table, Alerts.CHAT)
    assert alert.kind == "chat" and alert.player.user == bob.user and alert.context["text"] == "hola"


def test_preferences_are_checked_through_the_api(alice):
    alice.ok("post", "/tables", {}, status=201)
    good = {"your_move": ["site", "email"], "quiet_hours": {"start": "23:00", "end": "07:30"}, "digest": True}
    profile = alice.ok("patch", "/me", {"alert_prefs": good})
    assert profile["alert_prefs"]["your_move"] == ["site", "email"]
    assert profile["alert_prefs"]["chat"] == ["site", "push"]  # defaults fill the rest
    for bad in ({"your_move": ["pigeon"]}, {"quiet_hours": {"start": "25:00", "end": "07:00"}}, {"spam": []}):
        assert alice.request("patch", "/me", {"alert_prefs": bad}).status_code == 400


def test_watching_means_this_table_visible_until_a_later_moment(alice, bob):
    alert, table = _your_move(alice, bob)
    player = alert.player.pk
    assert not presence.is_watching(player, table.pk)  # no page open at all
    presence.touch_table(player, table.pk, visible=True)
    now = timezone.now()
    assert presence.is_watching(player, table.pk, now)
    later = now + dt.timedelta(seconds=presence.LEASE_SECONDS + 1)
    assert not presence.is_watching(player, table.pk, later)  # the lease ran out
    other = services.create_table(alert.player)
    assert not presence.is_watching(player, other.pk, now)  # another table
    presence.touch_table(player, table.pk, visible=False)
    assert not presence.is_watching(player, table.pk)  # hidden from now on


@pytest.mark.slow  # a whole Hollywood match, some 6 s
def test_the_match_over_alert_of_a_hollywood_match_gives_the_three_games_sum(alice, bob):
    """Not the last game's totals: the match's score, as the score sheet's final line has it."""
    token, players = started(alice, bob, ruleset="classic", hollywood=True)
    final = play_match(token, players)
    table = Table.objects.get(invite_token=token)
    sums = [final["match"]["final_scores"][seat]["total"] for seat in (0, 1)]
    last_game = final["match"]["games"][-1]["totals"]
    assert sums != last_game  # the three games add up to more than the last one
    winner = final["match"]["winner"]
    table.seats[winner].language, table.seats[1 - winner].language = "en", "es"
    texts = {alert.player.pk: alert.texts()[1] for alert in notify.alerts_for(table, Alerts.TURN)}
    assert texts[table.seats[winner].pk] == f"You won {sums[winner]}–{sums[1 - winner]} over three games."
    assert texts[table.seats[1 - winner].pk] == (
        f"Has perdido {sums[1 - winner]}–{sums[winner]} en las tres partidas."
    )


@pytest.mark.slow  # a whole match, some 5 s
def test_the_match_over_alert_of_a_plain_match_gives_its_totals(alice, bob):
    token, players = started(alice, bob, ruleset="classic")
    final = play_match(token, players)
    table = Table.objects.get(invite_token=token)
    totals = final["match"]["totals"]
    winner = final["match"]["winner"]
    table.seats[winner].language = "en"
    [alert] = [a for a in notify.alerts_for(table, Alerts.TURN) if a.player == table.seats[winner]]
    assert alert.texts()[1] == f"You won {totals[winner]}–{totals[1 - winner]}."
