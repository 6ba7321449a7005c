"""k8sjobs.cron reads and runs schedules as robfig/cron v3's ParseStandard and Next do.

The conformance files (tests/conformance/cronjob/cron-*.json) hold upstream's own cases;
these tables add the errors' exact texts, Go's daylight-saving resolution in zones east
and west of UTC, and the edges the library notes describe.
"""

from __future__ import annotations

import datetime as dt

import pytest

from k8sjobs.cron import (
    STAR_BIT,
    ZERO_TIME,
    ConstantDelaySchedule,
    CronParseError,
    SpecSchedule,
    UnknownTimeZoneError,
    is_zero,
    load_location,
    parse_go_duration,
    parse_standard,
)

NY = load_location("America/New_York")
BERLIN = load_location("Europe/Berlin")
UTC = dt.UTC


def at(text: str, zone: dt.tzinfo) -> dt.datetime:
    return dt.datetime.fromisoformat(text).astimezone(zone)


ERRORS = {
    "an empty schedule": ("", "empty spec string"),
    "four fields": ("* * * *", "expected exactly 5 fields, found 4: [* * * *]"),
    "six fields (no seconds field in the standard parser)": ("0 5 * * * *", "expected exactly 5 fields, found 6: [0 5 * * * *]"),
    "only blanks": ("   ", "expected exactly 5 fields, found 0: []"),
    "a minute above 59": ("60 * * * *", "end of range (60) above maximum (59): 60"),
    "weekday 7 (robfig allows 0-6 only)": ("0 0 * * 7", "end of range (7) above maximum (6): 7"),
    "day of month 0": ("0 0 0 * *", "beginning of range (0) below minimum (1): 0"),
    "a backwards range": ("5-1 * * * *", "beginning of range (5) beyond end of range (1): 5-1"),
    "a step of zero": ("*/0 * * * *", "step of range should be a positive number: */0"),
    "two hyphens": ("1-2-3 * * * *", "too many hyphens: 1-2-3"),
    "two slashes": ("*/2/3 * * * *", "too many slashes: */2/3"),
    "a word where a number belongs": ("5 j * * *", 'failed to parse int from j: strconv.Atoi: parsing "j": invalid syntax'),
    "a negative step": ("*/-1 * * * *", "negative number (-1) not allowed: -1"),
    "an unknown descriptor": ("@fortnightly", "unrecognized descriptor: @fortnightly"),
    "a descriptor with a trailing space": ("@weekly ", "unrecognized descriptor: @weekly "),
    "an @every without a unit": ("@every 5", 'failed to parse duration @every 5: time: missing unit in duration "5"'),
    "an @every with an unknown unit": ("@every 5d",
                                       'failed to parse duration @every 5d: time: unknown unit "d" in duration "5d"'),
    "an unknown zone in the prefix": ("TZ=Mars/Olympus * * * * *",
                                      "provided bad location Mars/Olympus: unknown time zone Mars/Olympus"),
    "a zone name with ..": ("CRON_TZ=../etc * * * * *", "provided bad location ../etc: time: invalid location name"),
}


@pytest.mark.parametrize(("spec", "message"), ERRORS.values(), ids=ERRORS.keys())
def test_a_bad_schedule_is_refused_with_robfigs_error_text(spec: str, message: str) -> None:
    with pytest.raises(CronParseError) as info:
        parse_standard(spec)
    assert str(info.value) == message
    assert info.value.panicked is False


@pytest.mark.parametrize("spec", ["TZ=", "TZ=0", "CRON_TZ=UTC"])
def test_a_zone_prefix_without_a_space_is_the_input_where_go_panics(spec: str) -> None:
    with pytest.raises(CronParseError) as info:
        parse_standard(spec)
    assert info.value.panicked is True
    assert "slice bounds out of range" in str(info.value)


def test_an_empty_zone_name_is_utc_as_go_loads_it() -> None:
    schedule = parse_standard("TZ= 0 12 * * *")
    assert isinstance(schedule, SpecSchedule) and schedule.location == "UTC"


def test_names_ranges_steps_and_question_marks_set_the_same_bits_as_robfig() -> None:
    s = parse_standard("5/20 9-17/4 ? JAN,jul mon-FRI")
    assert isinstance(s, SpecSchedule)
    assert s.values("minute") == [5, 25, 45] and not s.has_star("minute")
    assert s.values("hour") == [9, 13, 17]
    assert s.has_star("dom") and s.values("dom") == list(range(1, 32))
    assert s.values("month") == [1, 7] and s.values("dow") == [1, 2, 3, 4, 5]
    assert s.second == 1 and s.location is None


def test_a_star_with_a_step_above_one_drops_the_star_bit_and_with_step_one_keeps_it() -> None:
    assert not parse_standard("* * */2 * *").dom & STAR_BIT
    assert parse_standard("* * */1 * *").dom & STAR_BIT


def test_every_is_truncated_to_whole_seconds_and_at_least_one_second() -> None:
    assert parse_standard("@every 1m30.9s") == ConstantDelaySchedule(90)
    assert parse_standard("@every 0s") == ConstantDelaySchedule(1)
    assert parse_standard("@every -5m") == ConstantDelaySchedule(1)


def test_go_durations_parse_with_fractions_and_every_unit() -> None:
    assert parse_go_duration("1h2m3.5s") == 3_723_500_000_000
    assert parse_go_duration("1.5us") == parse_go_duration("1.5\u00b5s") == 1500
    assert parse_go_duration("0") == 0
    with pytest.raises(ValueError, match='time: invalid duration ""'):
        parse_go_duration("")


NEXT = {
    "New York spring forward: a 02:30 job skips the missing day and runs a year later": (
        "30 2 11 Mar ?", NY, "2012-03-11T00:00:00-05:00", "2013-03-11T02:30:00-04:00"),
    "New York spring forward: an hourly job goes from 01:00 EST to 03:00 EDT": (
        "0 * * * *", NY, "2012-03-11T01:00:00-05:00", "2012-03-11T03:00:00-04:00"),
    "New York fall back: a 01:00 job runs at 01:00 EDT": (
        "0 1 * * *", NY, "2012-11-04T00:30:00-04:00", "2012-11-04T01:00:00-04:00"),
    "New York fall back: and again at 01:00 EST": (
        "0 1 * * *", NY, "2012-11-04T01:00:00-04:00", "2012-11-04T01:00:00-05:00"),
    "Berlin spring forward: a 02:30 job does not run on the day 02:00-03:00 is skipped": (
        "30 2 * * *", BERLIN, "2012-03-25T00:00:00+01:00", "2012-03-26T02:30:00+02:00"),
    "Berlin fall back: a 02:30 job runs at 02:30 CEST": (
        "30 2 * * *", BERLIN, "2012-10-28T00:00:00+02:00", "2012-10-28T02:30:00+02:00"),
    "Berlin fall back: and again at 02:30 CET": (
        "30 2 * * *", BERLIN, "2012-10-28T02:30:00+02:00", "2012-10-28T02:30:00+01:00"),
    "a TZ= prefix computes in its zone and answers in the zone of the time given": (
        "TZ=Asia/Tokyo 0 9 * * *", UTC, "2026-01-01T00:30:00+00:00", "2026-01-02T00:00:00+00:00"),
    "without a prefix the schedule runs in the zone of the time given": (
        "0 9 * * *", load_location("Asia/Tokyo"), "2026-01-01T09:30:00+09:00", "2026-01-02T09:00:00+09:00"),
    "the day rule: both day fields restricted means either may match": (
        "0 0 13 * 5", UTC, "2026-02-01T00:00:00+00:00", "2026-02-06T00:00:00+00:00"),
    "a fraction of a second in the start is dropped, the next minute still found": (
        "* * * * *", UTC, "2026-01-01T00:00:59.999+00:00", "2026-01-01T00:01:00+00:00"),
}


@pytest.mark.parametrize(("spec", "zone", "start", "expected"), NEXT.values(), ids=NEXT.keys())
def test_next_activation_matches_robfig_including_daylight_saving(spec: str, zone: dt.tzinfo, start: str,
                                                                 expected: str) -> None:
    found = parse_standard(spec).next(at(start, zone))
    assert found.isoformat() == expected
    assert found.tzinfo is zone


def test_a_schedule_that_never_fires_returns_the_zero_time_after_five_years() -> None:
    found = parse_standard("0 0 30 2 *").next(at("2026-01-01T00:00:00+00:00", UTC))
    assert found == ZERO_TIME and is_zero(found)


def test_february_29_is_found_within_the_five_year_limit() -> None:
    found = parse_standard("0 0 29 2 *").next(at("2025-03-01T00:00:00+00:00", UTC))
    assert found.isoformat() == "2028-02-29T00:00:00+00:00"


def test_next_refuses_a_naive_time() -> None:
    with pytest.raises(ValueError, match="timezone-aware"):
        parse_standard("* * * * *").next(dt.datetime(2026, 1, 1))  # noqa: DTZ001 - the naive time is the point


def test_every_adds_elapsed_time_across_a_daylight_saving_change() -> None:
    found = parse_standard("@every 1h").next(at("2012-03-11T01:30:00-05:00", NY))
    assert found.isoformat() == "2012-03-11T03:30:00-04:00"


@pytest.mark.parametrize(("name", "message"), [("Mars/Olympus", "unknown time zone Mars/Olympus"),
                                               ("/etc/localtime", "time: invalid location name"),
                                               ("america/new_york", "unknown time zone america/new_york")])
def test_zones_load_from_tzdata_by_their_exact_iana_name(name: str, message: str) -> None:
    with pytest.raises(UnknownTimeZoneError) as info:
        load_location(name)
    assert str(info.value) == message


def test_utc_and_local_load_as_go_loads_them() -> None:
    assert load_location("") is UTC and load_location("UTC") is UTC
    assert load_location("Local") is None


def _stepping_advance(u: int, w: dt.datetime, bits: int, unit: int, field: str,
                      zone: dt.tzinfo) -> tuple[int, dt.datetime, bool]:
    """robfig's loop one unit at a time, as the reference for the jumping one."""
    while True:
        u += unit
        w = dt.datetime.fromtimestamp(u, zone)
        if getattr(w, field) == 0:
            return u, w, True
        if bits >> getattr(w, field) & 1:
            return u, w, False


def test_jumping_over_minutes_and_seconds_gives_the_same_answers_as_stepping(monkeypatch: pytest.MonkeyPatch) -> None:
    import random

    from k8sjobs import cron

    rng = random.Random(22)
    zones = [UTC, NY, BERLIN, load_location("Australia/Lord_Howe"), load_location("Asia/Kolkata"),
             load_location("America/Sao_Paulo"), dt.timezone(dt.timedelta(hours=5, minutes=45))]
    specs = ["* * * * *", "*/7 * * * *", "13,47 */5 * * *", "0 1-3 * * *", "30 2 * 3,10,11 0", "59 23 31 * *",
             "0 0 1 1 *", "*/15 0-4 * * 6", "1 * * * *", "0,30 * * * *"]
    cases = []
    for _ in range(300):
        zone = rng.choice(zones)
        start = dt.datetime.fromtimestamp(rng.randrange(1_300_000_000, 1_800_000_000), zone)
        cases.append((rng.choice(specs), start))
    transition_days = [(NY, "2012-03-11"), (NY, "2012-11-04"), (BERLIN, "2012-03-25"), (BERLIN, "2012-10-28"),
                       (zones[3], "2012-04-01"), (zones[3], "2012-10-07"), (zones[5], "2012-10-21"),
                       (zones[5], "2012-02-26")]
    for zone, day in transition_days:  # every half hour of a day whose clock jumps
        midnight = dt.datetime.fromisoformat(day + "T00:00:00").replace(tzinfo=zone).timestamp()
        for half_hours in range(48):
            start = dt.datetime.fromtimestamp(midnight - 3600 + half_hours * 1800 + 59, zone)
            cases.extend((spec, start) for spec in specs)
    fast = [parse_standard(spec).next(start) for spec, start in cases]
    monkeypatch.setattr(cron, "_advance", _stepping_advance)
    slow = [parse_standard(spec).next(start) for spec, start in cases]
    assert [t.isoformat() for t in fast] == [t.isoformat() for t in slow]


def test_a_time_in_a_tzdata_zone_survives_deepcopy_and_pickle_with_the_same_zone_object() -> None:
    import copy
    import pickle

    when = dt.datetime(2012, 11, 4, 1, 30, fold=1, tzinfo=NY)  # the second 01:30, EST
    for twin in (copy.deepcopy(when), pickle.loads(pickle.dumps(when))):
        assert twin.tzinfo is NY and twin.isoformat() == "2012-11-04T01:30:00-05:00"
    assert pickle.loads(pickle.dumps(parse_standard("TZ=Europe/Berlin 0 3 * * *"))).zone is BERLIN
