"""Schedule arithmetic, the Job of a schedule time and the history order (utils.go).

The tables are upstream's utils_test.go cases (TestMostRecentScheduleTime, TestNextScheduleTime,
TestNextScheduleTimeDuration, TestGetJobFromTemplate2, TestByJobStartTime), written out here.
"""

from __future__ import annotations

import datetime as dt

import pytest
from cronjob_builders import TOP_OF_THE_HOUR, UTC, after, cronjob, hours, job, minutes, sec

from k8sjobs.controller.cronjob import utils as u
from k8sjobs.cron import parse_standard

TOP = TOP_OF_THE_HOUR


def _cj(schedule, created, last=None, deadline=None):
    return cronjob().schedule(schedule).created(created).last_schedule(last).deadline(deadline).build()


@pytest.mark.parametrize(("schedule", "created", "last", "deadline", "include", "now", "earliest", "recent", "missed",
                          "error"), [
    pytest.param("0 * * * *", TOP, None, None, False, after(dt.timedelta(seconds=30)), TOP, None, "none", False,
                 id="now before the next schedule time: nothing is due"),
    pytest.param("0 * * * *", TOP, None, None, False, after(minutes(61)), TOP, after(minutes(60)), "none", False,
                 id="now just after the next schedule time: that time is due"),
    pytest.param("0 * * * *", after(dt.timedelta(seconds=10)), None, None, False, after(minutes(301)),
                 after(dt.timedelta(seconds=10)), after(minutes(300)), "few", False,
                 id="five missed hourly times: the last one is due, a few were missed"),
    pytest.param("30 6-16/4 * * 1-5", TOP, after(minutes(30)), None, False, after(hours(24) + minutes(31)),
                 after(minutes(30)), after(hours(24) + minutes(30)), "few", False,
                 id="a complex schedule finds its most recent time"),
    pytest.param("30 10,11,12 * * 1-5", TOP, after(minutes(30)), None, False, after(hours(30) + minutes(30)),
                 after(minutes(30)), None, "few", False,
                 id="an irregular schedule can be misjudged by the estimate and report no time (upstream's quirk)"),
    pytest.param("30 6-16/4 * * 1-5", TOP, after(minutes(30)), None, False, after(hours(96) + minutes(31)),
                 after(minutes(30)), after(hours(96) + minutes(30)), "few", False,
                 id="a complex schedule over a weekend finds its most recent time"),
    pytest.param("30 6-16/4 * * 1-5", TOP, None, None, False, after(hours(24) + minutes(31)),
                 TOP, after(hours(24) + minutes(30)), "few", False,
                 id="a complex schedule counted from the creation time"),
    pytest.param("@every 1h", after(minutes(-59)), after(minutes(1)), 10, False, after(dt.timedelta(days=7)),
                 after(minutes(1)), after(dt.timedelta(days=6, hours=23, minutes=1)), "many", False,
                 id="an @every schedule a week behind has missed many times and keeps its own rhythm"),
    pytest.param("59 23 31 2 *", after(dt.timedelta(seconds=10)), None, None, False, after(hours(1)),
                 None, None, "none", True,
                 id="a schedule that never fires is an error"),
    pytest.param("0 * * * *", TOP, TOP, None, False, after(dt.timedelta(seconds=30)), TOP, None, "none", False,
                 id="the search starts at lastScheduleTime when it equals the creation time"),
    pytest.param("*/5 * * * *", TOP, after(minutes(30)), None, False, after(minutes(31)), after(minutes(30)), None,
                 "none", False, id="the search starts at lastScheduleTime"),
    pytest.param("*/5 * * * *", TOP, after(minutes(30)), 60, False, after(minutes(31)), after(minutes(30)), None,
                 "none", False, id="without the deadline included the search starts at lastScheduleTime"),
    pytest.param("*/5 * * * *", TOP, after(minutes(30)), 60, True, after(minutes(32)), after(minutes(31)), None,
                 "none", False, id="with the deadline included the search starts at now minus the deadline"),
])
def test_most_recent_schedule_time(schedule, created, last, deadline, include, now, earliest, recent, missed, error):
    mr = u.most_recent_schedule_time(_cj(schedule, created, last, deadline), now, parse_standard(schedule), include)
    assert (mr.error is not None) == error
    if error:
        assert mr.most_recent is None
        return
    assert (mr.earliest, mr.most_recent, mr.missed) == (earliest, recent, missed)


T1 = TOP
T2 = after(hours(1))


@pytest.mark.parametrize(("created", "last", "deadline", "now", "schedule", "want", "error"), [
    pytest.param(T1 - minutes(10), None, None, T1 - minutes(7), "0 * * * ?", None, False,
                 id="case 1: never ran and nothing is due yet"),
    pytest.param(T1 - minutes(10), None, None, T1 + dt.timedelta(seconds=2), "0 * * * ?", T1, False,
                 id="case 2: never ran and one time is due"),
    pytest.param(T1 - minutes(10), T1, None, T1 + minutes(2), "0 * * * ?", None, False,
                 id="case 3: the last schedule time is the due one: nothing more"),
    pytest.param(T1 - minutes(10), T1, None, T2 + minutes(5), "0 * * * ?", T2, False,
                 id="case 4: ran at T1 and T2 is due"),
    pytest.param(T1 - hours(2), T1 - hours(1), None, T2 + minutes(5), "0 * * * ?", T2, False,
                 id="case 5: two times missed: only the most recent is due"),
    pytest.param(T1 - hours(2), T1 - hours(1), None, T2 + dt.timedelta(days=10), "0 * * * ?",
                 after(dt.timedelta(days=10, hours=1)), False,
                 id="case 6: ten days behind without a deadline: still the most recent time"),
    pytest.param(T1 - hours(2), T1 - hours(1), 7200, T2 + dt.timedelta(days=10), "0 * * * ?",
                 after(dt.timedelta(days=10, hours=1)), False,
                 id="case 7: ten days behind with a short deadline: the most recent time"),
    pytest.param(T1 + dt.timedelta(seconds=10), None, None, T2, "59 23 31 2 *", None, True,
                 id="case 8: a schedule that never fires gives no time and the error"),
])
def test_next_schedule_time(created, last, deadline, now, schedule, want, error):
    warned = []
    got = u.next_schedule_time(_cj(schedule, created, last, deadline), now, parse_standard(schedule), warned.append)
    assert got.scheduled == want
    assert (got.error is not None) == error


def test_next_schedule_time_warns_once_about_many_missed_times_and_still_returns_the_time():
    warned = []
    cj = _cj("* * * * *", T1 - hours(10), None)
    got = u.next_schedule_time(cj, T1, parse_standard("* * * * *"), warned.append)
    assert got.scheduled == T1
    assert [m.missed for m in warned] == ["many"] and warned[0].count == 600


@pytest.mark.parametrize(("schedule", "last", "now", "want_ms"), [
    pytest.param("30 6-16/4 * * 1-5", after(minutes(30)), after(hours(24) + minutes(31)),
                 (3 * 3600 + 59 * 60) * 1000 + 100, id="a complex schedule: 3h59m and 100 ms"),
    pytest.param("30 10,11,12 * * 1-5", after(minutes(30)), after(hours(30) + minutes(30)),
                 66 * 3600 * 1000 + 100, id="a weekday schedule skips the weekend: 66h and 100 ms"),
    pytest.param("0 12 * * 4", after(hours(2)), after(dt.timedelta(days=19, hours=1, minutes=30)),
                 (48 * 3600 + 30 * 60) * 1000 + 100, id="a weekly schedule that missed two runs: 48h30m and 100 ms"),
    pytest.param("0 12 * * 5", None, after(hours(6)), 20 * 3600 * 1000 + 100,
                 id="a CronJob that never ran: 20h and 100 ms"),
])
def test_next_schedule_time_duration(schedule, last, now, want_ms):
    got = u.next_schedule_time_duration(_cj(schedule, TOP, last), now, parse_standard(schedule))
    assert round(got * 1000) == want_ms


def test_the_requeue_from_go_s_zero_time_saturates_at_go_s_largest_duration():
    cj = _cj("0 * * * ?", None, TOP)
    got = u.next_schedule_time_duration(cj, u.GO_ZERO, parse_standard("0 * * * ?"))
    assert got == u.MAX_DURATION


@pytest.mark.parametrize(("zone", "annotations", "want_count", "want_stamp"), [
    pytest.param("UTC", {"x": "y"}, 2, "2016-05-19T10:00:00Z", id="UTC zone and one annotation"),
    pytest.param(None, {"x": "y"}, 2, "2016-05-19T10:00:00Z", id="no zone and one annotation: the stamp is UTC"),
    pytest.param("Europe/Rome", {"x": "y", "z": "x"}, 3, "2016-05-19T12:00:00+02:00",
                 id="a zone and two annotations: the stamp is in the zone"),
])
def test_get_job_from_template2(zone, annotations, want_count, want_stamp):
    from k8sjobs.api.types import JobTemplateSpec, ObjectMeta, evolve

    cj = cronjob().zone(zone).build()
    cj = evolve(cj, spec=evolve(cj.spec, job_template=JobTemplateSpec(
        metadata=ObjectMeta(labels={"a": "b"}, annotations=annotations), spec=cj.spec.job_template.spec)))
    j = u.get_job_from_template2(cj, TOP)
    assert j.metadata.name == "mycronjob-24394200"
    assert len(j.metadata.labels) == 1 and len(j.metadata.annotations) == want_count
    assert j.metadata.annotations["batch.kubernetes.io/cronjob-scheduled-timestamp"] == want_stamp
    assert j.metadata.creation_timestamp == sec(TOP)
    ref = j.metadata.owner_references[0]
    assert (ref.kind, ref.name, ref.uid, ref.controller, ref.block_owner_deletion) == \
        ("CronJob", "mycronjob", "1a2b3c", True, True)
    assert j.spec is cj.spec.job_template.spec


@pytest.mark.parametrize(("t", "name"), [
    pytest.param(TOP, "mycronjob-24394200", id="the name holds the scheduled time in Unix minutes"),
    pytest.param(dt.datetime(1, 1, 1, tzinfo=UTC), "mycronjob--1035593280", id="before 1970 the number is negative"),
    pytest.param(dt.datetime(1969, 12, 31, 23, 59, 30, tzinfo=UTC), "mycronjob-0",
                 id="Go's integer division truncates toward zero"),
])
def test_get_job_name(t, name):
    assert u.get_job_name(cronjob().build(), t) == name


NOW = dt.datetime(2018, 1, 1, 2, 3, 4, tzinfo=UTC)
LATER = dt.datetime(2019, 1, 1, 2, 3, 4, tzinfo=UTC)


@pytest.mark.parametrize(("jobs", "order"), [
    pytest.param([("b", None), ("a", None)], ["a", "b"], id="both without a start time: by name"),
    pytest.param([("a", None), ("b", NOW)], ["b", "a"], id="only the first without a start time: it goes last"),
    pytest.param([("a", NOW), ("b", None)], ["a", "b"], id="only the second without a start time: it goes last"),
    pytest.param([("b", NOW), ("a", NOW)], ["a", "b"], id="equal start times: by name"),
    pytest.param([("a", LATER), ("b", NOW)], ["b", "a"], id="different start times: the oldest first"),
])
def test_by_job_start_time(jobs, order):
    built = [job(name).started(t).build() for name, t in jobs]
    assert [j.metadata.name for j in u.sort_by_job_start_time(built)] == order


def test_the_active_list_helpers_match_by_uid_and_by_name():
    a = job("a", uid="1").build()
    b = job("b", uid="2").build()
    cj = cronjob().active(a, b).build()
    assert u.in_active_list(cj, "2") and not u.in_active_list(cj, "3")
    assert u.in_active_list_by_name(cj, "snazzycats", "a") and not u.in_active_list_by_name(cj, "other", "a")
    ref = u.Ref(cj)
    u.delete_from_active_list(ref, "1")
    assert [x.name for x in ref.obj.status.active] == ["b"]
    assert [x.name for x in cj.status.active] == ["a", "b"], "the frozen original is untouched"


@pytest.mark.parametrize(("t", "text"), [
    pytest.param(TOP, "2016-05-19T10:00:00Z", id="UTC is written Z"),
    pytest.param(TOP.astimezone(__import__("zoneinfo").ZoneInfo("America/New_York")), "2016-05-19T06:00:00-04:00",
                 id="another zone gets its offset"),
    pytest.param(TOP.astimezone(__import__("zoneinfo").ZoneInfo("Europe/London")).replace(month=1),
                 "2016-01-19T11:00:00Z", id="a zero offset is written Z whatever the zone"),
])
def test_format_rfc3339_writes_go_s_rfc3339(t, text):
    assert u.format_rfc3339(t) == text


NEW_YORK = u.load_location("America/New_York")


def _utc(*fields: int) -> dt.datetime:
    return dt.datetime(*fields, tzinfo=UTC)


# Go's Time compares and subtracts instants; a controller whose own zone has daylight saving
# (SimConfig.controller_zone) keeps its times in that zone, where Python would use the wall clock.
def test_in_a_zone_that_falls_back_an_hourly_time_on_the_repeated_hour_is_not_due_early():
    cj = _cj("0 * * * *", _utc(2016, 11, 6, 4), _utc(2016, 11, 6, 5))  # last ran at 01:00 EDT
    now = _utc(2016, 11, 6, 5, 30).astimezone(NEW_YORK)  # 01:30 EDT; 01:00 EST is 06:00 UTC, still to come
    got = u.next_schedule_time(cj, now, parse_standard("0 * * * *"))
    assert got.scheduled is None
    assert u.next_schedule_time_duration(cj, now, parse_standard("0 * * * *")) == pytest.approx(1800.1)


def test_in_a_zone_that_falls_back_the_requeue_counts_the_extra_hour():
    cj = _cj("0 12 * * *", _utc(2016, 11, 4), _utc(2016, 11, 4, 16))
    now = _utc(2016, 11, 5, 16, 0, 30).astimezone(NEW_YORK)
    # next: 12:00 EST on 6 November = 17:00 UTC, 25 h after 12:00 EDT the day before
    assert u.next_schedule_time_duration(cj, now, parse_standard("0 12 * * *")) == pytest.approx(89970.1)


@pytest.mark.parametrize(("seconds", "want"), [
    pytest.param(60, dt.timedelta(seconds=60), id="a minute is a minute"),
    pytest.param(9223372036, dt.timedelta(seconds=9223372036), id="the largest whole seconds that fit"),
    pytest.param(9223372037, dt.timedelta(microseconds=-9_223_372_036_709_551),  # 9223372037e9 - 2**64 ns
                 id="one more wraps around to about -292 years"),
])
def test_go_seconds_wraps_as_go_s_duration_does(seconds, want):
    assert u.go_seconds(seconds) == want


def test_a_deadline_past_292_years_wraps_into_the_future_and_nothing_is_ever_due():
    cj = _cj("0 * * * ?", TOP - hours(2), None, 9223372037)
    got = u.next_schedule_time(cj, TOP + minutes(1), parse_standard("0 * * * ?"))
    assert got.scheduled is None


def test_now_minus_the_zero_creation_time_saturates_so_an_irregular_schedule_still_finds_its_time():
    cj = _cj("30 10,11,12 * * 1-5", None, None)
    got = u.most_recent_schedule_time(cj, _utc(2016, 5, 20, 16, 30), parse_standard("30 10,11,12 * * 1-5"), False)
    assert (got.most_recent, got.missed) == (_utc(2016, 5, 20, 12, 30), "many")
