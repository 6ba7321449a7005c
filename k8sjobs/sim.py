"""A seeded, simulated cluster running any number of Jobs: the engine under every lesson.

One :class:`~k8sjobs.clock.FakeClock` and one :class:`~k8sjobs.clock.EventHeap` keyed
``(time, priority, sequence)`` drive everything: the API server (:mod:`k8sjobs.api.store`),
informers with a configurable lag, the Job controller and its work queue, the
ttl-after-finished controller, and the nodes (:mod:`k8sjobs.cluster`). At equal times
the heap runs cluster actions first, then informer deliveries, then delayed queue adds,
then controller syncs, so a sync always sees what the informer delivered at its instant.

The same Job manifest, configuration, seed and actions always give the same run:
:meth:`Simulation.replay` rebuilds a run event for event, which is how the trace layer
forks the past.

``manual=True`` turns the cluster and the workers off: a harness then changes pods
itself and calls :meth:`Simulation.sync` (used by the ``scenario`` conformance cases,
which thereby run through this engine).
"""

from __future__ import annotations

import contextlib
import copy
import dataclasses
import gc
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from functools import partial
from typing import Any

from .api import serialize, yamlio
from .api.apierrors import APIError
from .api.errors import DecodeError, FieldError, InvalidError
from .api.events import StoreEventRecorder
from .api.informer import Informer
from .api.snapshot import CronJobSnapshot, Snapshot
from .api.store import APIStore, WatchEvent, upstream_pod_grace_period
from .api.types import CronJob, Job, Pod, share_on_deepcopy
from .clock import EventHeap, FakeClock
from .cluster.cluster import DEFAULT_PODS_PER_NODE, Cluster
from .cluster.workload import parse_workload
from .controller.controller_utils import StorePodControl, key_func
from .controller.cronjob import CronJobController, StoreCronJobControl, StoreJobControl
from .controller.cronjob.utils import load_location
from .controller.job.job_controller import JOB_POD_INDEX, SETTLED_FAILED, JobController, StoreJobClient
from .controller.job.util.utils import is_job_finished
from .controller.ttlafterfinished.ttlafterfinished_controller import TTLAfterFinishedController
from .controller.workqueue import RateLimitingQueue, default_controller_rate_limiter
from .ids import IdSource

PRIORITY_WORKER = 20
PRIORITY_ORPHAN_WORKER = 21
PRIORITY_CRONJOB_WORKER = 22
PRIORITY_TTL_WORKER = 25
PRIORITY_ADOPT = 30
"""A snapshot's nodes take its pods over after the controller's first sync at that instant."""
DEFAULT_MAX_TIME = 24 * 3600.0
DEFAULT_MAX_CYCLES = 5000
DEFAULT_MAX_PODS = 25_000
DEFAULT_MAX_EVENTS = 100_000
DEFAULT_MAX_POD_CYCLES = 3_000_000

Listener = Callable[[str, dict[str, Any]], None]


@dataclass(frozen=True, slots=True)
class SimConfig:
    """Everything besides the manifest and the actions that decides a run."""

    seed: int = 0
    nodes: int = 3
    pods_per_node: int = DEFAULT_PODS_PER_NODE
    informer_lag: float = 0.0
    scheduling_latency: float = 0.0
    node_lost_delay: float = 40.0
    manual: bool = False
    controller_zone: str = "UTC"
    """kube-controller-manager's own time zone: where a CronJob schedule without a time zone is evaluated."""
    start: str | None = None
    """The wall-clock instant of simulated time 0, RFC 3339 with its offset (``2026-03-08T00:00:00-05:00``);
    None: 2026-01-01T00:00:00Z (:data:`~k8sjobs.api.serialize.EPOCH`). What a CronJob's schedule, its
    Jobs' names and dates read; a run from a snapshot is at the snapshot's own dates."""

    __deepcopy__ = share_on_deepcopy

    @property
    def origin(self) -> float:
        """Where simulated time 0 is: seconds after :data:`~k8sjobs.api.serialize.EPOCH` (0 when ``start`` is None)."""
        return 0.0 if self.start is None else serialize.parse_time(self.start)

    def __post_init__(self) -> None:
        problems = []
        if not isinstance(self.seed, int) or isinstance(self.seed, bool):
            problems.append(f"seed: must be an integer, got {self.seed!r}")
        if not isinstance(self.nodes, int) or not 0 <= self.nodes <= 10_000:
            problems.append(f"nodes: must be an integer between 0 and 10000, got {self.nodes!r}")
        if not isinstance(self.pods_per_node, int) or not 1 <= self.pods_per_node <= 100_000:
            problems.append(f"pods_per_node: must be an integer between 1 and 100000, got {self.pods_per_node!r}")
        for name in ("informer_lag", "scheduling_latency", "node_lost_delay"):
            v = getattr(self, name)
            if not isinstance(v, (int, float)) or isinstance(v, bool) or not 0 <= v <= 86400:
                problems.append(f"{name}: must be a number of seconds between 0 and 86400, got {v!r}")
        if not isinstance(self.controller_zone, str) or load_location(self.controller_zone) is None:
            problems.append(f"controller_zone: must be an IANA time zone name such as UTC or Europe/Berlin, "
                            f"got {self.controller_zone!r}")
        problem = _start_problem(self.start)
        if problem is not None:
            problems.append(problem)
        if problems:
            raise ValueError("invalid simulation settings: " + "; ".join(problems))


_FIRST_START, _LAST_START = "1970-01-01T00:00:00Z", "9000-01-01T00:00:00Z"


def _start_problem(start: object) -> str | None:
    """What is wrong with a ``start`` setting, naming it (None: nothing)."""
    if start is None:
        return None
    example = "such as 2026-03-08T00:00:00-05:00 or 2026-01-01T00:00:00Z"
    if not isinstance(start, str):
        return f"start: must be an RFC 3339 date and time with its offset ({example}), got {start!r}"
    try:
        at = serialize.parse_time(start)
    except ValueError:
        return f"start: must be an RFC 3339 date and time with its offset ({example}), got {start!r}"
    if not serialize.parse_time(_FIRST_START) <= at < serialize.parse_time(_LAST_START):
        return f"start: must be from {_FIRST_START} up to {_LAST_START}, got {start!r}"
    return None


@dataclass(frozen=True, slots=True)
class Action:
    """A change applied to a run: its method name, arguments and the heap position it came at."""

    position: int
    name: str
    kwargs: tuple[tuple[str, Any], ...] = ()
    t: float = 0.0
    cycle: int = 0

    __deepcopy__ = share_on_deepcopy

    def describe(self) -> str:
        """``fail_pod(name='pi-x', exit_code=42)``."""
        args = ", ".join(f"{k}={v!r}" for k, v in self.kwargs)
        return f"{self.name}({args})"


@contextlib.contextmanager
def fewer_gc_passes(threshold0: int = 200_000) -> Iterator[None]:
    """Let CPython's cyclic garbage collector start a pass less often during a long loop.

    A run allocates hundreds of thousands of small, acyclic, frozen API objects; with the
    default first threshold (700) the collector walks the young ones thousands of times
    and rescans the whole store now and then, about a tenth of a 10,000-pod run. At 10,000
    it still took 0.2 s of a 1.9 s 10,000-pod run (32 passes); at 200,000, 0.12 s (3 passes)
    and the same peak memory: the run makes almost no cyclic garbage, and what it makes waits
    at most 200,000 allocations. The old thresholds come back when the loop ends, also on an
    error; nothing else changes.
    """
    old = gc.get_threshold()
    if old[0] >= threshold0:
        yield
        return
    gc.set_threshold(threshold0, *old[1:])
    try:
        yield
    finally:
        gc.set_threshold(*old)


class BudgetError(ValueError):
    """Run limits that are not whole numbers (or, ``max_time``, seconds) of at least 0: ``problems`` holds
    ``(limit, value)`` pairs; :func:`k8sjobs.trace.limits.budget_problems` words them where they are shown."""

    def __init__(self, problems: list[tuple[str, Any]]) -> None:
        self.problems = problems
        super().__init__("invalid run limits: " + "; ".join(f"{name}: must be at least 0, got {value!r}"
                                                           for name, value in problems))


@dataclass(frozen=True, slots=True)
class Budget:
    """How far one run may go, in simulated units, so any valid Job stops in bounded time and memory.

    The limits count what the simulation does, never wall-clock time, so a run stops at the
    same heap event on every machine and a run that stays within its limits is unchanged:

    * ``max_pods``: pods created (the run stops right after the sync that created one more;
      one sync creates at most 500);
    * ``max_events``: heap events run (kubelet, informer, queue and controller steps);
    * ``max_pod_cycles``: pods looked at by reconcile cycles, summed over cycles (each sync
      lists every live pod of the Job, so this bounds the controller's work);
    * ``max_time``: simulated seconds;
    * ``max_cycles``: reconcile cycles of the Job.

    The defaults keep any valid Job within about 5 s and 500 MB on a small machine (a
    10,000-pod Job takes about 2 s); see DEVELOPERS.md for how they were measured.
    """

    max_pods: int = DEFAULT_MAX_PODS
    max_events: int = DEFAULT_MAX_EVENTS
    max_pod_cycles: int = DEFAULT_MAX_POD_CYCLES
    max_time: float = DEFAULT_MAX_TIME
    max_cycles: int = DEFAULT_MAX_CYCLES

    def __post_init__(self) -> None:
        problems = []
        for name in ("max_pods", "max_events", "max_pod_cycles", "max_cycles", "max_time"):
            v = getattr(self, name)
            whole = name != "max_time"
            if (not isinstance(v, int if whole else (int, float)) or isinstance(v, bool)
                    or not v >= 0):
                problems.append((name, v))
        if problems:
            raise BudgetError(problems)

    def reached(self, sim: Simulation, next_time: float) -> str | None:
        """The name of the first limit that stops ``sim`` before its next event (at ``next_time``), or None."""
        if next_time > self.max_time:
            return "max_time"
        if sim.cycles >= self.max_cycles:
            return "max_cycles"
        if sim.events_run >= self.max_events:
            return "max_events"
        if sim.pods_created > self.max_pods:
            return "max_pods"
        if sim.pod_cycles > self.max_pod_cycles:
            return "max_pod_cycles"
        return None


@dataclass(frozen=True, slots=True)
class LimitReached:
    """Why a run stopped before the Job finished: the limit, its value and where the run was.

    ``count`` is what the run had reached (pods created, heap events, ...); ``cycle`` and
    ``t`` are the last reconcile cycle and the simulated time when it stopped. The trace up
    to there is complete: it can be read, seeked and forked like any other. It holds no
    words: :mod:`k8sjobs.trace.limits` says it for a Python caller or for the command line.
    """

    limit: str
    value: float
    count: float
    t: float
    cycle: int
    start: float = 0.0
    """When the run started: 0, or a snapshot's instant (``max_time`` counts from 0 either way)."""


@dataclass(slots=True)
class Downtime:
    """When the simulated kube-controller-manager is stopped: its workers do nothing before ``until``."""

    until: float = 0.0


class Worker:
    """One controller's worker as kube-controller-manager runs it, on the simulation's heap.

    Its work queue wakes it (``kick`` is the queue's ``on_ready``) and it then runs as one heap
    event at its controller's priority: either one key per event, waking itself again while
    keys are ready (the Job controller: other events interleave between two syncs, as with
    upstream's workers), or every ready key in one event (``drain``: the orphan-pod, ttl and
    lighter queues). Controllers are registered with :meth:`Simulation.register_worker`.
    """

    __slots__ = ("name", "heap", "clock", "priority", "drain", "process", "pending", "scheduled", "down")

    def __init__(self, name: str, heap: EventHeap, clock: FakeClock, priority: int, drain: bool,
                 down: Downtime | None = None) -> None:
        self.name = name
        self.heap = heap
        self.clock = clock
        self.priority = priority
        self.drain = drain
        self.process: Callable[[], Any] = lambda: False
        """Process the next ready key; returns true when it did something (what a drain loops on)."""
        self.pending: Callable[[], int] = lambda: 0
        """How many keys are ready (what wakes a one-key-per-event worker again)."""
        self.scheduled = False
        self.down = down if down is not None else Downtime()

    def bind(self, process: Callable[[], Any], pending: Callable[[], int] | None = None) -> Worker:
        """Give the worker its controller's processing function (and the queue length); returns it."""
        self.process = process
        if pending is not None:
            self.pending = pending
        return self

    def kick(self) -> None:
        """Run soon (at the current time, at the worker's priority) unless already due; while the
        controller manager is down, when it is back."""
        if not self.scheduled:
            self.scheduled = True
            t = self.clock.now()
            if t < self.down.until:
                t = self.down.until
            self.heap.call_at(t, self._work, priority=self.priority, label=self.name)

    def _work(self) -> None:
        self.scheduled = False
        if self.clock.now() < self.down.until:
            # Stopped while this run was due: the work waits for the restart.
            self.kick()
            return
        if self.drain:
            while self.process():
                pass
            return
        self.process()
        if self.pending():
            self.kick()


class SimulationError(ValueError):
    """An action could not be applied (unknown pod, invalid spec, ...); the run is unchanged."""


Manifest = Job | CronJob | Snapshot | CronJobSnapshot | str | bytes | dict | list | tuple
"""What a run starts from: a Job or CronJob, a snapshot of a real cluster, a manifest file's text
(one or several objects), a decoded document, or a sequence of objects."""

APIObject = Job | CronJob
"""An object a manifest may hold."""


def load_objects(manifest: Manifest, source: str = "<manifest>") -> tuple[tuple[str, APIObject], ...]:
    """Every object of ``manifest`` with its label (see :func:`~k8sjobs.api.yamlio.object_label`), in order.

    Raises DecodeError naming the source and the object for anything that cannot be read.
    """
    if isinstance(manifest, (Job, CronJob)):
        return (("", manifest),)
    if isinstance(manifest, Snapshot):
        return (("", manifest.job),)
    if isinstance(manifest, CronJobSnapshot):
        return (("", manifest.cronjob),)
    if isinstance(manifest, (list, tuple)):
        objs = [load_objects(m, source)[0][1] for m in manifest]
        if not objs:
            raise DecodeError(f"{source}: empty: no Job given")
        if len(objs) == 1:
            return (("", objs[0]),)
        return tuple((f'document {i} ({o.kind.lower()} "{o.metadata.name}")', o) for i, o in enumerate(objs, 1))
    if isinstance(manifest, dict):
        if not (manifest.get("kind") == "List" and manifest.get("apiVersion") == "v1"):
            return (("", yamlio.object_from_document(manifest, source)),)
        return tuple(yamlio.decode_objects(yamlio.objects_in([manifest], source), source))
    return tuple(yamlio.load_objects(manifest, source))


def load_jobs(manifest: Manifest, source: str = "<manifest>") -> tuple[tuple[str, Job], ...]:
    """The Jobs of ``manifest`` (its CronJobs left out) with their labels, in order."""
    return tuple((label, o) for label, o in load_objects(manifest, source) if isinstance(o, Job))


def load_job(manifest: Manifest, source: str = "<manifest>") -> Job:
    """The (first) Job of a Job object, a snapshot, YAML/JSON text or a document (a CronJob's Job
    template as the Job it would create, when the manifest has no Job); raises DecodeError."""
    objects = load_objects(manifest, source)
    for _label, o in objects:
        if isinstance(o, Job):
            return o
    return job_of_template(objects[0][1])


def job_of_template(cronjob: CronJob) -> Job:
    """The Job a CronJob's template describes (named after the CronJob), for what reads a Job's spec."""
    template = cronjob.spec.job_template
    meta = replace(template.metadata, name=cronjob.metadata.name, namespace=cronjob.metadata.namespace)
    return Job(metadata=meta, spec=template.spec)


def check_workload(obj: APIObject, where: str = "") -> None:
    """Reject invalid sim annotations (of a Job's pod template, or a CronJob's Job template's) with field
    errors naming the annotation."""
    job = obj if isinstance(obj, Job) else job_of_template(obj)
    workload, errors = parse_workload(job.spec.template.metadata.annotations)
    regular = [c.name for c in job.spec.template.spec.containers]
    unknown = sorted(workload.keeps_running - set(regular))
    if unknown:
        key = "sim.k8sjobs.io/keeps-running"
        errors.append(FieldError.invalid(f"spec.template.metadata.annotations[{key}]",
                                         job.spec.template.metadata.annotations[key],
                                         "must name regular containers of the pod template ("
                                         + ", ".join(regular) + "); not " + ", ".join(unknown)))
    if errors:
        if isinstance(obj, CronJob):
            errors = [replace(e, field=e.field.replace("spec.", "spec.jobTemplate.spec.", 1)) for e in errors]
        raise InvalidError(obj.kind, obj.metadata.name, errors, where)


def as_submitted(obj: APIObject) -> APIObject:
    """Name, namespace and UID as the API server assigns them before validating a create."""
    meta = obj.metadata
    name = meta.name
    if not name and meta.generate_name:
        name = IdSource(0).generate_name(meta.generate_name)
    meta = replace(meta, name=name, namespace=meta.namespace or "default", uid=meta.uid or IdSource(0).uid(obj.kind))
    return replace(obj, metadata=meta)


@dataclass(frozen=True, slots=True)
class Checked:
    """One object of a manifest as the API server would take it on create (``kubectl apply --dry-run=server``)."""

    label: str
    """Where it is in its file (``document 2 (job "b")``); "" for a file of one object."""
    obj: APIObject
    """The object as decoded (not defaulted): what a run creates."""
    admitted: APIObject | None = None
    """Defaulted and validated (None when invalid)."""
    warnings: tuple[str, ...] = ()
    error: DecodeError | InvalidError | None = None


def check_manifest(manifest: Manifest, source: str = "<manifest>") -> list[Checked]:
    """The one validation path of ``validate``, ``run``, :func:`validate`, :class:`Simulation` and the dashboard.

    Decodes every object strictly, then defaults and validates each as the API server does on
    create (name, namespace and UID assigned first) and checks its sim annotations. A file that
    cannot be decoded raises DecodeError; an object that decodes but is invalid comes back with
    its ``error`` (every object is checked, so one call reports them all). Two objects of one
    kind, namespace and name are refused as the second create would be (AlreadyExists).
    """
    from .api.admission import admit_cronjob_create, admit_job_create
    from .api.validation import cronjob_warnings_on_create, warnings_on_create

    out: list[Checked] = []
    seen: dict[tuple[str, str, str], str] = {}
    for label, obj in load_objects(manifest, source):
        submitted = as_submitted(obj)
        cron = isinstance(obj, CronJob)
        try:
            admitted = admit_cronjob_create(submitted) if cron else admit_job_create(submitted)
            check_workload(admitted, label)
        except InvalidError as exc:
            if label and not exc.where:
                exc = InvalidError(exc.kind, exc.name, exc.errors, label)
            out.append(Checked(label, obj, error=exc))
            continue
        key = (obj.kind, admitted.metadata.namespace, admitted.metadata.name)
        if key in seen:
            err = InvalidError(obj.kind, admitted.metadata.name, [FieldError.duplicate(
                "metadata.name", admitted.metadata.name)], label)
            out.append(Checked(label, obj, error=err))
            continue
        seen[key] = label
        warnings = cronjob_warnings_on_create(admitted) if cron else warnings_on_create(admitted)
        out.append(Checked(label, obj, admitted, tuple(warnings)))
    return out


def first_error(checked: list[Checked]) -> DecodeError | InvalidError | None:
    """The first object's error (what refuses a run: nothing of a file is created while one object is invalid)."""
    return next((c.error for c in checked if c.error is not None), None)


def validate(manifest: Manifest, source: str = "<manifest>") -> list[str]:
    """Check a manifest as ``kubectl apply`` would, plus its sim annotations.

    Returns [] when every object is valid, else one line per problem naming the field and the
    rule (after the object's place, ``document 2 (job "b"): ``, in a file of several).
    """
    try:
        checked = check_manifest(manifest, source)
    except DecodeError as exc:
        return [exc.reason, *[str(e) for e in exc.errors]]
    lines = []
    for c in checked:
        if c.error is not None:
            prefix = f"{c.label}: " if c.label else ""
            lines.extend(prefix + str(e) for e in c.error.errors)
    return lines


class Simulation:
    """A simulated cluster with one or more Jobs in it (see the module docstring).

    ``job`` is a manifest (its Jobs are created at time 0, in the file's order; a file may hold
    several objects as ``kubectl apply -f`` takes them) or a
    :class:`~k8sjobs.api.snapshot.Snapshot` of a real cluster: its Job and pods are put in
    the API server as they were, the clock starts at the snapshot's ``now``, the
    controller starts as after a restart (no expectations, no backoff record) and its
    first sync comes at that instant, before the nodes act; the nodes are those the pods
    ran on (or ``nodes`` generic ones), and they take the pods over.
    """

    def __init__(self, job: Manifest, config: SimConfig | None = None, *,
                 ids: IdSource | None = None, pod_grace_period: Callable | None = None, **settings: Any) -> None:
        if config is None:
            config = SimConfig(**settings)
        elif settings:
            config = replace(config, **settings)
        self.config = config
        self.snapshot = job if isinstance(job, (Snapshot, CronJobSnapshot)) else None
        loaded = load_objects(job)
        for label, manifest in loaded:
            check_workload(manifest, label)
        self.manifests: tuple[Job, ...] = tuple(m for _, m in loaded if isinstance(m, Job))
        """Every Job the run starts with, in the order they are created."""
        self.cronjob_manifests: tuple[CronJob, ...] = tuple(m for _, m in loaded if isinstance(m, CronJob))
        """Every CronJob the run starts with (their Jobs come as they are scheduled)."""
        self.manifest = self.manifests[0] if self.manifests else job_of_template(self.cronjob_manifests[0])
        if self.snapshot is not None and config.start is not None:
            raise ValueError(f"invalid simulation settings: start: a run from a snapshot is at the snapshot's own "
                             f"dates (its time 0 is {self.snapshot.real_time(0.0)}), got {config.start!r}")
        self.origin = self.snapshot.origin if self.snapshot is not None else config.origin
        """Where simulated time 0 is, in seconds after :data:`~k8sjobs.api.serialize.EPOCH` (the clock's origin)."""
        self.clock = FakeClock(self.snapshot.now if self.snapshot is not None else 0.0, origin=self.origin)
        self.heap = EventHeap(self.clock)
        self.store = APIStore(self.clock, ids=ids or IdSource(config.seed),
                              pod_grace_period=pod_grace_period or upstream_pod_grace_period)
        if self.snapshot is not None:
            self._check_snapshot_workloads(self.snapshot)
            self.store.load(self.snapshot.objects())
            quota = self.snapshot.quota
            if quota is not None:
                f = self.store.faults
                f.pod_quota, f.pod_quota_name, f.pod_quota_resource = quota.hard, quota.name, quota.resource
                f.pod_quota_outside = quota.outside
        self.job_uids: dict[str, str] = {}
        """Every Job of the run by key (those created later, by a CronJob, too), in creation order."""
        self.listeners: list[Listener] = []
        self.watchers: list[Callable[[WatchEvent], None]] = []
        self.actions: list[Action] = []
        self.events_run = 0
        self.cycles = 0
        self.pods_created = 0
        """Pods created in the API server so far (what ``Budget.max_pods`` counts)."""
        self.limit_reached: LimitReached | None = None
        """The limit that stopped the last budgeted :meth:`run_until_finished` (None if none did)."""
        self.pod_cycles = 0
        """Live pods of the Job summed over its reconcile cycles (what ``Budget.max_pod_cycles`` counts)."""
        self.workers: dict[str, Worker] = {}
        """The controllers' workers by name, in the order they were registered (see :class:`Worker`)."""
        self.downtime = Downtime()
        """When the simulated kube-controller-manager is stopped (see :meth:`stop_controllers`)."""
        for kind in ("Job", "Pod", "Node", "Event", "CronJob"):
            self.store.watch(kind, self._on_watch)

        inf_sched = None if config.manual else self.heap
        self.job_informer = Informer(self.store, "Job", inf_sched, lag=config.informer_lag)
        self.pod_informer = Informer(self.store, "Pod", inf_sched, lag=config.informer_lag)
        self.recorder = StoreEventRecorder(self.store, self.clock, "job-controller")
        # The controllers, registered as kube-controller-manager starts them: the Job controller
        # (its work queue and the orphan-pod queue), then ttl-after-finished.
        job_worker = self.register_worker("job-controller", PRIORITY_WORKER)
        orphan_worker = self.register_worker("orphan-pods", PRIORITY_ORPHAN_WORKER, drain=True)
        queue = RateLimitingQueue(self.clock, self.heap, on_ready=self._on_ready(job_worker))
        orphan_queue = RateLimitingQueue(self.clock, self.heap, on_ready=self._on_ready(orphan_worker))
        self.controller = JobController(
            jobs=self.job_informer, pods=self.pod_informer,
            pod_control=StorePodControl(self.store, self.recorder), job_client=StoreJobClient(self.store),
            clock=self.clock, recorder=self.recorder, queue=queue, orphan_queue=orphan_queue, emit=self._emit,
            listening=self._listening)
        job_worker.bind(self.controller.process_next_work_item, self.controller.queue.__len__)
        orphan_worker.bind(self.controller.process_next_orphan_pod)
        ttl_worker = self.register_worker("ttl", PRIORITY_TTL_WORKER, drain=True)
        ttl_queue = RateLimitingQueue(self.clock, self.heap, on_ready=self._on_ready(ttl_worker),
                                      rate_limiter=default_controller_rate_limiter(self.clock))
        self.ttl = TTLAfterFinishedController(jobs=self.job_informer, client=StoreJobClient(self.store),
                                              clock=self.clock, queue=ttl_queue, emit=self._emit)
        ttl_worker.bind(self.ttl.process_next_work_item)
        self.cronjob_controller: CronJobController | None = None
        self.cronjob_informer: Informer | None = None
        if self.cronjob_manifests:
            # The CronJob controller (a run without CronJobs does not start it: nothing would wake it).
            self.cronjob_informer = Informer(self.store, "CronJob", inf_sched, lag=config.informer_lag)
            cron_worker = self.register_worker("cronjob-controller", PRIORITY_CRONJOB_WORKER)
            cron_queue = RateLimitingQueue(self.clock, self.heap, on_ready=self._on_ready(cron_worker),
                                           rate_limiter=default_controller_rate_limiter(self.clock))
            self.cronjob_controller = CronJobController(
                cronjobs=self.cronjob_informer, jobs=self.job_informer, job_control=StoreJobControl(self.store),
                cronjob_control=StoreCronJobControl(self.store),
                recorder=StoreEventRecorder(self.store, self.clock, "cronjob-controller"), clock=self.clock,
                queue=cron_queue, emit=self._emit, zone=config.controller_zone)
            cron_worker.bind(self.cronjob_controller.process_next_work_item, cron_queue.__len__)
        self.cluster: Cluster | None = None
        if not config.manual:
            node_names = self.snapshot.node_names() or None if self.snapshot is not None else None
            self.cluster = Cluster(self.store, self.heap, nodes=config.nodes, pods_per_node=config.pods_per_node,
                                   seed=config.seed, scheduling_latency=config.scheduling_latency,
                                   node_lost_delay=config.node_lost_delay, emit=self._emit, node_names=node_names,
                                   stopped_until=self._stopped_until)
        if self.snapshot is None:
            # Each object is checked before the first is created: nothing of a file is half-applied.
            if len(loaded) > 1:
                error = first_error(check_manifest(job))
                if error is not None:
                    raise error
            made = [self._create_job(m, label) for label, m in loaded]
            created_all = [c for c in made if isinstance(c, Job)]
            created = created_all[0] if created_all else None
        elif isinstance(self.snapshot, CronJobSnapshot):
            created, created_all = None, self._start_from_cronjob_snapshot(self.snapshot)
        else:
            created = self.snapshot.job
            created_all = [created]
            # The controller starts as after a restart: its first sync is due now, and the
            # nodes take the pods over only after it, so it sees exactly the snapshot (unless none is due).
            if self.snapshot.sync_due:
                self.controller.queue.add(key_func(created))
            if self.cluster is not None:
                pods = list(self.snapshot.pods)
                self.heap.call_at(self.clock.now(), partial(self.cluster.adopt, pods), priority=PRIORITY_ADOPT,
                                  label="cluster:adopt")
        self.job_key = key_func(created) if created is not None else ""
        """The first Job's key (``namespace/name``): what actions act on unless told another Job ("" when the
        run starts with CronJobs only)."""
        self.job_uid = created.metadata.uid if created is not None else ""
        for c in created_all:
            self.job_uids.setdefault(key_func(c), c.metadata.uid)

    # ------------------------------------------------------------------ plumbing

    def _start_from_cronjob_snapshot(self, snapshot: CronJobSnapshot) -> list[Job]:
        # kube-controller-manager starts as after a restart: its informers list the CronJob and its Jobs, so
        # both controllers have them queued now (the Job controller first, by priority); the nodes take the
        # stand-in pods over after those syncs. Returns the snapshot's Jobs (each gets its trace).
        for j in snapshot.jobs:
            self.controller.queue.add(key_func(j))
        if self.cronjob_controller is not None:
            self.cronjob_controller.queue.add(key_func(snapshot.cronjob))
        if self.cluster is not None and snapshot.pods:
            self.heap.call_at(self.clock.now(), partial(self.cluster.adopt, list(snapshot.pods)),
                              priority=PRIORITY_ADOPT, label="cluster:adopt")
        return list(snapshot.jobs)

    @staticmethod
    def _check_snapshot_workloads(snapshot: Snapshot | CronJobSnapshot) -> None:
        # Sim annotations on a snapshot's pods are read by the nodes: refuse bad ones now.
        for pod in snapshot.pods:
            _, errors = parse_workload(pod.metadata.annotations)
            if errors:
                fixed = [replace(e, field=e.field.replace("spec.template.metadata", "metadata", 1)) for e in errors]
                raise InvalidError("Pod", pod.metadata.name, fixed)

    def _create_job(self, job: APIObject, label: str = "") -> APIObject:
        meta = job.metadata
        if not meta.namespace:
            job = replace(job, metadata=replace(meta, namespace="default"))
        try:
            return self.store.create(job)
        except APIError as exc:
            if exc.field_errors:
                raise InvalidError(job.kind, job.metadata.name, exc.field_errors, label) from None
            raise SimulationError(f"{label}: {exc}" if label else str(exc)) from None

    def _emit(self, kind: str, /, **fields: Any) -> None:
        # Budgets count across all objects: every Job's and CronJob's syncs are cycles of the run.
        if kind == "sync.end" or kind == "cronjob.sync.end":
            self.cycles += 1
        elif kind == "sync.begin":
            self.pod_cycles += self._pods_a_sync_reads(fields.get("job", self.job_key))
        listeners = self.listeners
        if listeners:  # a headless run has none: the fields (a fresh dict) are then not read
            fields.setdefault("t", self.clock.now())
            for fn in listeners:
                fn(kind, fields)

    def _pods_a_sync_reads(self, key: str) -> int:
        """How many pods the next sync of Job ``key`` looks at: its live pods, and with a podFailurePolicy
        also its settled failed pods (getFailJobMessage matches every failed pod)."""
        job = self.job_informer.get(*key.split("/", 1))
        uid = self.job_uids.get(key)
        if uid is None:
            if job is None:
                return 0
            uid = self.job_uids[key] = job.metadata.uid
        inf = self.pod_informer
        n = inf.index_size(JOB_POD_INDEX, uid)
        if job is not None and job.spec.pod_failure_policy is not None:
            n += inf.index_size(JOB_POD_INDEX, uid + SETTLED_FAILED)
        return n

    def _on_watch(self, ev: WatchEvent) -> None:
        if ev.type == "ADDED":
            if ev.kind == "Pod":
                self.pods_created += 1
            elif ev.kind == "Job":
                # A Job created during the run (by a CronJob) is one of the run's Jobs too.
                meta = ev.obj.metadata
                self.job_uids.setdefault(f"{meta.namespace}/{meta.name}", meta.uid)
        for fn in self.watchers:
            fn(ev)

    def _listening(self) -> bool:
        # A bound method, not a closure: a clone's controller asks the clone.
        return bool(self.listeners)

    def add_listener(self, fn: Listener) -> None:
        """Receive every decision and observation: ``fn(rule_id, fields)``."""
        self.listeners.append(fn)

    def add_watcher(self, fn: Callable[[WatchEvent], None]) -> None:
        """Receive every API write (ADDED / MODIFIED / DELETED of Jobs, Pods, Nodes, Events)."""
        self.watchers.append(fn)

    def register_worker(self, name: str, priority: int, *, drain: bool = False) -> Worker:
        """Register a controller's worker (see :class:`Worker`); bind its processing function next.

        In manual mode the worker is registered but never woken: a harness calls the controller.
        """
        if name in self.workers:
            raise ValueError(f"a worker named {name!r} is registered already")
        worker = self.workers[name] = Worker(name, self.heap, self.clock, priority, drain, self.downtime)
        return worker

    def _on_ready(self, worker: Worker) -> Callable[[], None] | None:
        return None if self.config.manual else worker.kick

    # ------------------------------------------------------------------ saved states

    def clone(self) -> Simulation:
        """An independent copy of this simulation as it is now, without listeners or watchers.

        Running the copy gives exactly what running this simulation would give (every
        generator, counter, queue and scheduled callback is copied; the immutable API objects
        are shared). Take it between heap events. A saved state that is never run serves
        any number of resumptions: ``saved = sim.clone()``, then ``saved.clone()`` each time.
        """
        listeners, watchers = self.listeners, self.watchers
        self.listeners, self.watchers = [], []
        # A real cluster's snapshot, like the manifest, never changes: the copy shares it.
        memo = {id(self.snapshot): self.snapshot} if self.snapshot is not None else {}
        # The copy allocates tens of thousands of containers and frees none: without the cyclic
        # collector, which would otherwise walk the whole heap (the trace, the saved states) a few
        # times per copy, a 1,000-pod state copies in ~2 ms instead of ~100-400 ms here.
        paused = gc.isenabled()
        gc.disable()
        try:
            return copy.deepcopy(self, memo)
        finally:
            if paused:
                gc.enable()
            self.listeners, self.watchers = listeners, watchers

    # ------------------------------------------------------------------ reading the world

    @property
    def now(self) -> float:
        """Simulated seconds since the Job was created."""
        return self.clock.now()

    @property
    def job(self) -> Job | None:
        """The (first) Job as the API server has it now (None once deleted)."""
        ns, _, name = self.job_key.partition("/")
        return self.store.try_get("Job", ns, name)

    def job_named(self, name: str | None) -> tuple[str, Job | None]:
        """The key and current object of the run's Job called ``name`` (None: the first Job).

        Raises SimulationError naming the Jobs of the run when there is no such Job.
        """
        if name is None:
            return self.job_key, self.job
        for key in self.job_uids:
            if key.partition("/")[2] == name:
                ns, _, n = key.partition("/")
                return key, self.store.try_get("Job", ns, n)
        names = ", ".join(k.partition("/")[2] for k in self.job_uids)
        raise SimulationError(f'job "{name}" not found; Jobs of this run: {names}')

    def pods(self, job: str | None = None) -> list[Pod]:
        """The pods of a Job (``job``'s key; default the first Job) as the API server has them, in creation order."""
        uid = self.job_uid if job is None else self.job_uids.get(job, "")
        pods = [p for p in self.store.objects("Pod") if any(r.uid == uid for r in p.metadata.owner_references)]
        return sorted(pods, key=lambda p: (p.metadata.creation_timestamp or 0.0, p.metadata.uid))

    def pod(self, name: str) -> Pod:
        """One pod of the run's Jobs by name; raises SimulationError listing the pods that exist."""
        uids = set(self.job_uids.values())
        pods = [p for p in self.store.objects("Pod") if any(r.uid in uids for r in p.metadata.owner_references)]
        for p in pods:
            if p.metadata.name == name:
                return p
        pods.sort(key=lambda p: (p.metadata.creation_timestamp or 0.0, p.metadata.uid))
        names = ", ".join(p.metadata.name for p in pods) or "none"
        raise SimulationError(f'pod "{name}" not found; pods of this Job: {names}')

    @property
    def finished(self) -> bool:
        """Every Job of the run is Complete or Failed, or gone (a run with a CronJob never finishes: its
        schedule goes on; such a run ends at its time limit)."""
        if self.cronjob_manifests:
            return False
        for key in self.job_uids:
            ns, _, name = key.partition("/")
            job = self.store.try_get("Job", ns, name)
            if job is not None and not is_job_finished(job):
                return False
        return True

    # ------------------------------------------------------------------ running

    def step(self) -> bool:
        """Run the next event of the heap; False when nothing is left."""
        if self.heap.run_next() is None:
            return False
        self.events_run += 1
        return True

    def run_until(self, t: float) -> None:
        """Run every event due at or before ``t`` and move the clock to ``t``."""
        with fewer_gc_passes():
            while (nxt := self.heap.peek_time()) is not None and nxt <= t:
                self.step()
        if t > self.clock.now():
            self.clock.set(t)

    def run_events(self, n: int) -> None:
        """Run exactly ``n`` more heap events (or until the heap is empty)."""
        with fewer_gc_passes():
            for _ in range(n):
                if not self.step():
                    return

    def next_cycle(self, max_time: float = DEFAULT_MAX_TIME) -> bool:
        """Run until the Job controller finishes its next sync of the Job; False if none comes."""
        target = self.cycles + 1
        while self.cycles < target:
            nxt = self.heap.peek_time()
            if nxt is None or nxt > max_time:
                return False
            self.step()
        return True

    def run_until_finished(self, max_time: float = DEFAULT_MAX_TIME, *, settle: bool = True,
                           budget: Budget | None = None, progress: Callable[[Simulation], None] | None = None,
                           progress_every: int = 5000) -> bool:
        """Run until the Job finishes (and, with ``settle``, until nothing is left to do); True if it finished.

        With a ``budget`` the run also stops at the first of its limits (its ``max_time`` too);
        :attr:`limit_reached` then says which (None when the Job finished first or no limit was
        reached). ``progress(sim)`` is called every ``progress_every`` heap events.
        """
        self.limit_reached = None
        queue = self.heap._queue  # peek_time and step, inlined: a week-long run has half a million events
        run_next = self.heap.run_next
        with fewer_gc_passes():
            while queue:
                nxt = queue[0][0]
                if nxt > max_time:
                    break
                if not settle and self.finished:
                    break
                if budget is not None:
                    limit = budget.reached(self, nxt)
                    if limit is not None:
                        if not self.finished:
                            self.limit_reached = self.limit_hit(budget, limit)
                        break
                run_next()
                self.events_run += 1
                if progress is not None and self.events_run % progress_every == 0:
                    progress(self)
        return self.finished

    def limit_hit(self, budget: Budget, limit: str) -> LimitReached:
        """The record of ``budget``'s ``limit`` stopping this simulation now."""
        count = {"max_pods": self.pods_created, "max_events": self.events_run, "max_pod_cycles": self.pod_cycles,
                 "max_cycles": self.cycles, "max_time": self.clock.now()}[limit]
        start = self.snapshot.now if self.snapshot is not None else 0.0
        return LimitReached(limit, getattr(budget, limit), count, self.clock.now(), self.cycles, start)

    # ------------------------------------------------------------------ the manual mode

    def sync(self) -> Any:
        """manual mode: run one Job-controller sync of the Job now, then the ttl controller."""
        self.controller.sync_job(self.job_key)
        result = self.controller.last_result
        self.ttl.process_job(self.job_key)
        return result

    # ------------------------------------------------------------------ actions

    def _record(self, action: str, /, **kwargs: Any) -> None:
        self.actions.append(Action(self.events_run, action, tuple(sorted(kwargs.items())), self.clock.now(),
                                   self.cycles))
        self._emit("action." + action, action=action, **kwargs)

    def apply(self, action: str, /, **kwargs: Any) -> None:
        """Apply an action by name (what replay uses); raises SimulationError on bad input.

        ``action`` is positional-only, so actions that take a ``name`` (fail_pod, lose_node, ...)
        can be applied: ``sim.apply("fail_pod", name="pi-x", exit_code=42)``.
        """
        method = getattr(self, action, None)
        if action.startswith("_") or action not in ACTIONS or method is None:
            raise SimulationError(f"unknown action {action!r}; actions: {', '.join(sorted(ACTIONS))}")
        method(**kwargs)

    def _need_cluster(self) -> Cluster:
        if self.cluster is None:
            raise SimulationError("this simulation runs in manual mode: it has no nodes")
        return self.cluster

    def fail_pod(self, name: str, exit_code: int = 1, container: str | None = None,
                 condition: str | None = None) -> None:
        """Make a running pod fail now with ``exit_code`` (optionally with a pod condition)."""
        if not isinstance(exit_code, int) or isinstance(exit_code, bool) or not 0 <= exit_code <= 255:
            raise SimulationError(f"exit_code: must be an integer between 0 and 255, got {exit_code!r}")
        pod = self.pod(name)
        try:
            self._need_cluster().fail_pod(pod.metadata.name, pod.metadata.namespace, exit_code=exit_code,
                                          container=container, condition=condition)
        except ValueError as exc:
            raise SimulationError(str(exc)) from None
        self._record("fail_pod", name=name, exit_code=exit_code, container=container, condition=condition)

    def stretch_pod(self, name: str, seconds: float) -> None:
        """Make a running pod run ``seconds`` more from now before it exits as planned (a Job that runs long)."""
        if not isinstance(seconds, (int, float)) or isinstance(seconds, bool) or not 0 < seconds <= 366 * 86400:
            raise SimulationError(f"seconds: must be a number of seconds between 0 and 31622400, got {seconds!r}")
        pod = self.pod(name)
        try:
            self._need_cluster().stretch_pod(pod.metadata.name, pod.metadata.namespace, seconds=seconds)
        except ValueError as exc:
            raise SimulationError(str(exc)) from None
        self._record("stretch_pod", name=name, seconds=seconds)

    def evict_pod(self, name: str) -> None:
        """Evict a pod through the Eviction API (DisruptionTarget=True, then a graceful delete)."""
        pod = self.pod(name)
        if pod.metadata.deletion_timestamp is not None:
            raise SimulationError(f'pod "{name}" is already being deleted')
        self._need_cluster().evict(pod.metadata.name, pod.metadata.namespace)
        self._record("evict_pod", name=name)

    def delete_pod(self, name: str) -> None:
        """``kubectl delete pod NAME`` (graceful)."""
        pod = self.pod(name)
        try:
            self.store.delete("Pod", pod.metadata.namespace, pod.metadata.name)
        except APIError as exc:
            raise SimulationError(str(exc)) from None
        self._record("delete_pod", name=name)

    def lose_node(self, name: str) -> None:
        """A node disappears; pod GC notices it at its next 20 s pass and, a quarantine of
        ``node_lost_delay`` (40 s) later, fails and deletes its pods."""
        try:
            self._need_cluster().lose_node(name)
        except ValueError as exc:
            raise SimulationError(str(exc)) from None
        self._record("lose_node", name=name)

    def add_node(self, name: str | None = None, pods: int | None = None) -> None:
        """Add a Ready node (default name node-N)."""
        cluster = self._need_cluster()
        if name is None:
            n = 1
            while self.store.try_get("Node", "", f"node-{n}") is not None or f"node-{n}" in cluster.lost_nodes:
                n += 1
            name = f"node-{n}"
        if self.store.try_get("Node", "", name) is not None:
            raise SimulationError(f'node "{name}" already exists')
        cluster.add_node(name, pods)
        self._record("add_node", name=name, pods=pods)

    def fail_next_creates(self, n: int) -> None:
        """The next ``n`` pod creations fail with an API error."""
        if not isinstance(n, int) or isinstance(n, bool) or not 0 <= n <= 100_000:
            raise SimulationError(f"n: must be an integer between 0 and 100000, got {n!r}")
        self.store.faults.fail_next_creates = n
        self._record("fail_next_creates", n=n)

    def set_pod_quota(self, pods: int | None) -> None:
        """A ResourceQuota on pods in the namespace (None removes it)."""
        if pods is not None and (not isinstance(pods, int) or isinstance(pods, bool) or pods < 0):
            raise SimulationError(f"pods: must be a non-negative integer or None, got {pods!r}")
        self.store.faults.pod_quota = pods
        self._record("set_pod_quota", pods=pods)

    def set_informer_lag(self, seconds: float) -> None:
        """How late watch events reach the controller's caches from now on."""
        if not isinstance(seconds, (int, float)) or isinstance(seconds, bool) or not 0 <= seconds <= 3600:
            raise SimulationError(f"seconds: must be between 0 and 3600, got {seconds!r}")
        self.job_informer.set_lag(seconds)
        self.pod_informer.set_lag(seconds)
        self._record("set_informer_lag", seconds=seconds)

    def set_status_conflicts(self, n: int) -> None:
        """The next ``n`` Job status writes fail with a Conflict."""
        if not isinstance(n, int) or isinstance(n, bool) or not 0 <= n <= 1000:
            raise SimulationError(f"n: must be an integer between 0 and 1000, got {n!r}")
        self.store.faults.status_conflicts = n
        self._record("set_status_conflicts", n=n)

    def _update_spec(self, job_name: str | None = None, **changes: Any) -> Job:
        job = self.job_named(job_name)[1]
        if job is None:
            raise SimulationError("the Job has been deleted")
        return self._update(replace(job, spec=replace(job.spec, **changes),
                                    metadata=replace(job.metadata, resource_version="")))

    def _update(self, new: APIObject) -> APIObject:
        """``kubectl apply`` of a changed object: the API server's refusal as InvalidError or SimulationError."""
        try:
            return self.store.update(new)
        except APIError as exc:
            if exc.field_errors:
                raise InvalidError(new.kind, new.metadata.name, exc.field_errors) from None
            raise SimulationError(str(exc)) from None

    def _record_for(self, action: str, job: str | None, /, **kwargs: Any) -> None:
        # An action on the first Job records no job name, so a one-Job run records what it always did.
        if job is not None:
            kwargs["job"] = job
        self._record(action, **kwargs)

    def suspend(self, job: str | None = None) -> None:
        """Set spec.suspend = true (of the Job named ``job``; default the first)."""
        self._update_spec(job, suspend=True)
        self._record_for("suspend", job)

    def resume(self, job: str | None = None) -> None:
        """Set spec.suspend = false (of the Job named ``job``; default the first)."""
        self._update_spec(job, suspend=False)
        self._record_for("resume", job)

    def scale(self, parallelism: int | None = None, completions: int | None = None, job: str | None = None) -> None:
        """Change parallelism and/or completions (Indexed: both together, elastic Jobs)."""
        changes: dict[str, Any] = {}
        for field_name, value in (("parallelism", parallelism), ("completions", completions)):
            if value is None:
                continue
            if not isinstance(value, int) or isinstance(value, bool):
                raise SimulationError(f"spec.{field_name}: Invalid value: {value!r}: must be a whole number")
            changes[field_name] = value
        if not changes:
            raise SimulationError("scale: give parallelism, completions or both")
        self._update_spec(job, **changes)
        self._record_for("scale", job, parallelism=parallelism, completions=completions)

    def edit(self, manifest: Job | str | bytes | dict) -> None:
        """Apply an edited manifest to the running Job (as ``kubectl apply``): only the spec changes."""
        new = load_job(manifest, "<edit>")
        names = [k.partition("/")[2] for k in self.job_uids]
        # In a run of several Jobs the edited manifest's name says which Job it edits.
        target = new.metadata.name if len(names) > 1 and new.metadata.name in names else None
        job = self.job_named(target)[1]
        if job is None:
            raise SimulationError("the Job has been deleted")
        if new.metadata.name and new.metadata.name != job.metadata.name:
            raise SimulationError(f'metadata.name: Invalid value: "{new.metadata.name}": the edited manifest must '
                                  f'keep the name "{job.metadata.name}"')
        check_workload(new)
        from .api.defaults import set_defaults_job

        spec = set_defaults_job(replace(new, metadata=job.metadata)).spec
        # The server keeps the generated selector and labels unless the edit sets them.
        if spec.selector is None:
            spec = replace(spec, selector=job.spec.selector)
        labels = {**job.spec.template.metadata.labels, **spec.template.metadata.labels}
        spec = replace(spec, template=replace(spec.template, metadata=replace(spec.template.metadata, labels=labels)))
        self._update_spec(target, **{f.name: getattr(spec, f.name) for f in dataclasses.fields(spec)})
        self._record("edit", manifest=yamlio_dump(new))

    def _stopped_until(self) -> float:
        return self.downtime.until

    def stop_controllers(self, seconds: float) -> None:
        """Stop the simulated kube-controller-manager for ``seconds``: no controller syncs anything until
        then (their queues keep what comes in), pod GC included; the nodes, the kubelet, the scheduler and
        the API server go on. (The garbage collector that deletes a deleted Job's pods is in
        kube-controller-manager too; the model's runs it inside the API server, so it goes on.)"""
        if not isinstance(seconds, (int, float)) or isinstance(seconds, bool) or not 0 < seconds <= 366 * 86400:
            raise SimulationError(f"seconds: must be a number of seconds between 0 and 31622400, got {seconds!r}")
        self.downtime.until = max(self.downtime.until, self.clock.now() + seconds)
        self._record("stop_controllers", seconds=seconds)

    def _cronjob(self, name: str | None) -> CronJob:
        names = [c.metadata.name for c in self.cronjob_manifests]
        if not names:
            raise SimulationError("this run has no CronJob")
        name = names[0] if name is None else name
        ns = next((c.metadata.namespace or "default" for c in self.cronjob_manifests if c.metadata.name == name),
                  None)
        cur = self.store.try_get("CronJob", ns, name) if ns is not None else None
        if cur is None:
            raise SimulationError(f'cronjob "{name}" not found; CronJobs of this run: {", ".join(names)}')
        return cur

    def _update_cronjob(self, name: str | None, **changes: Any) -> None:
        cur = self._cronjob(name)
        self._update(replace(cur, spec=replace(cur.spec, **changes), metadata=replace(cur.metadata, resource_version="")))

    def suspend_cronjob(self, cronjob: str | None = None) -> None:
        """Set the CronJob's spec.suspend = true (no new Jobs; running ones go on)."""
        self._update_cronjob(cronjob, suspend=True)
        self._record_cron("suspend_cronjob", cronjob)

    def resume_cronjob(self, cronjob: str | None = None) -> None:
        """Set the CronJob's spec.suspend = false."""
        self._update_cronjob(cronjob, suspend=False)
        self._record_cron("resume_cronjob", cronjob)

    def set_schedule(self, schedule: str, cronjob: str | None = None) -> None:
        """Change the CronJob's spec.schedule (validated as the API server does)."""
        if not isinstance(schedule, str):
            raise SimulationError(f"schedule: must be a cron schedule (text), got {schedule!r}")
        self._update_cronjob(cronjob, schedule=schedule)
        self._record_cron("set_schedule", cronjob, schedule=schedule)

    def set_time_zone(self, time_zone: str | None, cronjob: str | None = None) -> None:
        """Change the CronJob's spec.timeZone (an IANA name; None: the controller's own zone)."""
        self._update_cronjob(cronjob, time_zone=time_zone)
        self._record_cron("set_time_zone", cronjob, time_zone=time_zone)

    def _record_cron(self, action: str, cronjob: str | None, /, **kwargs: Any) -> None:
        if cronjob is not None:
            kwargs["cronjob"] = cronjob
        self._record(action, **kwargs)

    def delete_job(self, propagation: str = "Background", job: str | None = None) -> None:
        """``kubectl delete job`` (Background: the garbage collector then deletes the pods)."""
        if propagation not in ("Background", "Foreground", "Orphan"):
            raise SimulationError(f'propagation: Unsupported value: "{propagation}": supported values: '
                                  '"Background", "Foreground", "Orphan"')
        ns, _, name = self.job_named(job)[0].partition("/")
        try:
            self.store.delete("Job", ns, name, propagation=propagation)
        except APIError as exc:
            raise SimulationError(str(exc)) from None
        self._record_for("delete_job", job, propagation=propagation)

    # ------------------------------------------------------------------ replay

    def replay_action(self, act: Action) -> None:
        """Re-apply a recorded action exactly where it happened: same heap position, same clock."""
        self.run_events(act.position - self.events_run)
        # run_until() may have moved the clock past the last event before the action was taken.
        if act.t > self.clock.now():
            self.clock.set(act.t)
        self.apply(act.name, **dict(act.kwargs))

    @classmethod
    def replay(cls, manifest: Manifest, config: SimConfig, actions: list[Action],
               until: int | None = None, listeners: tuple[Listener, ...] = (),
               watchers: tuple[Callable[[WatchEvent], None], ...] = ()) -> Simulation:
        """Rebuild a run: same manifest, settings and actions at the same heap positions.

        Stops after ``until`` heap events if given (actions at that position are applied).
        """
        sim = cls(manifest, config)
        sim.listeners.extend(listeners)
        sim.watchers.extend(watchers)
        for act in actions:
            if until is not None and act.position > until:
                break
            sim.replay_action(act)
        if until is not None and sim.events_run < until:
            sim.run_events(until - sim.events_run)
        return sim


def yamlio_dump(job: Job) -> str:
    """The manifest as YAML text (what an edit action records)."""
    import yaml

    from .api.serialize import to_dict

    return yaml.safe_dump(to_dict(job), sort_keys=False)


ACTIONS = frozenset({"fail_pod", "evict_pod", "delete_pod", "lose_node", "add_node", "fail_next_creates",
                     "set_pod_quota", "set_informer_lag", "set_status_conflicts", "suspend", "resume", "scale",
                     "edit", "delete_job", "stop_controllers", "stretch_pod", "suspend_cronjob", "resume_cronjob", "set_schedule",
                     "set_time_zone"})
"""Methods of :class:`Simulation` that change a run (and are recorded for replay)."""

__all__ = ["ACTIONS", "Action", "Budget", "DEFAULT_MAX_CYCLES", "DEFAULT_MAX_EVENTS", "DEFAULT_MAX_PODS",
           "DEFAULT_MAX_POD_CYCLES", "DEFAULT_MAX_TIME", "BudgetError", "LimitReached", "DecodeError", "InvalidError", "SimConfig", "Simulation", "SimulationError",
           "APIObject", "Checked", "Downtime", "Manifest", "Worker", "as_submitted", "check_manifest", "check_workload", "first_error", "job_of_template", "load_job", "load_jobs", "load_objects",
           "validate"]
