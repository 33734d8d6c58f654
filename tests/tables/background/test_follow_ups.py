"""tables.background.scheduling.FollowUps: what follows committed changes goes to the workers in batches."""

from __future__ import annotations

import threading

from tables.background.scheduling import FollowUps


def _collector():
    batches: list[list[tuple[int, int, str]]] = []
    arrived = threading.Event()

    def send(batch):
        batches.append(batch)
        arrived.set()

    return batches, arrived, send


def test_changes_within_the_window_go_as_one_batch_with_each_tables_newest():
    batches, arrived, send = _collector()
    follow_ups = FollowUps(send, window=0.3)
    follow_ups.add(1, 5, "move")
    follow_ups.add(2, 9, "move")
    follow_ups.add(1, 6, "move")  # table 1 changed again: only its newest version matters
    assert batches == []  # nothing before the window closes
    assert arrived.wait(5)
    assert batches == [[(1, 6, "move"), (2, 9, "move")]]


def test_a_chat_message_within_the_window_keeps_the_moves_follow_up():
    """A message shares its version with the move before it: the move's "your move" alert and
    its deadline must still go, beside the message's own alert."""
    batches, arrived, send = _collector()
    follow_ups = FollowUps(send, window=0.3)
    follow_ups.add(1, 5, "move")
    follow_ups.add(1, 5, "chat")
    follow_ups.add(1, 5, "chat")  # a second message: the newest stands for both
    assert arrived.wait(5)
    assert sorted(batches[0]) == [(1, 5, "chat"), (1, 5, "move")]


def test_a_change_after_a_flush_starts_a_new_batch():
    batches, arrived, send = _collector()
    follow_ups = FollowUps(send, window=0.05)
    follow_ups.add(1, 5, "move")
    assert arrived.wait(5)
    arrived.clear()
    follow_ups.add(1, 6, "move")
    assert arrived.wait(5)
    assert batches == [[(1, 5, "move")], [(1, 6, "move")]]


def test_a_failed_hand_off_is_logged_and_the_next_batch_still_goes(caplog):
    batches, arrived, send = _collector()
    calls = []

    def flaky(batch):
        calls.append(batch)
        if len(calls) == 1:
            raise ConnectionError("broker down")
        send(batch)

    follow_ups = FollowUps(flaky, window=0.05)
    follow_ups.add(1, 5, "move")
    follow_ups.flush()  # at once, as at exit
    assert "could not hand 1 table changes" in caplog.text
    follow_ups.add(2, 7, "move")
    assert arrived.wait(5)
    assert batches == [[(2, 7, "move")]]


def test_flush_with_nothing_pending_sends_nothing():
    batches, _, send = _collector()
    FollowUps(send).flush()
    assert batches == []
