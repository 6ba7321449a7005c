"""Shared by the cronjob-sync, cronjob-schedule and cronjob-history runners: the case documents
as API objects, upstream's test fakes (fakeJobControl, fakeCJControl) and a controller on them.

Times in these cases are absolute RFC 3339 (cron needs wall-clock time); they become simulated
seconds through :func:`k8sjobs.api.serialize.parse_time`. Schedules without a zone are evaluated
in UTC, the controller's default zone, as every upstream test time is UTC.
"""

from __future__ import annotations

import datetime as _dt
from typing import Any

from ..api import serialize
from ..api.apierrors import NAMESPACE_TERMINATING_CAUSE, APIError, Reason
from ..api.informer import Informer
from ..api.types import CronJob, Job
from ..clock import FakeClock
from ..controller.cronjob import CronJobController, FakeCronJobControl, FakeJobControl
from ..controller.cronjob import utils as u


class Recorder:
    """A FakeRecorder: keeps (type, reason, message) of every event."""

    def __init__(self) -> None:
        self.events: list[tuple[str, str, str]] = []

    def event(self, obj: Any, type: str, reason: str, message: str) -> None:
        self.events.append((type, reason, message))


def api_error(kind: str | None, what: str = "") -> APIError | None:
    """The error of a case's error kind (AlreadyExists, NamespaceTerminating, BadRequest, InternalError)."""
    if not kind:
        return None
    if kind == "AlreadyExists":
        return APIError(Reason.ALREADY_EXISTS, f'jobs.batch "{what}" already exists')
    if kind == "NamespaceTerminating":
        return APIError(Reason.FORBIDDEN, "unable to create new content in namespace because it is being terminated",
                        cause=NAMESPACE_TERMINATING_CAUSE)
    if kind == "BadRequest":
        return APIError(Reason.BAD_REQUEST, "bad request")
    if kind == "InternalError":
        return APIError(Reason.INTERNAL, "Internal error occurred: fake error")
    if kind == "NotFound":
        return APIError(Reason.NOT_FOUND, f'jobs.batch "{what}" not found')
    raise ValueError(f"unknown error kind {kind!r} (known: AlreadyExists, NamespaceTerminating, BadRequest, "
                     "InternalError, NotFound)")


def cron_job(doc: dict[str, Any]) -> CronJob:
    """A case's CronJob document as given (no defaulting, as upstream's tests use it)."""
    return serialize.from_dict(CronJob, doc)


def job(doc: dict[str, Any]) -> Job:
    """A case's Job document."""
    return serialize.from_dict(Job, doc)


def time_text(seconds: float | None) -> str | None:
    """Simulated seconds -> the cases' RFC 3339 UTC text (fractions only when present; year 1 as 0001)."""
    return None if seconds is None else dt_text(u.to_time(seconds, _dt.UTC))


def dt_text(t: Any) -> str | None:
    """An aware datetime -> RFC 3339 UTC text, fractions only when present."""
    if t is None:
        return None
    t = t.astimezone(_dt.UTC)
    text = u.format_rfc3339(t)
    return text[:-1] + f".{t.microsecond:06d}".rstrip("0") + "Z" if t.microsecond else text


def ms(seconds: float | None) -> int | None:
    """Seconds -> whole milliseconds (the cases' durations)."""
    return None if seconds is None else round(seconds * 1000)


class Harness:
    """A controller on fake listers and API seams built from one case's input."""

    def __init__(self, inp: dict[str, Any]) -> None:
        now = inp.get("now")
        self.clock = FakeClock(serialize.parse_time(now) if now else 0.0)
        api = inp.get("jobApi") or {}
        get_returns = api.get("getReturns")
        self.job_api = FakeJobControl(job(get_returns) if get_returns else None,
                                      err=api_error(api.get("getError")),
                                      create_err=api_error(api.get("createError")))
        cj_api = inp.get("cronJobApi") or {}
        stored = cj_api.get("getReturns")
        self.cronjob_api = FakeCronJobControl(cron_job(stored) if stored else None)
        self.recorder = Recorder()
        self.cronjobs = Informer(None, "CronJob")
        self.jobs = Informer(None, "Job")
        self.cron_job = cron_job(inp["cronJob"]) if inp.get("cronJob") else None
        self.job_list = [job(d) for d in inp.get("jobs") or []]
        self.controller = CronJobController(
            cronjobs=self.cronjobs, jobs=self.jobs, job_control=self.job_api, cronjob_control=self.cronjob_api,
            recorder=self.recorder, clock=self.clock, register_handlers=False)

    def event_counts(self) -> dict[str, Any]:
        """eventCount, warningEventCount and the reasons in order."""
        return {
            "eventCount": len(self.recorder.events),
            "warningEventCount": sum(1 for t, _, _ in self.recorder.events if t == "Warning"),
            "events": [reason for _, reason, _ in self.recorder.events],
        }

    def created(self) -> list[dict[str, Any]]:
        """Every Job the fake API created: its controller owner reference, name, times."""
        out = []
        for j in self.job_api.created:
            owner = next((r for r in j.metadata.owner_references if r.controller), None)
            out.append({
                "ownerReference": None if owner is None else {
                    "apiVersion": owner.api_version, "kind": owner.kind, "name": owner.name, "uid": owner.uid,
                    "controller": bool(owner.controller), "blockOwnerDeletion": bool(owner.block_owner_deletion)},
                "name": j.metadata.name,
                "creationTimestamp": time_text(j.metadata.creation_timestamp),
                "scheduledTimestampAnnotation": j.metadata.annotations.get(
                    "batch.kubernetes.io/cronjob-scheduled-timestamp"),
            })
        return out

    def full_sync(self) -> dict[str, Any]:
        """One reconcile of the CronJob's key (ControllerV2.sync as processNextWorkItem calls it)."""
        cj = self.cron_job
        self.cronjobs.replace_all([cj])
        self.jobs.replace_all(self.job_list)
        key = f"{cj.metadata.namespace}/{cj.metadata.name}"
        error = False
        requeue = None
        try:
            requeue = self.controller.sync(key)
        except (APIError, ValueError):
            error = True
        written = self.cronjob_api.updates[-1] if self.cronjob_api.updates else None
        after = self.controller.last_result.cron_job if self.controller.last_result else None
        return {
            "status": status_doc(after or cj),
            "createdCount": len(self.job_api.created),
            "created": self.created(),
            "deletedCount": len(self.job_api.deleted),
            "deleted": list(self.job_api.deleted),
            **self.event_counts(),
            "requeueAfterMs": ms(requeue),
            "error": error,
            "statusUpdates": len(self.cronjob_api.updates),
            "statusWritten": None if written is None else status_doc(written, refs=True),
            "jobGetNamespaces": [ns for ns, _ in self.job_api.get_calls],
        }


def status_doc(cj: CronJob, *, refs: bool = False) -> dict[str, Any]:
    """A CronJob's status in the cases' shape."""
    st = cj.status
    active: list[Any] = [{"name": a.name, "namespace": a.namespace, "uid": a.uid} for a in st.active] if refs \
        else [a.name for a in st.active]
    return {"active": active, "lastScheduleTime": time_text(st.last_schedule_time),
            "lastSuccessfulTime": time_text(st.last_successful_time)}
