"""The ``sync`` kind: one ``sync_job`` of one Job from a given observed state.

Mirrors how upstream's TestControllerSyncJob drives the controller: the Job and pods
sit in the informer caches, a fake pod control records creations, deletions and
finalizer patches (and can fail them), and the last status write is what is observed.
The Job passes through API defaulting first, as it would on a real server, except that
``spec.backoffLimit`` is always given by the case.
"""

from __future__ import annotations

from typing import Any

from ..api.apierrors import APIError, Reason, conflict
from ..api.informer import Informer
from ..api.types import JOB_COMPLETION_INDEX_ANNOTATION, Job
from ..clock import FakeClock
from ..controller.controller_utils import FakePodControl, key_func
from ..controller.job import backoff_utils as bu
from ..controller.job.job_controller import JobController
from . import _build
from .defaults import default_case_job


class _FakeJobClient:
    """Records status writes; can fail them like upstream's updateStatusHandler stub."""

    def __init__(self, job: Job, error: str | None) -> None:
        self.job = job
        self.error = error
        self.writes: list[Job] = []

    def update_status(self, job: Job) -> Job:
        if self.error == "conflict":
            raise conflict("jobs.batch", job.metadata.name)
        if self.error:
            raise APIError(Reason.INTERNAL, "fake status update error")
        self.writes.append(job)
        return job

    def get(self, namespace: str, name: str) -> Job:
        return self.job


class _NullRecorder:
    def __init__(self) -> None:
        self.events: list[tuple[str, str, str]] = []

    def event(self, obj: Any, type: str, reason: str, message: str) -> None:
        self.events.append((type, reason, message))


def run_case(inp: dict[str, Any]) -> dict[str, Any]:
    """Run one sync case and report every output the kind defines."""
    now = _build.NOW
    clock = FakeClock(now)
    job = _build.ensure_selector(default_case_job(_build.job_from_case(inp["job"], now)))
    pods = [_build.pod_from_case(p, job, now) for p in inp.get("pods") or []]

    jobs_inf = Informer(None, "Job")
    pods_inf = Informer(None, "Pod")
    if inp.get("jobInCache", True):
        jobs_inf.replace_all([job])
    pods_inf.replace_all(pods)

    fake = FakePodControl(create_limit=int(inp.get("podLimit") or 0))
    if inp.get("podControlError"):
        fake.err = APIError(Reason.INTERNAL, "fake error")
    recorder = _NullRecorder()
    fake.recorder = recorder
    client = _FakeJobClient(job, inp.get("statusUpdateError"))
    ctrl = JobController(jobs=jobs_inf, pods=pods_inf, pod_control=fake, job_client=client, clock=clock,
                         recorder=recorder, register_handlers=False)
    key = key_func(job)
    if inp.get("fakeExpectationsNotSatisfied"):
        ctrl.expectations.expect_creations(key, 1)
    rec = inp.get("backoffRecord")
    if rec:
        ago = rec.get("lastFailureSecondsAgo")
        ctrl.pod_backoff_store.update_backoff_record(bu.BackoffRecord(
            key=key, failures_after_last_success=int(rec.get("failuresAfterLastSuccess", 0)),
            last_failure_time=None if ago is None else now - float(ago)))

    ctrl.queue.add(key)
    ctrl.process_next_work_item()
    result = ctrl.last_result
    requeue = key in ctrl.queue.waiting or key in ctrl.queue.ready_keys()

    observed = client.writes[-1] if client.writes else job
    st = observed.status
    unc = st.uncounted_terminated_pods
    created_indexes = sorted(int(t.metadata.annotations[JOB_COMPLETION_INDEX_ANNOTATION])
                             for t in fake.templates if JOB_COMPLETION_INDEX_ANNOTATION in t.metadata.annotations)
    return {
        "creations": len(fake.templates),
        "deletions": len(fake.deleted),
        "createdIndexes": created_indexes,
        "finalizerRemovals": len(fake.patches),
        "status": {
            "active": st.active,
            "ready": st.ready if st.ready is not None else 0,
            "succeeded": st.succeeded,
            "failed": st.failed,
            "terminating": st.terminating if st.terminating is not None else 0,
            "completedIndexes": st.completed_indexes,
            "failedIndexes": st.failed_indexes,
            "uncountedSucceeded": len(unc.succeeded) if unc else 0,
            "uncountedFailed": len(unc.failed) if unc else 0,
            "startTimeSet": st.start_time is not None,
        },
        "conditions": _build.condition_list(observed),
        "error": result is not None and result.error is not None,
        "requeue": requeue,
        "events": [reason for _, reason, _ in recorder.events],
    }
