"""The yearly vacation allowance, counted in the player's own calendar days."""

from __future__ import annotations

import datetime as dt

from hypothesis import given
from hypothesis import strategies as st

from tables.accounts import vacation_days
from tables.accounts.vacation_days import (
    ALLOWANCE_DAYS,
    Shortfall,
    days_left,
    days_of,
    end_of_day,
    local_day,
    shortfall,
)

D = dt.date


def test_a_started_day_counts_whole_in_the_players_zone():
    late = dt.datetime(2026, 3, 9, 23, 30, tzinfo=dt.UTC)
    assert local_day(late, "UTC") == D(2026, 3, 9)
    assert local_day(late, "Europe/Madrid") == D(2026, 3, 10)  # already the next day there
    assert local_day(late, "America/Buenos_Aires") == D(2026, 3, 9)
    assert local_day(dt.datetime(2026, 3, 10, 2, 0, tzinfo=dt.UTC), "America/Los_Angeles") == D(2026, 3, 9)


def test_a_vacation_ends_at_local_midnight_daylight_saving_included():
    assert end_of_day(D(2026, 1, 5), "UTC") == dt.datetime(2026, 1, 6, tzinfo=dt.UTC)
    assert end_of_day(D(2026, 1, 5), "Europe/Madrid") == dt.datetime(2026, 1, 5, 23, tzinfo=dt.UTC)
    assert end_of_day(D(2026, 7, 5), "Europe/Madrid") == dt.datetime(2026, 7, 5, 22, tzinfo=dt.UTC)
    # 29 March 2026: Madrid moves to summer time; that day is 23 hours long, and ends at 22:00 UTC
    assert end_of_day(D(2026, 3, 29), "Europe/Madrid") == dt.datetime(2026, 3, 29, 22, tzinfo=dt.UTC)
    assert end_of_day(D(2026, 3, 28), "Europe/Madrid") == dt.datetime(2026, 3, 28, 23, tzinfo=dt.UTC)
    assert end_of_day(D(2026, 1, 5), "Not/AZone") == dt.datetime(2026, 1, 6, tzinfo=dt.UTC)  # UTC


def test_days_are_counted_inclusive_once_and_per_year():
    assert len(days_of([(D(2026, 5, 1), D(2026, 5, 1))], 2026)) == 1
    assert len(days_of([(D(2026, 5, 1), D(2026, 5, 14))], 2026)) == 14
    overlapping = [(D(2026, 5, 1), D(2026, 5, 3)), (D(2026, 5, 3), D(2026, 5, 4))]
    assert len(days_of(overlapping, 2026)) == 4  # 3 May counts once
    new_year = [(D(2026, 12, 29), D(2027, 1, 2))]
    assert len(days_of(new_year, 2026)) == 3 and len(days_of(new_year, 2027)) == 2
    assert days_left(new_year, 2027) == ALLOWANCE_DAYS - 2


def test_a_shortfall_names_the_year_what_is_left_and_what_is_needed():
    used = [(D(2026, 2, 1), D(2026, 2, 10))]  # 10 days
    assert shortfall(used, D(2026, 6, 1), D(2026, 6, 4)) is None  # exactly 14
    assert shortfall(used, D(2026, 6, 1), D(2026, 6, 5)) == Shortfall(2026, 4, 5)
    assert shortfall(used, D(2026, 2, 10), D(2026, 2, 14)) is None  # 10 Feb already counted
    across = shortfall([], D(2026, 12, 31), D(2027, 1, 14))
    assert across is None  # 1 day of 2026, 14 of 2027
    assert shortfall([], D(2026, 12, 31), D(2027, 1, 15)) == Shortfall(2027, 14, 15)


@given(
    first=st.dates(min_value=D(2025, 1, 1), max_value=D(2028, 12, 31)),
    length=st.integers(min_value=0, max_value=40),
    used=st.lists(
        st.tuples(st.dates(min_value=D(2025, 1, 1), max_value=D(2028, 12, 31)), st.integers(0, 20)),
        max_size=4,
    ),
)
def test_a_vacation_fits_exactly_when_each_year_keeps_within_the_allowance(first, length, used):
    others = [(start, start + dt.timedelta(days=days)) for start, days in used]
    last = first + dt.timedelta(days=length)
    wanted = {first + dt.timedelta(days=offset) for offset in range(length + 1)}
    counted = {start + dt.timedelta(days=offset) for start, days in used for offset in range(days + 1)}
    over = {
        year: len({day for day in wanted | counted if day.year == year})
        for year in range(first.year, last.year + 1)
    }
    short = shortfall(others, first, last)
    assert (short is None) == all(count <= ALLOWANCE_DAYS for count in over.values())
    if short is not None:
        first_over = min(year for year, count in over.items() if count > ALLOWANCE_DAYS)
        in_year = {day for day in counted if day.year == first_over}
        assert short.year == first_over
        assert short.left == max(0, ALLOWANCE_DAYS - len(in_year))
        assert short.needed == len({day for day in wanted if day.year == first_over} - in_year)


@given(
    at=st.datetimes(min_value=dt.datetime(2025, 1, 1), max_value=dt.datetime(2028, 12, 31)),
    zone=st.sampled_from(
        ["UTC", "Europe/Madrid", "America/Buenos_Aires", "Pacific/Kiritimati", "Pacific/Pago_Pago"]
    ),
)
def test_every_instant_lies_before_the_end_of_its_own_local_day(at, zone):
    instant = at.replace(tzinfo=dt.UTC)
    day = local_day(instant, zone)
    assert end_of_day(day - dt.timedelta(days=1), zone) <= instant < end_of_day(day, zone)
    assert vacation_days.zone(zone).key == zone
