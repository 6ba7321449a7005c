"""A snapshot of a real Job, as the engine takes it: the Job, its pods, the instant of the next sync.

The data only: reading what kubectl printed is :mod:`k8sjobs.snapshot.read`, above the engine
(it knows kubectl's formats and speaks to the learner); here are the objects the engine
(:class:`~k8sjobs.sim.Simulation`) and the renderers share, and no words.

Times: the snapshot's instants are moved so that simulated time 0 is the Job's
``creationTimestamp`` (a run's time 0 is always its Job's creation); :attr:`Snapshot.origin`
remembers where that was, and :meth:`Snapshot.real_time` prints an instant as the cluster's
date again (:func:`shift_times` moves an object's times back for printing).
"""

from __future__ import annotations

import dataclasses
import statistics
import typing
from dataclasses import dataclass, replace
from functools import cache
from typing import Any

from . import serialize
from .types import CronJob, Job, Phase, Pod, Time

DEFAULT_ASSUMED_DURATION = 60.0
"""Seconds a pod runs in a forecast when neither its sim annotations nor finished pods say."""

DURATION_ANNOTATION = "sim.k8sjobs.io/duration"
_KWOK_DELAY = "pod-complete.stage.kwok.x-k8s.io/delay"

_TERMINAL = (Phase.SUCCEEDED, Phase.FAILED)


@dataclass(frozen=True, slots=True)
class Ignored:
    """A field of the snapshot the model does not use: ``kind`` ``field`` in ``count`` objects."""

    kind: str
    field: str
    count: int


@dataclass(frozen=True, slots=True)
class LeftOut:
    """A pod of the snapshot that is not brought into the simulation, and why.

    ``why`` is one of ``other-controller`` (its controller reference names ``owner``),
    ``other-namespace``, ``settled`` (finished, counted, beyond the most pods a snapshot brings in).
    """

    name: str
    namespace: str
    why: str
    owner: str = ""


@dataclass(frozen=True, slots=True)
class PodQuota:
    """A ResourceQuota on pods in the snapshot, as the simulated API server enforces it.

    ``hard`` pods may be non-terminal in the namespace; ``used`` is what the quota's status
    said (None when the snapshot has no ``status.used``); ``mine`` of them are the Job's pods
    in the snapshot; ``outside`` = ``used - mine`` are pods the snapshot does not show, taken
    to stay while the Job runs (0 when ``used`` is unknown: then only the Job's pods count).
    """

    name: str
    resource: str
    hard: int
    used: int | None
    mine: int

    @property
    def outside(self) -> int:
        """Pods counted as used that the simulation does not hold."""
        return max(self.used - self.mine, 0) if self.used is not None else 0

    @property
    def room(self) -> int:
        """How many non-terminal pods this Job may have under the quota."""
        return max(self.hard - self.outside, 0)


@dataclass(frozen=True)
class Snapshot:
    """One Job and the pods its controller would see, with times moved so 0 is the Job's creation."""

    job: Job
    pods: tuple[Pod, ...]
    now: float
    """The instant of the next sync (simulated seconds since the Job's creation)."""
    origin: float
    """Where simulated time 0 is, as seconds since :data:`k8sjobs.api.serialize.EPOCH`."""
    source: str = "<snapshot>"
    now_given: bool = False
    """True when ``now`` was given; False when it is the latest instant in the snapshot."""
    ignored: tuple[Ignored, ...] = ()
    left_out: tuple[LeftOut, ...] = ()
    other_kinds: tuple[tuple[str, int], ...] = ()
    """Objects of other kinds in the snapshot (kind, count): not used."""
    other_jobs: tuple[str, ...] = ()
    quota: PodQuota | None = None
    """The namespace's ResourceQuota on pods, if the snapshot has one (the tightest of several)."""
    assumed_duration: float | None = None
    duration_source: str = ""
    """How :attr:`assumed_duration` was chosen: ``given``, ``finished-pods`` or ``default``."""
    duration_pods: int = 0
    """How many finished pods the median run time was taken from."""
    annotated_pods: int = 0
    """Pods that got the assumed duration as a sim annotation."""
    pods_shown: bool = True
    """False when the snapshot holds no pod and no (empty) pod list: it was taken without its pods."""
    unseen: tuple[str, ...] = ()
    """Names given to pods the Job's status counts but the snapshot does not hold (it holds none of
    the Job's pods): they stand for the real ones, whose names are unknown."""
    sync_due: bool = True
    """False: no sync of the Job is due at :attr:`now` by itself (a stuck Job): a run starts none."""

    @property
    def pod_quota(self) -> int | None:
        """How many non-terminal pods the Job may have under the snapshot's quota (None: no quota)."""
        return None if self.quota is None else self.quota.room

    @property
    def key(self) -> str:
        """``namespace/name`` of the Job."""
        return f"{self.job.metadata.namespace}/{self.job.metadata.name}"

    def real_time(self, t: float | None) -> str | None:
        """A simulated instant as the cluster's RFC 3339 date (None stays None)."""
        return None if t is None else serialize.format_time(t + self.origin)

    def assuming(self, duration: float | None = None) -> Snapshot:
        """This snapshot with a run time for pods that have none in their sim annotations.

        ``duration`` in seconds (checked by the caller: :func:`k8sjobs.snapshot.read.check_duration`);
        None takes the median run time of the snapshot's
        succeeded pods, else :data:`DEFAULT_ASSUMED_DURATION`. The Job's template and every
        pod without ``sim.k8sjobs.io/duration`` (or KWOK's delay) get the annotation, so a
        forecast's pods run that long and the assumption shows in their YAML.
        """
        if duration is not None:
            source, used = "given", 0
        else:
            runs = [r for r in (_run_time(p) for p in self.pods) if r is not None]
            if runs:
                duration, source, used = max(float(statistics.median(runs)), 1.0), "finished-pods", len(runs)
            else:
                duration, source, used = DEFAULT_ASSUMED_DURATION, "default", 0
        text = _duration_text(duration)
        job = self.job
        tmeta = job.spec.template.metadata
        if not _has_duration(tmeta.annotations):
            tmeta = replace(tmeta, annotations={**tmeta.annotations, DURATION_ANNOTATION: text})
            job = replace(job, spec=replace(job.spec, template=replace(job.spec.template, metadata=tmeta)))
        pods = []
        annotated = 0
        for p in self.pods:
            if p.status.phase not in _TERMINAL and not _has_duration(p.metadata.annotations):
                p = replace(p, metadata=replace(p.metadata, annotations={**p.metadata.annotations,
                                                                        DURATION_ANNOTATION: text}))
                annotated += 1
            pods.append(p)
        return replace(self, job=job, pods=tuple(pods), assumed_duration=float(duration), duration_source=source,
                       duration_pods=used, annotated_pods=annotated)

    def objects(self) -> tuple[Any, ...]:
        """What the simulated API server starts with: the Job, then its pods."""
        return (self.job, *self.pods)

    def node_names(self) -> list[str]:
        """The nodes the snapshot's pods were bound to, sorted (the nodes of unseen pods are not known)."""
        unseen = set(self.unseen)
        return sorted({p.spec.node_name for p in self.pods if p.spec.node_name and p.metadata.name not in unseen})


@dataclass(frozen=True)
class CronJobSnapshot:
    """One CronJob and the Jobs it owns, with times moved so 0 is the CronJob's creation.

    What ``kubectl get cronjob NAME -o yaml`` printed (its Jobs not shown: the Jobs its
    ``status.active`` names are stood in for, running, as :attr:`unseen_jobs`), or
    ``kubectl get cronjob,jobs -o yaml`` (its Jobs as they were). The Jobs' pods are never in
    it: the unfinished Jobs' status counters are stood in for by :attr:`pods` (``NAME-unseen-N``).
    """

    cronjob: CronJob
    jobs: tuple[Job, ...]
    pods: tuple[Pod, ...]
    now: float
    """The instant of the next sync (simulated seconds since the CronJob's creation)."""
    origin: float
    """Where simulated time 0 is, as seconds since :data:`k8sjobs.api.serialize.EPOCH`."""
    source: str = "<snapshot>"
    now_given: bool = False
    api_version: str = "batch/v1"
    """The API version the CronJob was printed in (``batch/v1beta1`` before Kubernetes 1.25)."""
    jobs_shown: bool = False
    """True when the snapshot holds Jobs (or an empty Job list): the CronJob's Jobs are as it shows."""
    unseen_jobs: tuple[str, ...] = ()
    """Jobs named in ``status.active`` that the snapshot does not hold (stood in for, running)."""
    ignored: tuple[Ignored, ...] = ()
    other_kinds: tuple[tuple[str, int], ...] = ()
    other_jobs: tuple[str, ...] = ()
    """Jobs in the snapshot that this CronJob does not own (left out)."""
    other_cronjobs: tuple[str, ...] = ()
    assumed_duration: float | None = None
    duration_source: str = ""
    """How :attr:`assumed_duration` was chosen: ``given``, ``finished-jobs`` or ``default``."""
    duration_jobs: int = 0
    quota = None
    unseen: tuple[str, ...] = ()

    @property
    def key(self) -> str:
        """``namespace/name`` of the CronJob."""
        return f"{self.cronjob.metadata.namespace}/{self.cronjob.metadata.name}"

    def real_time(self, t: float | None) -> str | None:
        """A simulated instant as the cluster's RFC 3339 date (None stays None)."""
        return None if t is None else serialize.format_time(t + self.origin)

    def objects(self) -> tuple[Any, ...]:
        """What the simulated API server starts with: the CronJob, its Jobs, the stand-ins for their pods."""
        return (self.cronjob, *self.jobs, *self.pods)

    def node_names(self) -> list[str]:
        """No node is known (the Jobs' pods are not in a CronJob's snapshot)."""
        return []

    def assuming(self, duration: float | None = None) -> CronJobSnapshot:
        """This snapshot with a run time for the pods of its Jobs (those to come and those running).

        ``duration`` in seconds; None takes the median time the snapshot's completed Jobs took
        (completionTime - startTime), else :data:`DEFAULT_ASSUMED_DURATION`. The CronJob's Job
        template, every unfinished Job's template and the stand-in pods get the annotation.
        """
        if duration is not None:
            source, used = "given", 0
        else:
            runs = [j.status.completion_time - j.status.start_time for j in self.jobs
                    if j.status.completion_time is not None and j.status.start_time is not None
                    and j.status.completion_time >= j.status.start_time]
            if runs:
                duration, source, used = max(float(statistics.median(runs)), 1.0), "finished-jobs", len(runs)
            else:
                duration, source, used = DEFAULT_ASSUMED_DURATION, "default", 0
        text = _duration_text(duration)

        def annotated(template: Any) -> Any:
            meta = template.metadata
            if _has_duration(meta.annotations):
                return template
            return replace(template, metadata=replace(meta, annotations={**meta.annotations, DURATION_ANNOTATION: text}))

        cj = self.cronjob
        jt = cj.spec.job_template
        cj = replace(cj, spec=replace(cj.spec, job_template=replace(jt, spec=replace(
            jt.spec, template=annotated(jt.spec.template)))))
        jobs = tuple(j if j.status.completion_time is not None else
                     replace(j, spec=replace(j.spec, template=annotated(j.spec.template))) for j in self.jobs)
        pods = tuple(p if p.status.phase in _TERMINAL or _has_duration(p.metadata.annotations) else
                     replace(p, metadata=replace(p.metadata, annotations={**p.metadata.annotations,
                                                                          DURATION_ANNOTATION: text}))
                     for p in self.pods)
        return replace(self, cronjob=cj, jobs=jobs, pods=pods, assumed_duration=float(duration),
                       duration_source=source, duration_jobs=used)


def _has_duration(annotations: dict[str, str]) -> bool:
    return DURATION_ANNOTATION in annotations or _KWOK_DELAY in annotations


def _duration_text(seconds: float) -> str:
    text = f"{seconds:.3f}".rstrip("0").rstrip(".")
    return f"{text}s"


def _run_time(pod: Pod) -> float | None:
    # How long a succeeded pod's containers ran: the latest finish minus the earliest start.
    if pod.status.phase != Phase.SUCCEEDED:
        return None
    starts, ends = [], []
    for s in pod.status.container_statuses:
        term = s.state.terminated
        if term is None or term.started_at is None or term.finished_at is None:
            return None
        starts.append(term.started_at)
        ends.append(term.finished_at)
    if not starts:
        return None
    return max(ends) - min(starts)


@cache
def _nested(hint: Any) -> tuple[type, bool] | None:
    """(dataclass, is_list) when ``hint`` holds API objects, else None."""
    hint, _optional = serialize.unwrap_optional(hint)
    if dataclasses.is_dataclass(hint):
        return hint, False
    if typing.get_origin(hint) is tuple:
        args = [a for a in typing.get_args(hint) if a is not Ellipsis]
        if len(args) == 1 and dataclasses.is_dataclass(args[0]):
            return args[0], True
    return None



@cache
def _time_plan(cls: type) -> tuple[tuple[str, str, Any], ...]:
    """The fields of ``cls`` that are times or hold times: (name, "time" | "one" | "many", class)."""
    plan = []
    hints = typing.get_type_hints(cls)
    for f in dataclasses.fields(cls):
        hint, _optional = serialize.unwrap_optional(hints[f.name])
        if hint is Time:
            plan.append((f.name, "time", None))
            continue
        sub = _nested(hints[f.name])
        if sub is not None and _time_plan(sub[0]):
            plan.append((f.name, "many" if sub[1] else "one", sub[0]))
    return tuple(plan)



def _shift(obj: Any, delta: float) -> Any:
    """``obj`` with every time moved by ``delta`` seconds."""
    changes: dict[str, Any] = {}
    for name, mode, _cls in _time_plan(type(obj)):
        value = getattr(obj, name)
        if value is None:
            continue
        if mode == "time":
            changes[name] = value + delta
        elif mode == "one":
            changes[name] = _shift(value, delta)
        elif value:
            changes[name] = tuple(_shift(v, delta) for v in value)
    return replace(obj, **changes) if changes else obj


shift_times = _shift

__all__ = ["DEFAULT_ASSUMED_DURATION", "DURATION_ANNOTATION", "CronJobSnapshot", "Ignored", "LeftOut", "PodQuota",
           "Snapshot", "shift_times"]
