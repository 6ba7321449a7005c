"""A wall-clock time in the hour the clocks go back names two instants: the CronJob's views and status
line add the UTC offset there, and only there."""

from __future__ import annotations

import datetime as dt

import pytest

from k8sjobs.cron import load_location
from k8sjobs.trace.cron_status import clock_time, repeated_hour_offset
from k8sjobs.viz.schedule import clock, date_time


def local(utc: str, zone: str) -> dt.datetime:
    return dt.datetime.fromisoformat(utc).astimezone(load_location(zone))


@pytest.mark.parametrize("utc, zone, offset", [
    # Berlin, 25 October 2026: 03:00 +02:00 becomes 02:00 +01:00, so 02:00-02:59 happens twice
    ("2026-10-25T00:30:00+00:00", "Europe/Berlin", " +02:00"),
    ("2026-10-25T01:30:00+00:00", "Europe/Berlin", " +01:00"),
    ("2026-10-25T00:00:00+00:00", "Europe/Berlin", " +02:00"),   # 02:00, the first time
    ("2026-10-25T00:59:59+00:00", "Europe/Berlin", " +02:00"),
    ("2026-10-25T02:00:00+00:00", "Europe/Berlin", ""),          # 03:00 +01:00: once
    ("2026-10-24T23:59:59+00:00", "Europe/Berlin", ""),          # 01:59:59 +02:00: once
    # the spring change skips an hour: nothing there is said twice
    ("2026-03-29T01:30:00+00:00", "Europe/Berlin", ""),
    # west of UTC: New York, 1 November 2026, 01:00-01:59 twice
    ("2026-11-01T05:30:00+00:00", "America/New_York", " -04:00"),
    ("2026-11-01T06:30:00+00:00", "America/New_York", " -05:00"),
    # a half-hour change: Lord Howe Island, 5 April 2026, 02:00 +11:00 becomes 01:30 +10:30
    ("2026-04-04T14:40:00+00:00", "Australia/Lord_Howe", " +11:00"),
    ("2026-04-04T15:10:00+00:00", "Australia/Lord_Howe", " +10:30"),
    ("2026-10-25T00:30:00+00:00", "UTC", ""),
    ("2026-10-25T00:30:00+00:00", "Asia/Shanghai", ""),
])
def test_a_time_gets_its_utc_offset_only_when_its_zone_says_that_wall_clock_time_twice(utc, zone, offset):
    assert repeated_hour_offset(local(utc, zone)) == offset


def seconds(utc: str) -> float:
    # simulated seconds from the model's epoch, 2026-01-01T00:00:00Z (a run started there, origin 0)
    return (dt.datetime.fromisoformat(utc) - dt.datetime(2026, 1, 1, tzinfo=dt.UTC)).total_seconds()


def test_the_schedule_views_clock_and_the_status_lines_clock_say_the_two_0230s_apart():
    first, second = seconds("2026-10-25T00:30:00+00:00"), seconds("2026-10-25T01:30:00+00:00")
    assert (clock(first, "Europe/Berlin"), clock(second, "Europe/Berlin")) == ("02:30 +02:00", "02:30 +01:00")
    assert clock(second + 0.1, "Europe/Berlin", seconds=True) == "02:30:00.1 +01:00"
    assert date_time(first, "Europe/Berlin") == "2026-10-25 02:30 +02:00"
    assert (clock_time(first, "Europe/Berlin"), clock_time(second + 7, "Europe/Berlin")) == \
        ("02:30 +02:00", "02:30:07 +01:00")
    # a day later the same wall-clock time is said once, bare
    day = 86400
    assert clock(second + day, "Europe/Berlin") == "02:30" and clock_time(second + day, "Europe/Berlin") == "02:30"
