"""The time bank's arithmetic (tables/bank/engine.py), checked over many clocks and moments."""

from __future__ import annotations

import datetime as dt

from hypothesis import given
from hypothesis import strategies as st

from tables.bank.engine import DAY, SLOW_CAP, SLOW_REFILL, SLOW_START, Terms, TurnClock, after_turn, terms_for

T0 = dt.datetime(2026, 12, 7, tzinfo=dt.UTC)
seconds = st.integers(min_value=0, max_value=30 * DAY)
terms = st.builds(
    lambda start, refill, cap: Terms(min(start, cap), refill, cap),
    seconds,
    st.integers(min_value=0, max_value=2 * DAY),
    st.integers(min_value=1, max_value=30 * DAY),
)


def running(turn: int, bank: int) -> TurnClock:
    """A turn that began at T0 with ``turn`` seconds of its own and ``bank`` behind them."""
    return TurnClock(T0 + dt.timedelta(seconds=turn + bank), None, bank)


def at(offset: int) -> dt.datetime:
    return T0 + dt.timedelta(seconds=offset)


def test_the_slow_defaults_are_three_days_per_ten_moves_capped_at_seven():
    slow = Terms(SLOW_START, SLOW_REFILL, SLOW_CAP)
    assert terms_for(DAY, slow=True) == slow == Terms(3 * DAY, 3 * DAY // 10, 7 * DAY)
    assert terms_for(7 * DAY, slow=True) == terms_for(12 * 3600, slow=True)  # days, whatever the turn clock
    assert terms_for(60, slow=False) == Terms(180, 18, 420)  # live: the same in turn clocks


@given(terms, st.integers(min_value=0, max_value=200))
def test_refills_add_up_to_the_cap_and_never_past_it(chosen, moves):
    bank = chosen.start
    for _ in range(moves):
        bank = after_turn(bank, 0, chosen, timed_out=False)
    assert bank == min(chosen.cap, chosen.start + moves * chosen.refill)


@given(terms, seconds, seconds, seconds)
def test_a_turn_spends_only_the_time_past_its_own_clock(chosen, turn, held, moved_at):
    held = min(held, chosen.cap)
    clock = running(turn, held)
    spent = clock.spent(at(moved_at))
    assert spent == min(held, max(0, moved_at - turn))
    bank = after_turn(held, spent, chosen, timed_out=False)
    assert 0 <= bank <= chosen.cap
    assert bank == min(chosen.cap, held - spent + chosen.refill)


@given(terms, seconds, seconds)
def test_a_timeout_empties_the_bank(chosen, held, spent):
    assert after_turn(min(held, chosen.cap), spent, chosen, timed_out=True) == 0


@given(seconds, seconds, seconds)
def test_settling_never_moves_the_deadline(turn, held, when):
    clock = running(turn, held)
    settled = clock.settled(at(when))
    assert settled.deadline == clock.deadline
    assert settled.bank == held - clock.spent(at(when))
    assert settled.spent(at(when)) == 0 or when >= turn + held  # settled twice spends nothing more


@given(seconds, seconds, seconds, st.integers(min_value=1, max_value=7 * DAY))
def test_more_time_adds_turn_time_and_keeps_the_bank_left_behind_it(turn, held, when, period):
    clock = running(turn, held)
    now = at(when)
    given_ = clock.given(period, now)
    bank_left = held - clock.spent(now)
    assert given_.bank == bank_left
    assert given_.turn_left(now) == max(0, turn - when) + period
    assert given_.deadline == now + dt.timedelta(seconds=given_.turn_left(now) + bank_left)


@given(
    seconds,
    seconds,
    st.integers(min_value=0, max_value=2 * DAY),
    seconds,
    st.integers(min_value=1, max_value=3 * DAY),
)
def test_a_vacation_stops_turn_time_and_bank_and_gives_them_back(turn, held, stop_at, away, most):
    clock = running(turn, held)
    stopped = clock.stopped(at(stop_at), most)
    bank_left = held - clock.spent(at(stop_at))
    turn_left = max(0, turn - stop_at)
    assert stopped.deadline is None and stopped.bank == bank_left
    assert stopped.paused_left == min(turn_left, most) + bank_left
    back = at(stop_at + away)
    resumed = stopped.resumed(back)
    assert resumed.deadline == back + dt.timedelta(seconds=min(turn_left, most) + bank_left)
    assert resumed.turn_left(back) == min(turn_left, most) and resumed.bank == bank_left


@given(seconds, seconds, st.integers(min_value=1, max_value=DAY), st.integers(min_value=0, max_value=DAY))
def test_more_time_on_a_stopped_clock_is_kept_for_its_return(turn, held, period, away):
    stopped = running(turn, held).stopped(T0, 10 * DAY)
    resumed = stopped.given(period, T0).resumed(at(away))
    assert resumed.turn_left(at(away)) == min(turn, 10 * DAY) + period and resumed.bank == held
