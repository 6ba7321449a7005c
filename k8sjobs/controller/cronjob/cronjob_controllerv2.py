"""The CronJob controller (mirrors pkg/controller/cronjob/cronjob_controllerv2.go, Kubernetes 1.35 line).

It sees the world only through a CronJob lister and a Job lister (informers), a
:class:`~.injection.JobControl` (get, create, delete Jobs), a :class:`~.injection.CronJobControl`
(live read of a CronJob, status writes), an event recorder and the injected clock. One sync of a
CronJob key (:meth:`CronJobController.sync`, upstream's ``sync``) lists the Jobs it controls,
deletes finished ones beyond the history limits (:meth:`~CronJobController.cleanup_finished_jobs`),
reconciles and maybe creates one Job (:meth:`~CronJobController.sync_cron_job`), writes the status
at most once and returns when to sync again: the next schedule time plus 100 ms.

Every decision is reported as ``emit(rule_id, **fields)`` (templates in k8sjobs/trace/reasons.py,
rule ids ``cronjob.*``); times in the fields are simulated seconds with the ``zone`` they are shown in.
Events carry upstream's reasons and messages.
"""

from __future__ import annotations

import datetime as _dt
import unicodedata
from dataclasses import dataclass, field
from typing import Any

from ...api.apierrors import APIError, Reason, has_namespace_terminating_cause, is_not_found
from ...api.events import NORMAL, WARNING, EventRecorder
from ...api.informer import EventHandlers, Informer
from ...api.types import (
    ConcurrencyPolicy,
    CronJob,
    Job,
    JobConditionType,
    ObjectReference,
    OwnerReference,
    evolve,
)
from ...clock import Clock
from ...hooks import Emit, null_emit
from ..controller_utils import key_func, split_key
from ..workqueue import RateLimitingQueue, default_controller_rate_limiter
from . import utils as u
from .injection import CronJobControl, JobControl

CONTROLLER_KIND = "CronJob"
COMPONENT = "cronjob-controller"
"""The event source component."""


class ScheduleError(ValueError):
    """A schedule robfig/cron cannot parse (the text of cron.CronParseError)."""


def parse_cron_schedule(spec: str) -> u.Schedule:
    """cron.ParseStandard with a panic turned into an error (mirrors ParseCronScheduleWithPanicRecovery in
    pkg/util/parsers/parsers.go); raises ScheduleError."""
    return _parse_cached(spec)


_PARSED: dict[str, Any] = {}


def _parse_cached(spec: str) -> u.Schedule:
    hit = _PARSED.get(spec)
    if hit is None:
        from ...cron import CronParseError, parse_standard

        try:
            hit = parse_standard(spec)
        except CronParseError as exc:
            # A schedule robfig/cron panics on is recovered into an error, as pkg/util/parsers does.
            hit = ScheduleError(f"invalid schedule format: {exc}" if exc.panicked else str(exc))
        if len(_PARSED) > 1024:
            _PARSED.clear()
        _PARSED[spec] = hit
    if isinstance(hit, ScheduleError):
        raise hit
    return hit


_GO_ESCAPES = {"\a": "\\a", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t", "\v": "\\v",
               '"': '\\"', "\\": "\\\\"}


def go_quote(s: str) -> str:
    """fmt's %q of a string (strconv.Quote): Go's named escapes, printable characters as they are
    (unicode.IsPrint: letters, marks, numbers, punctuation, symbols and the ASCII space), other
    ASCII as ``\\xNN``, the rest as ``\\uNNNN`` or ``\\UNNNNNNNN``."""
    out = ['"']
    for ch in s:
        code = ord(ch)
        if ch in _GO_ESCAPES:
            out.append(_GO_ESCAPES[ch])
        elif ch == " " or unicodedata.category(ch)[0] in "LMNPS":
            out.append(ch)
        elif code < 0x80:
            out.append(f"\\x{code:02x}")
        elif code < 0x10000:
            out.append(f"\\u{code:04x}")
        else:
            out.append(f"\\U{code:08x}")
    out.append('"')
    return "".join(out)


_DAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


def format_rfc1123z(t: _dt.datetime) -> str:
    """``t.UTC().Format(time.RFC1123Z)``: ``Thu, 19 May 2016 10:00:00 +0000`` (English names whatever the locale)."""
    t = t.astimezone(_dt.UTC)
    return (f"{_DAYS[t.weekday()]}, {t.day:02d} {_MONTHS[t.month - 1]} {t.year:04d} "
            f"{t.hour:02d}:{t.minute:02d}:{t.second:02d} +0000")


JOB_CONTROLLER_NAME_INDEX = "cronjob-controller-name"
"""Index of the Job informer: ``namespace/name`` of each Job's controller reference (any kind, as upstream
matches by name only)."""


def job_controller_name_index(job: Any) -> list[str]:
    """The index value of a Job: its namespace and its controller reference's name (none without one)."""
    for ref in job.metadata.owner_references:
        if ref.controller:
            return [f"{job.metadata.namespace}/{ref.name}"]
    return []


def _job_name(job: Job) -> str:
    return job.metadata.name


def get_controller_of(obj: Any) -> OwnerReference | None:
    """The owner reference with controller=true (mirrors metav1.GetControllerOf in apimachinery's controller_ref.go)."""
    for ref in obj.metadata.owner_references:
        if ref.controller:
            return ref
    return None


def is_controlled_by(obj: Any, owner: Any) -> bool:
    """The controller reference carries the owner's UID (mirrors metav1.IsControlledBy in controller_ref.go)."""
    ref = get_controller_of(obj)
    return ref is not None and ref.uid == owner.metadata.uid


def get_ref(job: Job) -> ObjectReference:
    """The ObjectReference of a Job for status.active (mirrors getRef in cronjob_controllerv2.go: reference.GetReference)."""
    m = job.metadata
    return ObjectReference(kind="Job", namespace=m.namespace, name=m.name, uid=m.uid, api_version="batch/v1",
                           resource_version=m.resource_version)


def format_schedule(cj: CronJob, recorder: EventRecorder | None, emit: Emit = null_emit) -> str:
    """The schedule handed to the cron parser (mirrors formatSchedule in cronjob_controllerv2.go).

    A schedule that itself contains ``TZ`` is used as written (and, with a recorder, the
    UnsupportedSchedule warning is recorded); else a loadable spec.timeZone becomes a
    ``TZ=<zone>`` prefix; else the schedule as written (the controller's own zone applies).
    """
    schedule = cj.spec.schedule
    if "TZ" in schedule:
        if recorder is not None:
            recorder.event(cj, WARNING, "UnsupportedSchedule",
                           f"CRON_TZ or TZ used in schedule {go_quote(schedule)} is not officially supported, see "
                           "https://kubernetes.io/docs/concepts/workloads/controllers/cron-jobs/ for more details")
            emit("cronjob.schedule.tz_in_schedule", cronjob=key_func(cj), schedule=schedule)
        return schedule
    if cj.spec.time_zone is not None:
        try:
            u.load_location(cj.spec.time_zone)
        except ValueError:
            return schedule
        return f"TZ={cj.spec.time_zone} {schedule}"
    return schedule


def delete_job(ref: u.Ref, job: Job, jc: JobControl, recorder: EventRecorder, emit: Emit = null_emit,
               case: str = "") -> bool:
    """Delete a Job and its status.active entry (mirrors deleteJob in cronjob_controllerv2.go).

    A failed DELETE records FailedDelete and answers False; a deleted Job leaves status.active
    and records SuccessfulDelete.
    """
    key = key_func(ref.obj)
    try:
        jc.delete_job(job.metadata.namespace, job.metadata.name)
    except APIError as exc:
        recorder.event(ref.obj, WARNING, "FailedDelete", f"Deleted job: {exc}")
        emit("cronjob.delete.failed", cronjob=key, job=job.metadata.name, error=str(exc))
        return False
    u.delete_from_active_list(ref, job.metadata.uid)
    recorder.event(ref.obj, NORMAL, "SuccessfulDelete", f"Deleted job {job.metadata.name}")
    emit("cronjob.delete", cronjob=key, job=job.metadata.name, case=case)
    return True


@dataclass
class CronJobSyncResult:
    """What one sync of a CronJob key did (for the engine's trace and the conformance runners)."""

    key: str
    created: list[str] = field(default_factory=list)
    deleted: list[str] = field(default_factory=list)
    events: list[tuple[str, str, str]] = field(default_factory=list)
    """(type, reason, message) of every event recorded during the sync."""
    requeue_after: float | None = None
    error: str | None = None
    status_written: bool = False
    cron_job: CronJob | None = None
    """The working copy after the sync (what was, or would have been, written)."""


class _RecordingRecorder:
    """Passes events on and keeps them in the current sync's result."""

    __slots__ = ("inner", "owner")

    def __init__(self, inner: EventRecorder, owner: CronJobController) -> None:
        self.inner = inner
        self.owner = owner

    def event(self, obj: Any, type: str, reason: str, message: str) -> None:
        res = self.owner._result
        if res is not None:
            res.events.append((type, reason, message))
        self.inner.event(obj, type, reason, message)


class _CountingJobControl:
    """Passes Job calls on and notes creations and deletions in the current sync's result."""

    __slots__ = ("inner", "owner")

    def __init__(self, inner: JobControl, owner: CronJobController) -> None:
        self.inner = inner
        self.owner = owner

    def get_job(self, namespace: str, name: str) -> Job | None:
        return self.inner.get_job(namespace, name)

    def create_job(self, namespace: str, job: Job) -> Job:
        out = self.inner.create_job(namespace, job)
        if self.owner._result is not None:
            self.owner._result.created.append(out.metadata.name)
        return out

    def delete_job(self, namespace: str, name: str) -> None:
        self.inner.delete_job(namespace, name)
        if self.owner._result is not None:
            self.owner._result.deleted.append(name)


class CronJobController:
    """ControllerV2: handlers, the work queue and ``sync`` of one CronJob key.

    ``zone`` is the kube-controller-manager's own time zone (an IANA name, UTC by default):
    a schedule without ``spec.timeZone`` and without ``TZ=`` is evaluated there.
    """

    def __init__(self, *, cronjobs: Informer, jobs: Informer, job_control: JobControl,
                 cronjob_control: CronJobControl, recorder: EventRecorder, clock: Clock,
                 queue: RateLimitingQueue | None = None, emit: Emit = null_emit, zone: str = "UTC",
                 register_handlers: bool = True) -> None:
        self.cronjobs = cronjobs
        self.jobs = jobs
        self.job_control = _CountingJobControl(job_control, self)
        self.cronjob_control = cronjob_control
        self.recorder = _RecordingRecorder(recorder, self)
        self.clock = clock
        self.queue = queue if queue is not None else RateLimitingQueue(
            clock, rate_limiter=default_controller_rate_limiter(clock))
        self.emit = emit
        # self._say(rule, **fields): language-neutral, the rule id and its fields (k8sjobs.trace.reasons
        # renders the sentence). The hook itself, not a method passing it on: it is called ~10 times a sync.
        self._say: Emit = self._say_with_origin if getattr(clock, "origin", 0.0) else emit
        self.zone_name = zone
        u.load_location(zone)  # an unknown zone fails here, naming it
        self.last_result: CronJobSyncResult | None = None
        self._result: CronJobSyncResult | None = None
        jobs.add_indexer(JOB_CONTROLLER_NAME_INDEX, job_controller_name_index)
        if register_handlers:
            jobs.add_event_handler(EventHandlers(on_add=self.add_job, on_update=self.update_job,
                                                 on_delete=self.delete_job))
            cronjobs.add_event_handler(EventHandlers(on_add=self.enqueue_controller, on_update=self.update_cron_job,
                                                     on_delete=self.enqueue_controller))

    @property
    def zone(self) -> _dt.tzinfo:
        """The controller's own zone (looked up by name each time: a zone read from tzdata cannot be
        deep-copied, and a simulation's snapshot copies its controllers)."""
        return u.load_location(self.zone_name) or _dt.UTC

    def _say_with_origin(self, rule: str, **fields: Any) -> None:
        # A run whose time 0 is not the model's epoch adds it, so the decision's times are shown at the run's dates.
        fields["origin"] = self.clock.origin
        self.emit(rule, **fields)

    def now(self) -> _dt.datetime:
        """jm.now(): the clock's instant in the controller's zone."""
        return u.to_time(self.clock.now(), self.zone, self.clock.origin)

    # ------------------------------------------------------------------ the worker

    def process_next_work_item(self) -> bool:
        """Take one key and sync it (mirrors processNextWorkItem in cronjob_controllerv2.go).

        An error re-adds the key rate-limited; a requeue delay forgets the failures and adds the
        key after the delay; neither (suspended, unparseable, deleted) leaves the key done.
        """
        key = self.queue.get()
        if key is None:
            return False
        try:
            try:
                requeue_after = self.sync(key)
            except (APIError, ValueError) as err:
                delay = self.queue.add_rate_limited(key)
                self._say("cronjob.sync.error", cronjob=key, error=str(err), retry_in=delay)
            else:
                if requeue_after is not None:
                    self.queue.forget(key)
                    self.queue.add_after(key, requeue_after)
        finally:
            self.queue.done(key)
        return True

    def sync(self, key: str) -> float | None:
        """Reconcile one CronJob key (mirrors ControllerV2.sync in cronjob_controllerv2.go).

        Returns the delay in seconds after which to sync again, or None (nothing scheduled:
        deleted, suspended, unparseable). Raises the error upstream returns (APIError for a
        failed API call, ValueError for an unusable Job template): the caller re-adds the key
        rate-limited.
        """
        self._result = result = CronJobSyncResult(key)
        self._say("cronjob.sync.begin", cronjob=key)
        err: Exception | None = None
        requeue_after: float | None = None
        try:
            requeue_after = self._sync(key)
        except (APIError, ValueError) as exc:
            err = exc
        result.requeue_after = requeue_after
        if err is not None:
            result.error = str(err)
        self.last_result = result
        self._result = None
        self._say("cronjob.sync.end", cronjob=key, case="" if err is None else "error", error=result.error,
                  created=list(result.created), deleted=list(result.deleted), requeue_after=requeue_after,
                  written=result.status_written)
        if err is not None:
            raise err
        return requeue_after

    def _sync(self, key: str) -> float | None:
        ns, name = split_key(key)
        cron_job = self.cronjobs.get(ns, name)
        if cron_job is None:
            # The CronJob may be deleted: nothing to requeue.
            self._say("cronjob.sync.not_found", cronjob=key)
            return None
        jobs = self.get_jobs_to_be_reconciled(cron_job)
        self._say("cronjob.jobs.listed", cronjob=key, jobs=len(jobs), active=len(cron_job.status.active))
        # One working copy collects every change; the status is written once.
        copy = u.Ref(cron_job)
        update_after_cleanup = self.cleanup_finished_jobs(copy, jobs)
        requeue_after, update_after_sync, sync_err = self.sync_cron_job(copy, jobs)
        if self._result is not None:
            self._result.cron_job = copy.obj
        if update_after_cleanup or update_after_sync:
            try:
                self.cronjob_control.update_status(copy.obj)
            except APIError as exc:
                self._say("cronjob.status.write_failed", cronjob=key, error=str(exc))
                raise
            st = copy.obj.status
            if self._result is not None:
                self._result.status_written = True
            self._say("cronjob.status.write", cronjob=key, active=len(st.active), last_schedule=st.last_schedule_time,
                      last_successful=st.last_successful_time, zone=self._shown_zone(copy.obj))
        if requeue_after is not None:
            self._say("cronjob.requeue", cronjob=key, delay=requeue_after,
                      at=self.clock.now() + requeue_after, zone=self._shown_zone(copy.obj))
            return requeue_after
        if sync_err is not None:
            raise sync_err
        return None

    def _shown_zone(self, cj: CronJob) -> str:
        """The zone a learner reads this CronJob's times in: spec.timeZone when it loads, else the controller's."""
        tz = cj.spec.time_zone
        if tz:
            try:
                u.load_location(tz)
                return tz
            except ValueError:
                pass
        return self.zone_name

    def _schedule_zone(self, cj: CronJob) -> str:
        """The zone the schedule is evaluated in: a TZ=/CRON_TZ= prefix's, else spec.timeZone's, else the
        controller's own (what the trace says was used)."""
        schedule = cj.spec.schedule
        if schedule.startswith(("TZ=", "CRON_TZ=")) and " " in schedule:
            name = schedule[schedule.index("=") + 1:schedule.index(" ")]
            return name if name not in ("", "Local") else ("UTC" if name == "" else self.zone_name)
        return self._shown_zone(cj)

    # ------------------------------------------------------------------ lookups

    def resolve_controller_ref(self, namespace: str, ref: OwnerReference) -> CronJob | None:
        """The CronJob a controller reference points at, if cached with that UID (mirrors resolveControllerRef in cronjob_controllerv2.go)."""
        if ref.kind != CONTROLLER_KIND:
            return None
        cj = self.cronjobs.get(namespace, ref.name)
        if cj is None or cj.metadata.uid != ref.uid:
            return None
        return cj

    def get_jobs_to_be_reconciled(self, cj: CronJob) -> list[Job]:
        """The namespace's Jobs whose controller reference names this CronJob (mirrors getJobsToBeReconciled in cronjob_controllerv2.go).

        Upstream matches the controller reference by name only (not kind or UID), and lists all
        Jobs of the namespace: a Job whose labels no longer match still counts.
        """
        # An index on (namespace, controller name) holds exactly the Jobs upstream's filter keeps;
        # sorted by name, as the lister lists them.
        found = self.jobs.by_index(JOB_CONTROLLER_NAME_INDEX, f"{cj.metadata.namespace}/{cj.metadata.name}")
        return sorted(found, key=_job_name) if len(found) > 1 else list(found)

    # ------------------------------------------------------------------ handlers

    def add_job(self, job: Job) -> None:
        """A Job appeared: sync its CronJob (mirrors addJob in cronjob_controllerv2.go); one already being deleted counts as a deletion."""
        if job.metadata.deletion_timestamp is not None:
            self.delete_job(job)
            return
        ref = get_controller_of(job)
        if ref is not None:
            cj = self.resolve_controller_ref(job.metadata.namespace, ref)
            if cj is None:
                return
            self.enqueue_controller(cj)

    def update_job(self, old: Job, cur: Job) -> None:
        """A Job changed: sync its CronJob, and the old one if the controller changed (mirrors updateJob in cronjob_controllerv2.go)."""
        if cur.metadata.resource_version == old.metadata.resource_version:
            return  # a periodic resync, not a change
        cur_ref = get_controller_of(cur)
        old_ref = get_controller_of(old)
        # (Every version of a Job shares its owner references: the same reference is not compared field by field.)
        if cur_ref is not old_ref and cur_ref != old_ref and old_ref is not None:
            cj = self.resolve_controller_ref(old.metadata.namespace, old_ref)
            if cj is not None:
                self.enqueue_controller(cj)
        if cur_ref is not None:
            cj = self.resolve_controller_ref(cur.metadata.namespace, cur_ref)
            if cj is None:
                return
            self.enqueue_controller(cj)

    def delete_job(self, job: Job) -> None:
        """A Job was deleted: sync its CronJob (mirrors the deleteJob handler in cronjob_controllerv2.go; orphans are nobody's concern)."""
        ref = get_controller_of(job)
        if ref is None:
            return
        cj = self.resolve_controller_ref(job.metadata.namespace, ref)
        if cj is None:
            return
        self.enqueue_controller(cj)

    def enqueue_controller(self, obj: Any) -> None:
        """Queue the CronJob's key now (mirrors enqueueController in cronjob_controllerv2.go)."""
        self.queue.add(key_func(obj))

    def enqueue_controller_after(self, obj: Any, delay: float) -> None:
        """Queue the CronJob's key after ``delay`` seconds (mirrors enqueueControllerAfter in cronjob_controllerv2.go)."""
        self.queue.add_after(key_func(obj), delay)

    def update_cron_job(self, old: CronJob, cur: CronJob) -> None:
        """A CronJob changed (mirrors updateCronJob in cronjob_controllerv2.go).

        A new schedule or time zone requeues at the new next schedule time (an unparseable one
        records UnParseableCronJobSchedule and does not enqueue); any other change syncs now.
        """
        key = key_func(cur)
        if old.spec.schedule != cur.spec.schedule or old.spec.time_zone != cur.spec.time_zone:
            try:
                sched = parse_cron_schedule(format_schedule(cur, None))
            except ScheduleError:
                self.recorder.event(cur, WARNING, "UnParseableCronJobSchedule",
                                    f"unparseable schedule for cronjob: {cur.spec.schedule}")
                self._say("cronjob.update.unparseable", cronjob=key, schedule=cur.spec.schedule)
                return
            now = self.now()
            delay = u.next_schedule_time_duration(cur, now, sched, self.clock.origin)
            self._say("cronjob.update.schedule_changed", cronjob=key, schedule=cur.spec.schedule, delay=delay,
                      at=self.clock.now() + delay, zone=self._shown_zone(cur))
            self.enqueue_controller_after(cur, delay)
            return
        self.enqueue_controller(cur)

    # ------------------------------------------------------------------ sync_cron_job

    def sync_cron_job(self, ref: u.Ref, jobs: list[Job]) -> tuple[float | None, bool, Exception | None]:
        """Reconcile a CronJob with the Jobs it controls at the clock's now (mirrors syncCronJob in cronjob_controllerv2.go).

        ``ref`` holds the CronJob and receives every change to it. Returns (requeue delay in
        seconds or None, whether the status must be written, the error or None). In upstream's
        order: the active list against the Jobs (UnexpectedJob, SawCompletedJob,
        lastSuccessfulTime, MissingJob); a CronJob being deleted; an invalid time zone; suspend;
        the schedule; the most recent unmet time; startingDeadlineSeconds; a time already
        processed; concurrencyPolicy; then one Job, in status.active with lastScheduleTime.
        """
        now = self.now()
        update_status = False
        cj_ref = ref
        key = key_func(cj_ref.obj)

        children: set[str] = set()
        for j in jobs:
            uid = j.metadata.uid
            children.add(uid)
            found = u.in_active_list(cj_ref.obj, uid)
            finished, condition = u.get_finished_status(j)
            if not found and not finished:
                cj = cj_ref.obj
                try:
                    cj_copy = self.cronjob_control.get_cron_job(cj.metadata.namespace, cj.metadata.name)
                except APIError as exc:
                    return None, update_status, exc
                if u.in_active_list(cj_copy, uid):
                    # The cache was behind: the live CronJob lists the Job. Carry on with that copy.
                    cj_ref = u.Ref(cj_copy)
                    self._say("cronjob.active.reread", cronjob=key, job=j.metadata.name)
                    continue
                self.recorder.event(cj_ref.obj, WARNING, "UnexpectedJob",
                                    f"Saw a job that the controller did not create or forgot: {j.metadata.name}")
                self._say("cronjob.active.unexpected", cronjob=key, job=j.metadata.name)
            elif finished:
                if found:
                    u.delete_from_active_list(cj_ref, uid)
                    self.recorder.event(cj_ref.obj, NORMAL, "SawCompletedJob",
                                        f"Saw completed job: {j.metadata.name}, condition: {condition}")
                    self._say("cronjob.active.saw_completed", cronjob=key, job=j.metadata.name, condition=condition)
                    update_status = True
                # (The first finished condition being Complete=True already answers IsJobSucceeded.)
                if condition == JobConditionType.COMPLETE or u.is_job_succeeded(j):
                    # Finished successfully, in the active list or not: its completion time counts.
                    completion = j.status.completion_time
                    st = cj_ref.obj.status
                    before = st.last_successful_time
                    if st.last_successful_time is None:
                        cj_ref.obj = evolve(cj_ref.obj, status=evolve(st, last_successful_time=completion))
                        update_status = True
                    st = cj_ref.obj.status
                    if completion is not None and completion > st.last_successful_time:
                        cj_ref.obj = evolve(cj_ref.obj, status=evolve(st, last_successful_time=completion))
                        update_status = True
                    if cj_ref.obj.status.last_successful_time != before:
                        self._say("cronjob.last_successful", cronjob=key, job=j.metadata.name, t=completion,
                            zone=self._shown_zone(cj_ref.obj))

        # A Job in status.active that the lister does not hold: ask the API server before dropping it.
        for a in cj_ref.obj.status.active:
            if a.uid in children:
                continue
            try:
                self.job_control.get_job(a.namespace, a.name)
            except APIError as exc:
                if not is_not_found(exc):
                    return None, update_status, exc
                self.recorder.event(cj_ref.obj, NORMAL, "MissingJob", f"Active job went missing: {a.name}")
                self._say("cronjob.active.missing", cronjob=key, job=a.name)
                u.delete_from_active_list(cj_ref, a.uid)
                update_status = True
                continue
            self._say("cronjob.active.not_in_cache", cronjob=key, job=a.name)

        cj = cj_ref.obj
        if cj.metadata.deletion_timestamp is not None:
            self._say("cronjob.skip.deleting", cronjob=key)
            return None, update_status, None

        if cj.spec.time_zone is not None:
            try:
                u.load_location(cj.spec.time_zone)
            except ValueError as exc:
                self.recorder.event(cj, WARNING, "UnknownTimeZone",
                                    f"invalid timeZone: {go_quote(cj.spec.time_zone)}: {exc}")
                self._say("cronjob.skip.unknown_time_zone", cronjob=key, time_zone=cj.spec.time_zone, error=str(exc))
                return None, update_status, None

        if cj.spec.suspend:
            self._say("cronjob.skip.suspended", cronjob=key)
            return None, update_status, None

        try:
            sched = parse_cron_schedule(format_schedule(cj, self.recorder, self.emit))
        except ScheduleError as exc:
            self.recorder.event(cj, WARNING, "UnparseableSchedule",
                                f"unparseable schedule: {go_quote(cj.spec.schedule)} : {exc}")
            self._say("cronjob.skip.unparseable", cronjob=key, schedule=cj.spec.schedule, error=str(exc))
            return None, update_status, None

        zone = self._schedule_zone(cj)

        def too_many(mr: u.MostRecent) -> None:
            self.recorder.event(cj, WARNING, "TooManyMissedTimes",
                                "too many missed start times. Set or decrease .spec.startingDeadlineSeconds or check "
                                "clock skew")
            self._say("cronjob.schedule.too_many_missed", cronjob=key, missed=mr.count, limit=u.TOO_MANY_MISSED)

        origin = self.clock.origin
        nxt = u.next_schedule_time(cj, now, sched, too_many, origin)
        if nxt.error is not None:
            self.recorder.event(cj, WARNING, "InvalidSchedule", f"invalid schedule: {cj.spec.schedule} : {nxt.error}")
            self._say("cronjob.skip.invalid_schedule", cronjob=key, schedule=cj.spec.schedule, error=nxt.error)
            return None, update_status, None
        earliest = u.from_time(nxt.recent.earliest, origin)
        if nxt.scheduled is None:
            # Nothing due yet (the usual case only after a restart or an early wake-up).
            t = u.next_schedule_time_duration(cj, now, sched, origin)
            self._say("cronjob.schedule.none_due", cronjob=key, schedule=cj.spec.schedule, earliest=earliest,
                at=self.clock.now() + t, zone=zone)
            return t, update_status, None
        scheduled = u.from_time(nxt.scheduled, origin)
        self._say("cronjob.schedule.due", cronjob=key, case=nxt.recent.missed, schedule=cj.spec.schedule,
            scheduled=scheduled, earliest=earliest, missed=nxt.recent.count, zone=zone,
            deadline=cj.spec.starting_deadline_seconds)

        deadline = cj.spec.starting_deadline_seconds
        if deadline is not None and u.go_before(u.go_add(nxt.scheduled, u.go_seconds(deadline)), now):
            self.recorder.event(cj, WARNING, "MissSchedule",
                                f"Missed scheduled time to start a job: {format_rfc1123z(nxt.scheduled)}")
            self._say("cronjob.skip.too_late", cronjob=key, scheduled=scheduled, deadline=deadline, zone=zone)
            return u.next_schedule_time_duration(cj, now, sched, origin), update_status, None

        job_name = u.get_job_name(cj, nxt.scheduled)
        by_name = u.in_active_list_by_name(cj, cj.metadata.namespace, job_name)
        if by_name or (cj.status.last_schedule_time is not None and cj.status.last_schedule_time == scheduled):
            self._say("cronjob.skip.already_processed", cronjob=key, case="active" if by_name else "last",
                scheduled=scheduled, job=job_name, zone=zone)
            return u.next_schedule_time_duration(cj, now, sched, origin), update_status, None

        if cj.spec.concurrency_policy == ConcurrencyPolicy.FORBID and cj.status.active:
            self.recorder.event(cj, NORMAL, "JobAlreadyActive",
                                "Not starting job because prior execution is running and concurrency policy is Forbid")
            self._say("cronjob.skip.forbid", cronjob=key, active=len(cj.status.active),
                jobs=[a.name for a in cj.status.active], scheduled=scheduled, zone=zone)
            return u.next_schedule_time_duration(cj, now, sched, origin), update_status, None

        if cj.spec.concurrency_policy == ConcurrencyPolicy.REPLACE:
            for a in cj.status.active:
                try:
                    job = self.job_control.get_job(a.namespace, a.name)
                except APIError as exc:
                    self.recorder.event(cj_ref.obj, WARNING, "FailedGet", f"Get job: {exc}")
                    self._say("cronjob.replace.get_failed", cronjob=key, job=a.name, error=str(exc))
                    return None, update_status, exc
                if job is None:
                    continue
                if not delete_job(cj_ref, job, self.job_control, self.recorder, self.emit, case="replace"):
                    return None, update_status, APIError(
                        Reason.INTERNAL, f"could not replace job {job.metadata.namespace}/{job.metadata.name}")
                update_status = True
            cj = cj_ref.obj

        already_exists = False
        job_req = u.get_job_from_template2(cj, nxt.scheduled, origin)
        try:
            job_resp = self.job_control.create_job(cj.metadata.namespace, job_req)
        except APIError as exc:
            if has_namespace_terminating_cause(exc):
                # Every creation in a terminating namespace fails: nothing to do, no event.
                self._say("cronjob.create.namespace_terminating", cronjob=key, job=job_name)
                return None, update_status, exc
            if exc.reason != Reason.ALREADY_EXISTS:
                self.recorder.event(cj, WARNING, "FailedCreate", f"Error creating job: {exc}")
                self._say("cronjob.create.failed", cronjob=key, job=job_name, error=str(exc))
                return None, update_status, exc
            already_exists = True
            try:
                existing = self.job_control.get_job(job_req.metadata.namespace, job_req.metadata.name)
            except APIError as get_exc:
                return None, update_status, get_exc
            if existing is None or not is_controlled_by(existing, cj):
                # Another actor made it: assume it keeps the status up to date.
                self._say("cronjob.create.exists", cronjob=key, case="not_controlled", job=job_name)
                return None, update_status, None
            if u.in_active_list(cj, existing.metadata.uid):
                self._say("cronjob.create.exists", cronjob=key, case="already_active", job=job_name)
                return None, update_status, None
            self._say("cronjob.create.exists", cronjob=key, case="adopted", job=job_name)
            job_resp = existing
        if not already_exists:
            self.recorder.event(cj, NORMAL, "SuccessfulCreate", f"Created job {job_resp.metadata.name}")
            self._say("cronjob.create", cronjob=key, job=job_resp.metadata.name, scheduled=scheduled, zone=zone)

        st = cj_ref.obj.status
        cj_ref.obj = evolve(cj_ref.obj, status=evolve(st, active=st.active + (get_ref(job_resp),),
                                                      last_schedule_time=scheduled))
        update_status = True
        return u.next_schedule_time_duration(cj_ref.obj, now, sched, origin), update_status, None

    # ------------------------------------------------------------------ history

    def cleanup_finished_jobs(self, ref: u.Ref, jobs: list[Job]) -> bool:
        """Delete finished Jobs beyond the history limits, oldest first (mirrors cleanupFinishedJobs in cronjob_controllerv2.go).

        Nothing happens when both limits are unset. Complete=True Jobs are held to
        successfulJobsHistoryLimit and Failed=True ones to failedJobsHistoryLimit, separately.
        Returns whether the status must be written (some deletion succeeded).
        """
        spec = ref.obj.spec
        if spec.failed_jobs_history_limit is None and spec.successful_jobs_history_limit is None:
            return False
        update_status = False
        failed: list[Job] = []
        successful: list[Job] = []
        for job in jobs:
            finished, status = u.get_finished_status(job)
            if finished and status == "Complete":
                successful.append(job)
            elif finished and status == "Failed":
                failed.append(job)
        # (remove_oldest_jobs is asked only when there is something over the limit: otherwise it does
        # nothing and answers False, and this runs at every sync.)
        limit = spec.successful_jobs_history_limit
        if limit is not None and len(successful) > limit and \
                self.remove_oldest_jobs(ref, successful, limit, "successful"):
            update_status = True
        limit = spec.failed_jobs_history_limit
        if limit is not None and len(failed) > limit and self.remove_oldest_jobs(ref, failed, limit, "failed"):
            update_status = True
        return update_status

    def remove_oldest_jobs(self, ref: u.Ref, jobs: list[Job], max_jobs: int, kind: str = "successful") -> bool:
        """Delete the (count - limit) oldest Jobs by start time (mirrors removeOldestJobs in cronjob_controllerv2.go)."""
        num_to_delete = len(jobs) - int(max_jobs)
        if num_to_delete <= 0:
            return False
        self._say("cronjob.history.limit", cronjob=key_func(ref.obj), case=kind, count=len(jobs), limit=max_jobs,
                  delete=num_to_delete)
        update_status = False
        for job in u.sort_by_job_start_time(jobs)[:num_to_delete]:
            if delete_job(ref, job, self.job_control, self.recorder, self.emit, case=kind):
                update_status = True
        return update_status
