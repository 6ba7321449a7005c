"""The CronJob controller against the in-memory API server: a manifest, admitted as the API
server admits it, makes Jobs that the server's own Job admission accepts, through the
store-backed Job control (realJobControl) and a Job informer fed by the store's watch.

CronJobs themselves are not yet stored by the API server (the multi-object engine adds that),
so the CronJob lister is filled by hand and status writes go to upstream's fake.
"""

from __future__ import annotations

import datetime as dt

from k8sjobs.api.admission import admit_cronjob_create
from k8sjobs.api.informer import Informer
from k8sjobs.api.store import APIStore
from k8sjobs.api.types import ConditionStatus, JobCondition, evolve
from k8sjobs.api.yamlio import load_manifest
from k8sjobs.clock import FakeClock
from k8sjobs.controller.cronjob import CronJobController, FakeCronJobControl, StoreJobControl
from k8sjobs.controller.cronjob import utils as u
from k8sjobs.hooks import Collector

MANIFEST = """
apiVersion: batch/v1
kind: CronJob
metadata: {name: report, namespace: default}
spec:
  schedule: "*/5 * * * *"
  timeZone: Europe/Berlin
  concurrencyPolicy: Forbid
  successfulJobsHistoryLimit: 1
  jobTemplate:
    metadata: {labels: {team: data}}
    spec:
      template:
        spec:
          restartPolicy: Never
          containers: [{name: main, image: busybox}]
"""


class _Recorder:
    def __init__(self):
        self.events = []

    def event(self, obj, type, reason, message):
        self.events.append((reason, message))


def _world():
    t0 = dt.datetime(2026, 3, 2, 8, 0, tzinfo=dt.UTC)
    clock = FakeClock(u.from_time(t0))
    store = APIStore(clock)
    cj = admit_cronjob_create(load_manifest(MANIFEST))
    cj = evolve(cj, metadata=evolve(cj.metadata, uid="cj-uid", creation_timestamp=u.from_time(t0)))
    cronjobs, jobs = Informer(None, "CronJob"), Informer(store, "Job")
    cronjobs.replace_all([cj])
    cj_api = FakeCronJobControl(cj)
    rec, emit = _Recorder(), Collector()
    ctrl = CronJobController(cronjobs=cronjobs, jobs=jobs, job_control=StoreJobControl(store), cronjob_control=cj_api,
                             recorder=rec, clock=clock, emit=emit, register_handlers=False)
    return t0, clock, store, cronjobs, cj_api, rec, ctrl


def _step(clock, cronjobs, cj_api, ctrl, t):
    clock.set(u.from_time(t))
    requeue = ctrl.sync("default/report")
    if cj_api.updates:
        cronjobs.replace_all([cj_api.updates[-1]])
    return requeue


def test_a_cronjob_manifest_makes_jobs_the_api_server_admits_and_forbid_and_history_apply():
    t0, clock, store, cronjobs, cj_api, rec, ctrl = _world()
    requeue = _step(clock, cronjobs, cj_api, ctrl, t0 + dt.timedelta(minutes=5, seconds=1))
    (made,) = store.list("Job", "default")
    assert made.metadata.name == f"report-{u.get_time_hash_in_minutes(t0 + dt.timedelta(minutes=5))}"
    assert made.metadata.annotations["batch.kubernetes.io/cronjob-scheduled-timestamp"] == "2026-03-02T09:05:00+01:00"
    assert made.metadata.labels["team"] == "data" and made.metadata.owner_references[0].kind == "CronJob"
    assert made.spec.selector is not None, "the API server defaulted the Job like any other"
    assert round(requeue, 1) == 299.1

    # Still running at the next time: Forbid skips it.
    _step(clock, cronjobs, cj_api, ctrl, t0 + dt.timedelta(minutes=10, seconds=1))
    assert len(store.list("Job", "default")) == 1 and rec.events[-1][0] == "JobAlreadyActive"

    # It completes; the next two times each make a Job and the history limit of 1 keeps the newest success.
    done = (JobCondition(type="SuccessCriteriaMet", status=ConditionStatus.TRUE),
            JobCondition(type="Complete", status=ConditionStatus.TRUE))
    for minute in (15, 20):
        for j in store.list("Job", "default"):
            if not j.status.conditions:
                store.update_status(evolve(j, status=evolve(j.status, conditions=done, succeeded=1,
                                                              start_time=j.metadata.creation_timestamp,
                                                              completion_time=clock.now())))
        _step(clock, cronjobs, cj_api, ctrl, t0 + dt.timedelta(minutes=minute, seconds=1))
    names = sorted(j.metadata.name for j in store.list("Job", "default"))
    reasons = [r for r, _ in rec.events]
    assert reasons.count("SuccessfulCreate") == 3 and "SawCompletedJob" in reasons and "SuccessfulDelete" in reasons
    assert len(names) == 2, "one finished Job kept by successfulJobsHistoryLimit, plus the one just created"
    status = cj_api.updates[-1].status
    assert [a.name for a in status.active] == [names[-1]]
    assert status.last_successful_time is not None
