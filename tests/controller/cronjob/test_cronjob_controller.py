"""The CronJob controller (cronjob_controllerv2.go): sync_cron_job, cleanup_finished_jobs, sync, the
handlers and the worker, on upstream's test fakes (injection.go's fakeJobControl and fakeCJControl).

The sync_cron_job table follows TestControllerV2SyncCronJob's situations (never ran / ran before,
is time / not time, concurrency policies, deadlines, suspend, zones, API errors), each named as
the behaviour it checks; every upstream case of that test also runs as a conformance case.
"""

from __future__ import annotations

import datetime as dt

import pytest
from cronjob_builders import (
    JUST_AFTER_THE_HOUR,
    JUST_AFTER_THE_PRIOR_HOUR,
    JUST_BEFORE_THE_HOUR,
    JUST_BEFORE_THE_PRIOR_HOUR,
    TOP_OF_THE_HOUR,
    WEEK_AFTER_THE_HOUR,
    cronjob,
    hours,
    job,
    sec,
)

from k8sjobs.api.apierrors import NAMESPACE_TERMINATING_CAUSE, APIError, Reason
from k8sjobs.api.informer import Informer
from k8sjobs.clock import FakeClock
from k8sjobs.controller.cronjob import CronJobController, FakeCronJobControl, FakeJobControl
from k8sjobs.controller.cronjob import utils as u
from k8sjobs.controller.cronjob.cronjob_controllerv2 import go_quote
from k8sjobs.hooks import Collector
from k8sjobs.trace.reasons import render, template


class Recorder:
    def __init__(self):
        self.events = []

    def event(self, obj, type, reason, message):
        self.events.append((type, reason, message))

    def reasons(self):
        return [r for _, r, _ in self.events]


def make(now, *, job_api=None, cj_api=None, cronjobs=(), jobs=()):
    rec = Recorder()
    emit = Collector()
    cj_inf, job_inf = Informer(None, "CronJob"), Informer(None, "Job")
    cj_inf.replace_all(list(cronjobs))
    job_inf.replace_all(list(jobs))
    ctrl = CronJobController(cronjobs=cj_inf, jobs=job_inf, job_control=job_api or FakeJobControl(),
                             cronjob_control=cj_api or FakeCronJobControl(), recorder=rec,
                             clock=FakeClock(sec(now)), emit=emit, register_handlers=False)
    return ctrl, rec, emit


def ms(seconds):
    return None if seconds is None else round(seconds * 1000)


def not_found():
    return APIError(Reason.NOT_FOUND, 'jobs.batch "x" not found')


HOURLY = "0 * * * ?"
OLD = job("mycronjob-24394141").build()  # the Job of 09:01, as upstream's ran-previously cases name it


def ran_before(cj_builder, *active):
    """lastScheduleTime justAfterThePriorHour, created justBeforeThePriorHour."""
    return cj_builder.created(JUST_BEFORE_THE_PRIOR_HOUR).last_schedule(JUST_AFTER_THE_PRIOR_HOUR).active(*active)


ROWS = [
    # id, cronjob builder, jobs, job api, now, created, deleted, events, update_status, requeue ms, error
    ("never ran and it is not time yet: requeue at the top of the hour plus 100 ms",
     cronjob().schedule(HOURLY).created(JUST_BEFORE_THE_HOUR), [], None, JUST_BEFORE_THE_HOUR,
     [], [], [], False, 60_100, False),
    ("never ran and it is time: one Job named after the scheduled minute, SuccessfulCreate",
     cronjob().schedule(HOURLY).created(JUST_BEFORE_THE_HOUR), [], None, JUST_AFTER_THE_HOUR,
     ["mycronjob-24394200"], [], ["SuccessfulCreate"], True, 3_540_100, False),
    ("a suspended CronJob creates nothing and is not requeued",
     cronjob().schedule(HOURLY).created(JUST_BEFORE_THE_HOUR).suspend(), [], None, JUST_AFTER_THE_HOUR,
     [], [], [], False, None, False),
    ("an unparseable schedule records UnparseableSchedule and is not requeued",
     cronjob().schedule("obvious error schedule").created(JUST_BEFORE_THE_HOUR), [], None, JUST_AFTER_THE_HOUR,
     [], [], ["UnparseableSchedule"], False, None, False),
    ("an unknown time zone records UnknownTimeZone before the schedule is read",
     cronjob().schedule("obvious error schedule").zone("bad timezone").created(JUST_BEFORE_THE_HOUR), [], None,
     JUST_AFTER_THE_HOUR, [], [], ["UnknownTimeZone"], False, None, False),
    ("TZ in the schedule records UnsupportedSchedule and still runs the schedule as written",
     cronjob().schedule("TZ=UTC 0 * * * ?").created(JUST_BEFORE_THE_HOUR), [], None, JUST_AFTER_THE_HOUR,
     ["mycronjob-24394200"], [], ["UnsupportedSchedule", "SuccessfulCreate"], True, 3_540_100, False),
    ("a startingDeadlineSeconds already past skips the time without an event",
     cronjob().schedule(HOURLY).created(JUST_BEFORE_THE_HOUR).deadline(10), [], None, JUST_AFTER_THE_HOUR,
     [], [], [], False, 3_540_100, False),
    ("Forbid with an active Job skips the time with JobAlreadyActive",
     ran_before(cronjob().schedule(HOURLY).policy("Forbid"), OLD), [job("mycronjob-24394141").build()], None,
     JUST_AFTER_THE_HOUR, [], [], ["JobAlreadyActive"], False, 3_540_100, False),
    ("Allow with an active Job runs the next one beside it",
     ran_before(cronjob().schedule(HOURLY).policy("Allow"), OLD), [job("mycronjob-24394141").build()], None,
     JUST_AFTER_THE_HOUR, ["mycronjob-24394200"], [], ["SuccessfulCreate"], True, 3_540_100, False),
    ("Replace deletes the active Job first, then creates the next",
     ran_before(cronjob().schedule(HOURLY).policy("Replace"), OLD), [job("mycronjob-24394141").build()],
     FakeJobControl(job=job("mycronjob-24394141").build()), JUST_AFTER_THE_HOUR,
     ["mycronjob-24394200"], ["mycronjob-24394141"], ["SuccessfulDelete", "SuccessfulCreate"], True, 3_540_100,
     False),
    ("Replace whose GET fails records FailedGet and returns the error before creating",
     ran_before(cronjob().schedule(HOURLY).policy("Replace"), OLD), [job("mycronjob-24394141").build()],
     FakeJobControl(err=APIError(Reason.BAD_REQUEST, "bad request")), JUST_AFTER_THE_HOUR,
     [], [], ["FailedGet"], False, None, True),
    ("a finished active Job leaves status.active with SawCompletedJob",
     ran_before(cronjob().schedule(HOURLY), OLD),
     [job("mycronjob-24394141").complete(at=JUST_AFTER_THE_PRIOR_HOUR + dt.timedelta(seconds=10)).build()], None,
     JUST_BEFORE_THE_HOUR, [], [], ["SawCompletedJob"], True, 60_100, False),
    ("an unfinished Job missing from status.active and from the re-read CronJob is UnexpectedJob",
     ran_before(cronjob().schedule(HOURLY)), [job("mycronjob-24394141").build()], None, JUST_BEFORE_THE_HOUR,
     [], [], ["UnexpectedJob"], False, 60_100, False),
    ("an active Job the API server no longer has leaves status.active with MissingJob",
     ran_before(cronjob().schedule(HOURLY), OLD), [], FakeJobControl(err=not_found()), JUST_BEFORE_THE_HOUR,
     [], [], ["MissingJob"], True, 60_100, False),
    ("an active Job the API server still has stays even though the cache lacks it",
     ran_before(cronjob().schedule(HOURLY), OLD), [], FakeJobControl(job=OLD), JUST_BEFORE_THE_HOUR,
     [], [], [], False, 60_100, False),
    ("the time already in lastScheduleTime is not run again",
     cronjob().schedule(HOURLY).created(JUST_BEFORE_THE_PRIOR_HOUR).last_schedule(TOP_OF_THE_HOUR), [], None,
     JUST_AFTER_THE_HOUR, [], [], [], False, 3_540_100, False),
    ("a week behind on an hourly schedule: TooManyMissedTimes, and the most recent time still runs",
     cronjob().schedule(HOURLY).created(JUST_BEFORE_THE_PRIOR_HOUR).last_schedule(JUST_AFTER_THE_PRIOR_HOUR), [],
     None, WEEK_AFTER_THE_HOUR, ["mycronjob-24404280"], [], ["TooManyMissedTimes", "SuccessfulCreate"], True,
     3_600_100, False),
    ("a CronJob being deleted only reconciles its active list",
     cronjob().schedule(HOURLY).created(JUST_BEFORE_THE_HOUR).deleting(JUST_AFTER_THE_HOUR), [], None,
     JUST_AFTER_THE_HOUR, [], [], [], False, None, False),
    ("a failed create records FailedCreate and returns the error",
     cronjob().schedule(HOURLY).created(JUST_BEFORE_THE_HOUR), [],
     FakeJobControl(create_err=APIError(Reason.INTERNAL, "quota")), JUST_AFTER_THE_HOUR,
     [], [], ["FailedCreate"], False, None, True),
    ("a terminating namespace returns the error without an event",
     cronjob().schedule(HOURLY).created(JUST_BEFORE_THE_HOUR), [],
     FakeJobControl(create_err=APIError(Reason.FORBIDDEN, "terminating", cause=NAMESPACE_TERMINATING_CAUSE)),
     JUST_AFTER_THE_HOUR, [], [], [], False, None, True),
]


@pytest.mark.parametrize(("builder", "jobs", "job_api", "now", "created", "deleted", "events", "update", "requeue",
                          "error"), [pytest.param(*row[1:], id=row[0]) for row in ROWS])
def test_sync_cron_job(builder, jobs, job_api, now, created, deleted, events, update, requeue, error):
    api = job_api or FakeJobControl()
    ctrl, rec, emit = make(now, job_api=api, cj_api=FakeCronJobControl(builder.build()))
    ref = u.Ref(builder.build())
    got_requeue, got_update, got_err = ctrl.sync_cron_job(ref, jobs)
    assert [j.metadata.name for j in api.created] == created
    assert api.deleted == deleted
    assert rec.reasons() == events
    assert (got_update, ms(got_requeue), got_err is not None) == (update, requeue, error)
    for rule, fields in emit.records:
        assert template(rule, fields.get("case", "")) is not None, rule
        assert render(rule, fields)
    if created:
        active = ref.obj.status.active
        assert active[-1].name == created[-1] and active[-1].uid == "test-uid"
        assert ref.obj.status.last_schedule_time is not None


def test_a_created_job_carries_the_scheduled_time_in_its_annotation_in_the_cronjob_zone():
    api = FakeJobControl()
    cj = cronjob().schedule(HOURLY).zone("America/New_York").created(JUST_BEFORE_THE_HOUR).build()
    ctrl, _, _ = make(JUST_AFTER_THE_HOUR, job_api=api)
    ctrl.sync_cron_job(u.Ref(cj), [])
    (made,) = api.created
    assert made.metadata.annotations["batch.kubernetes.io/cronjob-scheduled-timestamp"] == \
        "2016-05-19T06:00:00-04:00"
    assert made.metadata.labels == {"a": "b"} and made.metadata.owner_references[0].uid == "1a2b3c"


def test_a_succeeded_job_sets_last_successful_time_to_the_latest_completion_even_when_not_active():
    cj = ran_before(cronjob().schedule(HOURLY)).build()
    early = job("a", uid="1").complete(at=JUST_AFTER_THE_PRIOR_HOUR).build()
    late = job("b", uid="2").complete(at=JUST_BEFORE_THE_HOUR).build()
    ctrl, rec, _ = make(JUST_BEFORE_THE_HOUR)
    ref = u.Ref(cj)
    _, update, _ = ctrl.sync_cron_job(ref, [late, early])
    assert update and ref.obj.status.last_successful_time == sec(JUST_BEFORE_THE_HOUR)
    assert rec.reasons() == [], "neither was in status.active: no SawCompletedJob"


def test_an_unfinished_job_found_in_the_reread_cronjob_switches_to_that_copy_and_leaves_the_passed_one_alone():
    running = job("mycronjob-24394200").build()
    passed = cronjob().schedule(HOURLY).created(JUST_BEFORE_THE_PRIOR_HOUR).last_schedule(
        JUST_AFTER_THE_PRIOR_HOUR).deadline(1_000_000).build()
    stored = cronjob().schedule(HOURLY).created(JUST_BEFORE_THE_HOUR).active(running).build()
    api = FakeJobControl(job=running)
    ctrl, rec, _ = make(JUST_AFTER_THE_HOUR, job_api=api, cj_api=FakeCronJobControl(stored))
    ref = u.Ref(passed)
    requeue, update, err = ctrl.sync_cron_job(ref, [running])
    assert (api.created, rec.reasons(), update, err) == ([], [], False, None)
    assert ref.obj is passed, "the caller's object is not the one that changed"
    assert round(requeue * 1000) == 3_540_100, "the re-read copy already lists the Job of 10:00: wait for 11:00"


@pytest.mark.parametrize(("in_active", "owner_uid", "events", "active_after", "update", "requeue"), [
    pytest.param(False, "1a2b3c", [], ["mycronjob-24394141"], True, 3_600_100,
                 id="AlreadyExists for a Job this CronJob controls and does not list: adopted without an event"),
    pytest.param(True, "1a2b3c", [], ["mycronjob-24394141"], False, None,
                 id="AlreadyExists for a Job already in status.active: nothing changes, no requeue"),
    pytest.param(False, "someone-else", [], [], False, None,
                 id="AlreadyExists for a Job another owner controls: left alone, no requeue"),
])
def test_already_exists_is_handled_as_upstream(in_active, owner_uid, events, active_after, update, requeue):
    base = cronjob().schedule("@every 1h").policy("Forbid").created(JUST_BEFORE_THE_HOUR).last_schedule(
        JUST_BEFORE_THE_PRIOR_HOUR)
    cj0 = base.build()
    existing = job("mycronjob-24394141").controlled_by(cj0, uid=owner_uid).build()
    cj = (base.active(existing) if in_active else base).build()
    api = FakeJobControl(job=existing, create_err=APIError(Reason.ALREADY_EXISTS, "exists"))
    ctrl, rec, _ = make(JUST_BEFORE_THE_HOUR, job_api=api)
    # Forbid with an active Job would skip before creating: only the not-active rows reach the create.
    if in_active:
        cj = cronjob().schedule("@every 1h").created(JUST_BEFORE_THE_HOUR).last_schedule(
            JUST_BEFORE_THE_PRIOR_HOUR).active(existing).build()
    ref = u.Ref(cj)
    got_requeue, got_update, err = ctrl.sync_cron_job(ref, [])
    assert rec.reasons() == events and err is None and ms(got_requeue) == requeue
    assert [a.name for a in ref.obj.status.active] == active_after
    assert got_update == update
    assert api.get_calls[-1] == ("snazzycats", "mycronjob-24394199"), "the last GET asks for the new Job by name"


def test_cleanup_deletes_the_oldest_finished_jobs_beyond_each_limit():
    cj = cronjob().history(1, 1).build()
    ok = [job(f"ok-{i}", uid=f"s{i}").started(TOP_OF_THE_HOUR + hours(i)).complete().build() for i in range(3)]
    bad = [job(f"bad-{i}", uid=f"f{i}").started(TOP_OF_THE_HOUR + hours(i)).failed().build() for i in range(2)]
    running = job("running", uid="r").started(TOP_OF_THE_HOUR).build()
    api = FakeJobControl()
    ctrl, rec, _ = make(TOP_OF_THE_HOUR, job_api=api)
    ref = u.Ref(cj)
    assert ctrl.cleanup_finished_jobs(ref, [ok[2], bad[1], running, ok[0], bad[0], ok[1]])
    assert sorted(api.deleted) == ["bad-0", "ok-0", "ok-1"]
    assert rec.reasons() == ["SuccessfulDelete"] * 3


def test_cleanup_does_nothing_when_both_limits_are_unset():
    api = FakeJobControl()
    ctrl, _, _ = make(TOP_OF_THE_HOUR, job_api=api)
    done = [job(f"ok-{i}", uid=str(i)).complete().build() for i in range(5)]
    assert not ctrl.cleanup_finished_jobs(u.Ref(cronjob().build()), done)
    assert api.deleted == []


def test_a_failed_cleanup_delete_records_failed_delete_and_asks_for_no_status_write():
    api = FakeJobControl(err=APIError(Reason.INTERNAL, "boom"))
    ctrl, rec, _ = make(TOP_OF_THE_HOUR, job_api=api)
    done = [job(f"ok-{i}", uid=str(i)).complete().build() for i in range(2)]
    assert not ctrl.cleanup_finished_jobs(u.Ref(cronjob().history(1, None).build()), done)
    assert rec.reasons() == ["FailedDelete"]


@pytest.mark.parametrize(("owners", "want"), [
    pytest.param({}, [], id="Jobs without a controller reference are not the CronJob's"),
    pytest.param({"foo1": "fooer"}, ["foo1"], id="a Job whose controller reference names the CronJob is its"),
    pytest.param({"foo1": "fooer", "foo2": "other"}, ["foo1"], id="a Job controlled by another name is not"),
    pytest.param({"foo1": "fooer", "foo2": "fooer"}, ["foo1", "foo2"],
                 id="the name decides, not the UID (upstream matches by name)"),
])
def test_get_jobs_to_be_reconciled(owners, want):
    from k8sjobs.api.types import Job, ObjectMeta, OwnerReference

    jobs = [Job(metadata=ObjectMeta(name=n, namespace="foo-ns", owner_references=(
        (OwnerReference(name=owners[n], controller=True),) if n in owners else ()))) for n in ("foo", "foo1", "foo2")]
    jobs.append(Job(metadata=ObjectMeta(name="elsewhere", namespace="bar-ns", owner_references=(
        OwnerReference(name="fooer", controller=True),))))
    ctrl, _, _ = make(TOP_OF_THE_HOUR, jobs=jobs)
    cj = cronjob("fooer").build()
    from k8sjobs.api.types import evolve

    cj = evolve(cj, metadata=evolve(cj.metadata, namespace="foo-ns"))
    assert [j.metadata.name for j in ctrl.get_jobs_to_be_reconciled(cj)] == want


def _update(old, new, now=TOP_OF_THE_HOUR - dt.timedelta(seconds=1)):
    ctrl, rec, _ = make(now)
    ctrl.update_cron_job(old, new)
    return [(verb, round(delay * 1000)) for _, verb, _, delay in ctrl.queue.log], rec.reasons()


def test_an_update_that_keeps_schedule_and_zone_syncs_at_once():
    old = cronjob().schedule(HOURLY).build()
    new = cronjob().schedule(HOURLY).suspend().build()
    assert _update(old, new) == ([("add", 0)], [])


@pytest.mark.parametrize(("old_schedule", "new_schedule", "old_zone", "new_zone", "want_ms"), [
    pytest.param("*/1 * * * *", "*/3 * * * *", None, None, 1_000 + 100,
                 id="a new schedule requeues at its next time plus 100 ms"),
    pytest.param(HOURLY, HOURLY, None, "Asia/Kolkata", 30 * 60 * 1000 + 1_000 + 100,
                 id="a new time zone requeues at the next time in that zone"),
])
def test_an_update_of_schedule_or_zone_requeues_at_the_new_next_time(old_schedule, new_schedule, old_zone,
                                                                    new_zone, want_ms):
    old = cronjob().schedule(old_schedule).zone(old_zone).created(JUST_BEFORE_THE_HOUR).build()
    new = cronjob().schedule(new_schedule).zone(new_zone).created(JUST_BEFORE_THE_HOUR).build()
    log, events = _update(old, new)
    assert log == [("add_after", want_ms)] and events == []


def test_an_update_to_an_unparseable_schedule_records_an_event_and_queues_nothing():
    log, events = _update(cronjob().schedule(HOURLY).build(), cronjob().schedule("").build())
    assert log == [] and events == ["UnParseableCronJobSchedule"]


def test_sync_cleans_up_creates_and_writes_the_status_once():
    cj = cronjob().schedule(HOURLY).created(JUST_BEFORE_THE_HOUR).history(1, 1).build()
    old_ok = [job(f"mycronjob-{i}", uid=f"u{i}").controlled_by(cj).started(JUST_BEFORE_THE_PRIOR_HOUR + hours(-i))
              .complete(at=JUST_BEFORE_THE_PRIOR_HOUR).build() for i in range(3)]
    api, cj_api = FakeJobControl(), FakeCronJobControl(cj)
    ctrl, rec, emit = make(JUST_AFTER_THE_HOUR, job_api=api, cj_api=cj_api, cronjobs=[cj], jobs=old_ok)
    requeue = ctrl.sync("snazzycats/mycronjob")
    assert round(requeue * 1000) == 3_540_100
    assert sorted(api.deleted) == ["mycronjob-1", "mycronjob-2"] and len(api.created) == 1
    (written,) = cj_api.updates
    assert [a.name for a in written.status.active] == ["mycronjob-24394200"]
    assert written.status.last_successful_time == sec(JUST_BEFORE_THE_PRIOR_HOUR)
    result = ctrl.last_result
    assert (result.created, sorted(result.deleted), result.status_written) == \
        (["mycronjob-24394200"], ["mycronjob-1", "mycronjob-2"], True)
    assert emit.kinds()[0] == "cronjob.sync.begin" and emit.kinds()[-1] == "cronjob.sync.end"


def test_sync_of_a_gone_cronjob_does_nothing_and_is_not_requeued():
    ctrl, _, emit = make(JUST_AFTER_THE_HOUR)
    assert ctrl.sync("snazzycats/mycronjob") is None
    assert "cronjob.sync.not_found" in emit.kinds()


def test_a_failed_status_write_is_the_sync_s_error_and_the_worker_retries_rate_limited():
    class FailingWrites(FakeCronJobControl):
        def update_status(self, cj):
            raise APIError(Reason.CONFLICT, "conflict")

    cj = cronjob().schedule(HOURLY).created(JUST_BEFORE_THE_HOUR).build()
    ctrl, _, emit = make(JUST_AFTER_THE_HOUR, cj_api=FailingWrites(cj), cronjobs=[cj])
    ctrl.queue.add("snazzycats/mycronjob")
    assert ctrl.process_next_work_item()
    verbs = [verb for _, verb, _, _ in ctrl.queue.log]
    assert verbs == ["add", "add_rate_limited"]
    assert ctrl.queue.log[-1][3] == pytest.approx(0.005), "the CronJob queue starts its backoff at 5 ms"
    assert "cronjob.sync.error" in emit.kinds()


def test_the_worker_requeues_at_the_next_schedule_time_and_leaves_a_suspended_key_alone():
    cj = cronjob().schedule(HOURLY).created(JUST_BEFORE_THE_HOUR).build()
    ctrl, _, _ = make(JUST_AFTER_THE_HOUR, cj_api=FakeCronJobControl(cj), cronjobs=[cj])
    ctrl.queue.add("snazzycats/mycronjob")
    ctrl.process_next_work_item()
    assert ctrl.queue.log[-1][1:] == ("add_after", "snazzycats/mycronjob", pytest.approx(3540.1))
    sus = cronjob().schedule(HOURLY).created(JUST_BEFORE_THE_HOUR).suspend().build()
    ctrl2, _, _ = make(JUST_AFTER_THE_HOUR, cronjobs=[sus])
    ctrl2.queue.add("snazzycats/mycronjob")
    ctrl2.process_next_work_item()
    assert [verb for _, verb, _, _ in ctrl2.queue.log] == ["add"]


def test_job_events_wake_the_cronjob_that_controls_them():
    cj = cronjob().build()
    ctrl, _, _ = make(TOP_OF_THE_HOUR, cronjobs=[cj])
    mine = job("a").controlled_by(cj).rv("1").build()
    ctrl.add_job(mine)
    ctrl.add_job(job("orphan").rv("1").build())
    ctrl.add_job(job("stranger").controlled_by(cj, uid="other-uid").rv("1").build())
    assert [k for _, verb, k, _ in ctrl.queue.log] == ["snazzycats/mycronjob"]
    ctrl.update_job(mine, mine)  # a resync: same resourceVersion
    assert len(ctrl.queue.log) == 1
    ctrl.update_job(mine, job("a").controlled_by(cj).rv("2").build())
    ctrl.delete_job(mine)
    ctrl.add_job(job("b").controlled_by(cj).rv("1").deleting().build())
    assert len(ctrl.queue.log) == 4


def test_a_week_of_downtime_is_one_sync_that_runs_only_the_most_recent_time():
    cj = cronjob().schedule("* * * * *").created(TOP_OF_THE_HOUR).last_schedule(TOP_OF_THE_HOUR).build()
    api = FakeJobControl()
    ctrl, rec, emit = make(WEEK_AFTER_THE_HOUR + dt.timedelta(seconds=30), job_api=api)
    ref = u.Ref(cj)
    requeue, _, _ = ctrl.sync_cron_job(ref, [])
    assert [j.metadata.name for j in api.created] == ["mycronjob-24404280"]
    assert rec.reasons() == ["TooManyMissedTimes", "SuccessfulCreate"]
    assert round(requeue * 1000) == 30_100
    due = [f for r, f in emit.records if r == "cronjob.schedule.due"]
    assert due[0]["case"] == "many" and due[0]["missed"] == 7 * 24 * 60


def test_miss_schedule_dates_are_written_as_go_s_rfc1123z_in_utc():
    from k8sjobs.controller.cronjob.cronjob_controllerv2 import format_rfc1123z

    assert format_rfc1123z(TOP_OF_THE_HOUR) == "Thu, 19 May 2016 10:00:00 +0000"


def test_a_controller_in_another_zone_can_be_deep_copied_for_a_snapshot_and_evaluates_schedules_there():
    import copy

    cj = cronjob().schedule("0 12 * * *").created(TOP_OF_THE_HOUR).build()
    api = FakeJobControl()
    rec = Recorder()
    ctrl = CronJobController(cronjobs=Informer(None, "CronJob"), jobs=Informer(None, "Job"), job_control=api,
                             cronjob_control=FakeCronJobControl(), recorder=rec,
                             clock=FakeClock(sec(TOP_OF_THE_HOUR)), zone="Asia/Tokyo", register_handlers=False)
    twin = copy.deepcopy(ctrl)
    # 10:00 UTC is 19:00 in Tokyo: noon there has passed (03:00 UTC), so the next is tomorrow's 03:00 UTC.
    requeue, _, _ = twin.sync_cron_job(u.Ref(cj), [])
    assert round(requeue) == 17 * 3600, "not 2 h: noon is read in Tokyo, not in UTC"


@pytest.mark.parametrize(("text", "quoted"), [
    pytest.param("*/5 * * * *", '"*/5 * * * *"', id="a schedule is quoted as it is"),
    pytest.param('a"b\\c', '"a\\"b\\\\c"', id="quotes and backslashes are escaped"),
    pytest.param("a\rb\u00a0c\x07", '"a\\rb\\u00a0c\\a"', id="Go's named escapes and a no-break space as \\u"),
    pytest.param("\x01\x7f\t\n\v\f\b", '"\\x01\\x7f\\t\\n\\v\\f\\b"', id="other ASCII controls as \\x"),
    pytest.param("é 中 \U0001F600", '"é 中 \U0001F600"', id="printable letters and symbols stay"),
    pytest.param("\U000E0001", '"\\U000e0001"', id="an unprintable rune beyond 16 bits as \\U"),
])
def test_go_quote_writes_fmt_s_q(text, quoted):
    assert go_quote(text) == quoted
