"""What an explanation rests on, and what looks odd in a snapshot: note ids and their fields.

A :class:`SnapshotNote` is data, like a decision: an id, its kind and the fields its sentence
needs (names, numbers, the cluster's times, Kubernetes' own texts). It is put into words only
when shown (:mod:`k8sjobs.snapshot.explain`), in the language and for the surface (command
line or Python) that shows it. Kinds:

* ``assumption`` — what the snapshot cannot show and the answer takes for granted;
* ``warning`` — the snapshot disagrees with itself (the status counts pods it does not hold);
* ``state`` — the Job is stuck or odd, with what to check: started with no pod and no
  condition, being deleted, or its status write refused by the API server.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..api.snapshot import Snapshot
from ..api.types import JOB_TRACKING_FINALIZER, Phase
from ..controller.job.job_controller import find_condition_by_type, job_suspended
from ..controller.job.util.utils import is_job_finished
from .read import job_name_seconds

ASSUMPTION, WARNING, STATE = "assumption", "warning", "state"

_TERMINAL = (Phase.SUCCEEDED, Phase.FAILED)


@dataclass(frozen=True)
class SnapshotNote:
    """One note: ``id`` (``state.deleting``), ``kind`` (assumption, warning, state) and its ``fields``."""

    id: str
    kind: str
    fields: dict[str, Any] = field(default_factory=dict)


def pods_command(snapshot: Snapshot) -> str:
    """The exact command that takes this Job with its pods."""
    meta = snapshot.job.metadata
    ns = "" if meta.namespace == "default" else f" -n {meta.namespace}"
    return f"kubectl get job,pods -l batch.kubernetes.io/job-name={meta.name}{ns} -o yaml"


def assumptions(snapshot: Snapshot) -> list[SnapshotNote]:
    """What every answer on this snapshot assumes, in order."""
    snap = snapshot
    now = snap.real_time(snap.now)
    out = [SnapshotNote("assume.expectations", ASSUMPTION), SnapshotNote("assume.backoff_record", ASSUMPTION),
           SnapshotNote("assume.sync_time", ASSUMPTION, {"now": now}),
           SnapshotNote("assume.informer_caches", ASSUMPTION)]
    if not snap.now_given:
        out.append(SnapshotNote("assume.latest_time", ASSUMPTION, {"now": now}))
    if snap.unseen:
        st = snap.job.status
        active = max(st.active, 0)
        out.append(SnapshotNote("assume.unseen_pods", ASSUMPTION, {
            "job": snap.job.metadata.name, "active": active, "ready": min(st.ready or 0, active),
            "terminating": st.terminating or 0, "names": list(snap.unseen), "now": now,
            "command": pods_command(snap)}))
    elif not snap.pods_shown and not is_job_finished(snap.job):
        out.append(SnapshotNote("assume.no_pods_shown", ASSUMPTION, {
            "job": snap.job.metadata.name, "command": pods_command(snap)}))
    q = snap.quota
    if q is not None and q.used is not None:
        out.append(SnapshotNote("assume.quota_used", ASSUMPTION, {
            "name": q.name, "hard": q.hard, "resource": q.resource, "used": q.used, "mine": q.mine,
            "outside": q.outside}))
    elif q is not None:
        out.append(SnapshotNote("assume.quota_unknown_use", ASSUMPTION, {
            "name": q.name, "hard": q.hard, "resource": q.resource, "mine": q.mine}))
    else:
        out.append(SnapshotNote("assume.no_quota", ASSUMPTION))
    return out


def cronjob_command(snapshot: Any) -> str:
    """The command that takes the CronJobs and Jobs of the CronJob's namespace (explain keeps the CronJob's own
    Jobs; with several CronJobs, ``--job NAME`` chooses it). kubectl takes no ``cronjob/NAME,jobs``."""
    meta = snapshot.cronjob.metadata
    ns = "" if meta.namespace == "default" else f" -n {meta.namespace}"
    return f"kubectl get cronjob,jobs{ns} -o yaml"


def cronjob_assumptions(snapshot: Any, zone: str, controller_zone: str) -> list[SnapshotNote]:
    """What every answer on a CronJob's snapshot assumes, in order (``zone``: where its schedule is read)."""
    snap = snapshot
    now = snap.real_time(snap.now)
    cj = snap.cronjob
    out = [SnapshotNote("assume.cron_sync_time", ASSUMPTION, {"now": now})]
    if not snap.now_given:
        out.append(SnapshotNote("assume.cron_latest_time", ASSUMPTION, {"now": now}))
    if snap.unseen_jobs:
        out.append(SnapshotNote("assume.cron_unseen_jobs", ASSUMPTION, {
            "names": list(snap.unseen_jobs), "command": cronjob_command(snap)}))
    elif not snap.jobs_shown:
        out.append(SnapshotNote("assume.cron_no_jobs", ASSUMPTION, {"command": cronjob_command(snap)}))
    if not cj.spec.time_zone and "TZ" not in cj.spec.schedule:
        out.append(SnapshotNote("assume.cron_controller_zone", ASSUMPTION, {"zone": controller_zone}))
    if snap.api_version != "batch/v1":
        out.append(SnapshotNote("assume.cron_old_api", ASSUMPTION, {"version": snap.api_version}))
    old_names = [(j.metadata.name, t) for j in snap.jobs
                 if (t := job_name_seconds(cj.metadata.name, j.metadata.name)) is not None]
    if old_names:
        import datetime as _dt

        first = _dt.datetime.fromtimestamp(old_names[0][1], _dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
        out.append(SnapshotNote("assume.cron_old_job_names", ASSUMPTION, {
            "names": [n for n, _t in old_names], "seconds": old_names[0][1], "time": first}))
    return out


def warnings(snapshot: Snapshot, observed: dict[str, Any], uncounted: int) -> list[SnapshotNote]:
    """Where the snapshot disagrees with itself."""
    st = snapshot.job.status
    active = observed.get("active", 0)
    # A status a little behind is normal (the pods that just finished or are going away);
    # more active pods in the status than that means pods are missing from the snapshot.
    if st.active > active + observed.get("terminating", 0) + uncounted:
        return [SnapshotNote("warn.pods_missing", WARNING, {"status": st.active, "n": active,
                                                            "command": pods_command(snapshot)})]
    return []


def states(snapshot: Snapshot, status_errors: list[str]) -> list[SnapshotNote]:
    """The Job's stuck or odd states, each with the fields its advice needs.

    ``status_errors``: the API server's refusals of the sync's status writes (its own text).
    """
    snap = snapshot
    job = snap.job
    meta, spec, st = job.metadata, job.spec, job.status
    out: list[SnapshotNote] = []
    name = meta.name
    if meta.deletion_timestamp is not None:
        fins = list(meta.finalizers)
        case = ("foreground" if "foregroundDeletion" in fins else "orphan" if "orphan" in fins
                else "finalizers" if fins else "")
        live = sum(1 for p in snap.pods if p.status.phase not in _TERMINAL)
        out.append(SnapshotNote("state.deleting", STATE, {
            "job": name, "at": snap.real_time(meta.deletion_timestamp), "finalizers": fins, "case": case,
            "pods": live}))
    started_no_pods = (
        st.start_time is not None and not job_suspended(job) and not is_job_finished(job)
        and meta.deletion_timestamp is None and st.active == 0 and not (st.terminating or 0)
        and not any(p.status.phase not in _TERMINAL for p in snap.pods)
        and find_condition_by_type(st.conditions, "FailureTarget") is None
        and find_condition_by_type(st.conditions, "SuccessCriteriaMet") is None
        and (spec.parallelism is None or spec.parallelism > 0)
        and (st.succeeded < spec.completions if spec.completions is not None else st.succeeded == 0))
    if started_no_pods:
        out.append(SnapshotNote("state.started_without_pods", STATE, {
            "job": name, "started": snap.real_time(st.start_time), "since": snap.now - st.start_time,
            "namespace": meta.namespace}))
    for error in status_errors:
        suspended_finish = "startTime is required for finished job" in error and job_suspended(job)
        out.append(SnapshotNote("state.status_refused", STATE, {
            "job": name, "error": error, "case": "suspended_finish" if suspended_finish else ""}))
    return out


def uncounted_names(snapshot: Snapshot) -> list[str]:
    """Finished pods still carrying the tracking finalizer (the status does not count them yet)."""
    return [p.metadata.name for p in snapshot.pods
            if p.status.phase in _TERMINAL and JOB_TRACKING_FINALIZER in p.metadata.finalizers]


def observed_from_snapshot(snapshot: Snapshot) -> dict[str, Any]:
    """What a sync would observe, counted from the snapshot, for a sync that returned before counting
    (a finished Job): the status counters plus the finished pods it has not counted yet."""
    st = snapshot.job.status
    unc = st.uncounted_terminated_pods
    in_status = {"succeeded": set(unc.succeeded if unc else ()), "failed": set(unc.failed if unc else ())}
    by_phase: dict[str, int] = {}
    active = ready = terminating = new_s = new_f = 0
    for p in snapshot.pods:
        phase = p.status.phase or Phase.PENDING
        by_phase[phase] = by_phase.get(phase, 0) + 1
        if phase not in _TERMINAL:
            if p.metadata.deletion_timestamp is not None:
                terminating += 1
            else:
                active += 1
                ready += any(c.type == "Ready" and c.status == "True" for c in p.status.conditions)
        elif JOB_TRACKING_FINALIZER in p.metadata.finalizers:
            key = "succeeded" if phase == Phase.SUCCEEDED else "failed"
            if p.metadata.uid not in in_status[key]:
                if key == "succeeded":
                    new_s += 1
                else:
                    new_f += 1
    return {"pods": len(snapshot.pods), "by_phase": by_phase, "active": active, "ready": ready,
            "terminating": terminating,
            "succeeded": st.succeeded + len(in_status["succeeded"]) + new_s,
            "failed": st.failed + len(in_status["failed"]) + new_f,
            "new_succeeded": new_s, "new_failed": new_f, "satisfied": True}


__all__ = ["ASSUMPTION", "STATE", "WARNING", "SnapshotNote", "assumptions", "cronjob_assumptions", "cronjob_command", "observed_from_snapshot", "pods_command",
           "states", "uncounted_names", "warnings"]
