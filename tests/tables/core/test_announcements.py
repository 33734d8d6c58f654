"""tables.core.announcements: every kind of committed change declares what follows it, and the
receivers follow those rules."""

from __future__ import annotations

import dataclasses

import pytest

from tables.core.announcements import RULES, Alerts, ChangeKind, Rules, TableChange, announce, table_changed


def test_every_kind_declares_every_rule():
    assert set(RULES) == set(ChangeKind)
    fields = dataclasses.fields(Rules)
    # no rule has a default a new kind could forget, but the name the sockets are told
    assert [field.name for field in fields if field.default is not dataclasses.MISSING] == ["told_as"]
    for kind in ChangeKind:
        rules = kind.rules
        assert isinstance(rules, Rules)
        for field in fields:
            value = getattr(rules, field.name)
            if field.name == "alerts":
                assert value is None or isinstance(value, Alerts), kind
            elif field.name != "told_as":
                assert isinstance(value, bool), (kind, field.name)


@pytest.mark.parametrize("kind", list(ChangeKind))
def test_a_kind_crosses_a_message_as_its_value(kind):
    assert ChangeKind(kind.value) is kind
    assert ChangeKind(kind.told_as) in ChangeKind  # the sockets are told a kind they know


def test_a_move_plans_the_deadline_alerts_and_recounts():
    rules = ChangeKind.MOVE.rules
    assert rules.published and rules.carries_states and rules.new_version
    assert rules.plans_deadline and rules.alerts is Alerts.TURN and rules.recounts_pending
    assert rules.follows_up


def test_a_draw_is_told_as_a_move_and_nothing_follows_it():
    rules = ChangeKind.DRAW.rules
    assert ChangeKind.DRAW.told_as == "move"
    assert rules.published and rules.carries_states
    assert not rules.plans_deadline and rules.alerts is None and not rules.recounts_pending
    assert not rules.follows_up


def test_a_chat_message_alerts_only_and_makes_no_version():
    rules = ChangeKind.CHAT.rules
    assert rules.published and not rules.carries_states and not rules.new_version
    assert not rules.plans_deadline and not rules.recounts_pending
    assert rules.alerts is Alerts.CHAT and rules.follows_up


def test_more_time_plans_the_new_deadline_and_alerts_nobody():
    rules = ChangeKind.MORE_TIME.rules
    assert rules.plans_deadline and rules.alerts is None and not rules.recounts_pending


def test_a_review_request_is_told_to_nobody_and_has_no_follow_up_task():
    rules = ChangeKind.REVIEW.rules
    assert not rules.published and not rules.new_version and not rules.follows_up


def test_only_a_seat_change_publishes_who_is_there():
    assert [kind for kind in ChangeKind if kind.rules.seats_changed] == [ChangeKind.SEAT]


def test_only_a_rematch_may_alert_the_offer():
    assert [kind for kind in ChangeKind if kind.rules.alerts is Alerts.REMATCH] == [ChangeKind.REMATCH]


def test_only_what_makes_a_new_version_carries_states():
    for kind in ChangeKind:
        assert not kind.rules.carries_states or kind.rules.new_version, kind


def test_a_failing_receiver_keeps_the_change_from_no_other(caplog):
    heard = []

    def broken(sender, change, **kwargs):
        raise RuntimeError("a receiver's bad day")

    def listening(sender, change, **kwargs):
        heard.append(change)

    table_changed.connect(broken)
    table_changed.connect(listening)
    try:
        change = TableChange(1, 2, ChangeKind.REVIEW)  # no reviews: the project's receivers do nothing
        announce(change)
    finally:
        table_changed.disconnect(broken)
        table_changed.disconnect(listening)
    assert heard == [change]
    assert "failed on review of table 1" in caplog.text
