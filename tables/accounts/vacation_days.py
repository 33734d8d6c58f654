"""The yearly vacation allowance, counted exactly.

An account has ALLOWANCE_DAYS of vacation per calendar year. Days are the player's own
calendar days (their profile's time zone when they declare): every local day a vacation
touches counts as a whole day, the first one even if it began at 23:00, and a day counted by
two vacations counts once. A vacation across New Year counts each day in its own year.
A vacation runs until the end of the last day the player chose (local midnight).
"""

from __future__ import annotations

import datetime as dt
import zoneinfo
from collections.abc import Iterable
from dataclasses import dataclass

ALLOWANCE_DAYS = 14
LONGEST_DAYS = 366  # an end date further away than this is refused outright

DayRange = tuple[dt.date, dt.date]  # first and last day, both counted


def zone(name: str) -> zoneinfo.ZoneInfo:
    try:
        return zoneinfo.ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return zoneinfo.ZoneInfo("UTC")


def last_day(ends_at: dt.datetime, zone_name: str) -> dt.date:
    """The local last day of a vacation that ends at ``ends_at``: it ends as its last day does."""
    return local_day(ends_at - dt.timedelta(seconds=1), zone_name)


def local_day(at: dt.datetime, zone_name: str) -> dt.date:
    return at.astimezone(zone(zone_name)).date()


def end_of_day(day: dt.date, zone_name: str) -> dt.datetime:
    """The instant ``day`` ends in the zone: the next local midnight (DST included), in UTC."""
    midnight = dt.datetime.combine(day + dt.timedelta(days=1), dt.time(0), tzinfo=zone(zone_name))
    return midnight.astimezone(dt.UTC)


def days_of(ranges: Iterable[DayRange], year: int) -> set[dt.date]:
    """Every day of ``year`` that one of ``ranges`` counts."""
    days: set[dt.date] = set()
    for first, last in ranges:
        day = max(first, dt.date(year, 1, 1))
        while day <= min(last, dt.date(year, 12, 31)):
            days.add(day)
            day += dt.timedelta(days=1)
    return days


def days_left(ranges: Iterable[DayRange], year: int) -> int:
    return max(0, ALLOWANCE_DAYS - len(days_of(ranges, year)))


@dataclass(frozen=True)
class Shortfall:
    """A vacation needing more days of ``year`` than are left."""

    year: int
    left: int
    needed: int


def shortfall(others: list[DayRange], first: dt.date, last: dt.date) -> Shortfall | None:
    """What ``first``..``last`` lacks, beside the player's ``others`` vacations; None if it fits."""
    for year in range(first.year, last.year + 1):
        counted = days_of(others, year)
        needed = days_of([(first, last)], year) - counted
        if len(counted) + len(needed) > ALLOWANCE_DAYS:
            return Shortfall(year, max(0, ALLOWANCE_DAYS - len(counted)), len(needed))
    return None
