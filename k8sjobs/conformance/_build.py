"""Turn the compact pod and job descriptions of the case files into API objects.

Shared by the ``sync``, ``ordering``-style and ``scenario`` runners. Times in the cases
are "seconds ago" relative to the case's ``now``.
"""

from __future__ import annotations

import copy
from dataclasses import replace
from typing import Any

from ..api import serialize
from ..api.types import (
    JOB_COMPLETION_INDEX_ANNOTATION,
    JOB_INDEX_FAILURE_COUNT_ANNOTATION,
    JOB_TRACKING_FINALIZER,
    ContainerState,
    ContainerStateRunning,
    ContainerStateTerminated,
    ContainerStatus,
    Job,
    LabelSelector,
    ObjectMeta,
    OwnerReference,
    Pod,
    PodCondition,
    PodStatus,
)

LONG_AGO = 1_000_000.0
"""What the cases use for "finished infinitely long ago"."""
NOW = 10_000_000.0
"""The fixed 'now' of a case, far enough from 0 that every 'seconds ago' stays positive."""


def resolve_seconds_ago(doc: Any, now: float) -> Any:
    """Replace every ``{"secondsAgo": N}`` with the RFC 3339 time ``now - N``."""
    if isinstance(doc, dict):
        if set(doc) == {"secondsAgo"}:
            return serialize.format_time(now - float(doc["secondsAgo"]))
        return {k: resolve_seconds_ago(v, now) for k, v in doc.items()}
    if isinstance(doc, list):
        return [resolve_seconds_ago(v, now) for v in doc]
    return doc


def pod_uid(name: str) -> str:
    """The UID the harness gives the pod ``name``."""
    return f"uid-{name}"


def job_from_case(doc: dict[str, Any], now: float, uid: str = "job-uid") -> Job:
    """Load a case's job document (times relative to ``now``); uncounted pod names become UIDs."""
    doc = copy.deepcopy(doc)
    status = doc.get("status") or {}
    unc = status.get("uncountedTerminatedPods")
    if isinstance(unc, dict):
        status["uncountedTerminatedPods"] = {k: [pod_uid(n) for n in v] for k, v in unc.items()}
    doc = resolve_seconds_ago(doc, now)
    doc.setdefault("apiVersion", "batch/v1")
    doc.setdefault("kind", "Job")
    job = serialize.from_dict(Job, doc)
    return replace(job, metadata=replace(job.metadata, uid=job.metadata.uid or uid,
                                         namespace=job.metadata.namespace or "default"))


def ensure_selector(job: Job) -> Job:
    """Give the Job a selector and matching template labels, as the API server would."""
    if job.spec.selector is not None:
        return job
    labels = {"batch.kubernetes.io/controller-uid": job.metadata.uid, "batch.kubernetes.io/job-name": job.metadata.name}
    tmpl = job.spec.template
    tmpl = replace(tmpl, metadata=replace(tmpl.metadata, labels={**labels, **tmpl.metadata.labels}))
    return replace(job, spec=replace(job.spec, selector=LabelSelector(match_labels=labels), template=tmpl))


def pod_from_case(p: dict[str, Any], job: Job, now: float) -> Pod:
    """Build the pod a case describes (see the sync vocabulary and NOTES.md §4)."""
    name = p["name"]
    phase = p.get("phase", "Pending") or "Pending"
    finished_ago = p.get("finishedSecondsAgo")
    finished_at = now - float(finished_ago if finished_ago is not None else LONG_AGO)
    ann: dict[str, str] = {}
    if "index" in p and p["index"] is not None:
        ann[JOB_COMPLETION_INDEX_ANNOTATION] = "invalid" if p["index"] == "invalid" else str(p["index"])
    if p.get("indexFailureCount") is not None:
        ann[JOB_INDEX_FAILURE_COUNT_ANNOTATION] = str(p["indexFailureCount"])
    statuses: list[ContainerStatus] = []
    init_statuses: list[ContainerStatus] = []
    if p.get("exitCode") is not None:
        statuses.append(_terminated(p.get("containerName") or "main-container", p["exitCode"], finished_at))
    for cs in p.get("containerStatuses") or []:
        st = _terminated(cs["name"], cs.get("exitCode", 0), finished_at)
        (init_statuses if cs.get("init") else statuses).append(st)
    if p.get("restartCount"):
        statuses.append(ContainerStatus(name="main-container", restart_count=int(p["restartCount"]),
                                        state=ContainerState(running=ContainerStateRunning(started_at=None))))
    conditions = [PodCondition(type=c["type"], status=c.get("status", "True")) for c in p.get("conditions") or []]
    if p.get("ready"):
        conditions.append(PodCondition(type="Ready", status="True"))
    terminal = phase in ("Succeeded", "Failed")
    # A finished pod without container statuses falls back to its creation time as finish time.
    created = finished_at if terminal and not statuses and not init_statuses else None
    deletion = None
    if p.get("terminating"):
        deletion = now - float(finished_ago) if finished_ago is not None else now
    labels = dict(job.spec.template.metadata.labels)
    if job.spec.selector is not None:
        labels.update(job.spec.selector.match_labels)
    meta = ObjectMeta(
        name=name, namespace=job.metadata.namespace, uid=pod_uid(name), resource_version="1",
        creation_timestamp=created, deletion_timestamp=deletion,
        deletion_grace_period_seconds=0 if deletion is not None else None,
        labels=labels, annotations=ann,
        owner_references=(OwnerReference(api_version="batch/v1", kind="Job", name=job.metadata.name,
                                         uid=job.metadata.uid, controller=True, block_owner_deletion=True),),
        finalizers=(JOB_TRACKING_FINALIZER,) if p.get("finalizer", True) else (),
    )
    return Pod(metadata=meta, spec=job.spec.template.spec,
               status=PodStatus(phase=phase, conditions=tuple(conditions), container_statuses=tuple(statuses),
                                init_container_statuses=tuple(init_statuses)))


def _terminated(name: str, exit_code: int, finished_at: float) -> ContainerStatus:
    return ContainerStatus(name=name, state=ContainerState(
        terminated=ContainerStateTerminated(exit_code=int(exit_code), finished_at=finished_at)))


def condition_list(job: Job) -> list[dict[str, str]]:
    """The status conditions as the cases write them."""
    return [{"type": c.type, "status": c.status, "reason": c.reason, "message": c.message}
            for c in job.status.conditions]
