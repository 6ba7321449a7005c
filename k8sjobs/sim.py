"""A seeded, simulated cluster running one Job: the engine under every lesson.

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

from .api import yamlio
from .api.apierrors import APIError
from .api.errors import DecodeError, FieldError, InvalidError
from .api.events import StoreEventRecorder
from .api.informer import Informer
from .api.snapshot import Snapshot
from .api.store import APIStore, WatchEvent, upstream_pod_grace_period
from .api.types import Job, Pod, share_on_deepcopy
from .clock import EventHeap, FakeClock
from .cluster.cluster import DEFAULT_PODS_PER_NODE, Cluster
from .cluster.workload import parse_workload
from .controller.controller_utils import StorePodControl, key_func
from .controller.job.job_controller import JOB_POD_INDEX, SETTLED_FAILED, JobController, StoreJobClient
from .controller.job.util.utils import is_job_finished
from .controller.ttlafterfinished.ttlafterfinished_controller import TTLAfterFinishedController
from .controller.workqueue import RateLimitingQueue
from .i18n import _, join_clauses, ngettext
from .ids import IdSource

PRIORITY_WORKER = 20
PRIORITY_ORPHAN_WORKER = 21
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

    __deepcopy__ = share_on_deepcopy

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
        if problems:
            raise ValueError("invalid simulation settings: " + "; ".join(problems))


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
        for name in ("max_pods", "max_events", "max_pod_cycles", "max_cycles"):
            v = getattr(self, name)
            if not isinstance(v, int) or isinstance(v, bool) or v < 0:
                problems.append(_("{name}: must be a whole number of at least 0, got {value!r}").format(
                    name=name, value=v))
        v = self.max_time
        if not isinstance(v, (int, float)) or isinstance(v, bool) or not v >= 0:
            problems.append(_("max_time: must be a number of seconds of at least 0, got {value!r}").format(value=v))
        if problems:
            raise ValueError(_("invalid run limits: {problems}").format(problems=join_clauses(problems)))

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


LIMIT_OPTIONS = {"max_pods": "--max-pods", "max_events": "--max-events", "max_pod_cycles": "--max-pod-cycles",
                 "max_time": "--until", "max_cycles": "--max-cycles"}
"""The command-line option of ``python -m k8sjobs run`` that raises each limit."""


@dataclass(frozen=True, slots=True)
class LimitReached:
    """Why a run stopped before the Job finished: the limit, its value and where the run was.

    ``count`` is what the run had reached (pods created, heap events, ...); ``cycle`` and
    ``t`` are the last reconcile cycle and the simulated time when it stopped. The trace up
    to there is complete: it can be read, seeked and forked like any other.
    """

    limit: str
    value: float
    count: float
    t: float
    cycle: int
    start: float = 0.0
    """When the run started: 0, or a snapshot's instant (``max_time`` counts from 0 either way)."""

    def what(self) -> str:
        """The limit in words: ``it created 25012 pods, more than its limit of 25000 (max_pods)``."""
        n, v = self.count, self.value
        if self.limit == "max_pods":
            return ngettext("it created {count} pod, more than its limit of {value} (max_pods)",
                            "it created {count} pods, more than its limit of {value} (max_pods)",
                            int(n)).format(count=int(n), value=int(v))
        if self.limit == "max_events":
            return ngettext("it ran {value} simulation event, its limit (max_events)",
                            "it ran {value} simulation events, its limit (max_events)",
                            int(v)).format(value=int(v))
        if self.limit == "max_pod_cycles":
            return ngettext("its reconcile cycles looked at {count} pod in all, more than its limit of {value} "
                            "(max_pod_cycles: each cycle looks at every live pod of the Job)",
                            "its reconcile cycles looked at {count} pods in all, more than its limit of {value} "
                            "(max_pod_cycles: each cycle looks at every live pod of the Job)",
                            int(n)).format(count=int(n), value=int(v))
        if self.limit == "max_cycles":
            return ngettext("it ran {value} reconcile cycle, its limit (max_cycles)",
                            "it ran {value} reconcile cycles, its limit (max_cycles)",
                            int(v)).format(value=int(v))
        return _("it reached t={value} s of simulated time, its limit (max_time)").format(value=f"{v:g}")

    def raise_hint(self, api: str = "Run", command: str = "run") -> str:
        """How to go further: the keyword of ``api`` and the option of ``python -m k8sjobs {command}``,
        with a doubled value. For ``max_time`` the option (``--until``) and the keywords of the
        dashboard and of a forecast count from the run's start; ``Run``'s ``max_time`` from 0."""
        if self.limit == "max_time":
            span = 2 * max(self.value - self.start, 1.0)
            keyword = f"{self.start + span:g}" if api == "Run" else f"{span:g}"
            value = f"{span:g}"
        else:
            value = keyword = str(int(self.value * 2 if self.value else 1))
        return _("To go further, raise the limit: {api}(..., {limit}={keyword}), or {option} {value} with "
                 "python -m k8sjobs {command}.").format(api=api, limit=self.limit, keyword=keyword, value=value,
                                                         option=LIMIT_OPTIONS[self.limit], command=command)

    def message(self, api: str = "Run", command: str = "run") -> str:
        """The whole message: where the run stopped, which limit, that the trace is usable, how to raise it."""
        return _("The run stopped after cycle {cycle} (t={t} s) before the Job finished: {what}. Everything "
                 "up to there can be viewed, seeked and forked. {hint}").format(
            cycle=self.cycle, t=f"{self.t:g}", what=self.what(), hint=self.raise_hint(api, command))


class SimulationError(ValueError):
    """An action could not be applied (unknown pod, invalid spec, ...); the run is unchanged."""


def load_job(manifest: Job | Snapshot | str | bytes | dict, source: str = "<manifest>") -> Job:
    """A Job from a Job object, a snapshot, YAML/JSON text or a document; raises DecodeError."""
    if isinstance(manifest, Job):
        return manifest
    if isinstance(manifest, Snapshot):
        return manifest.job
    if isinstance(manifest, dict):
        yamlio.check_type_meta(manifest, source)
        return yamlio.job_from_document(manifest, source)
    return yamlio.load_job_manifest(manifest, source)


def check_workload(job: Job) -> None:
    """Reject invalid sim annotations with field errors naming the annotation."""
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
        raise InvalidError("Job", job.metadata.name, errors)


def validate(manifest: Job | str | bytes | dict, source: str = "<manifest>") -> list[str]:
    """Check a Job manifest as ``kubectl apply`` would, plus its sim annotations.

    Returns [] when it is valid, else one line per problem naming the field and the rule.
    """
    from .api import admission
    from .api.types import evolve

    try:
        job = load_job(manifest, source)
    except DecodeError as exc:
        return [exc.reason, *[str(e) for e in exc.errors]]
    meta = job.metadata
    job = evolve(job, metadata=evolve(meta, namespace=meta.namespace or "default", uid=meta.uid or "validate"))
    try:
        admission.admit_job_create(job)
        check_workload(job)
    except InvalidError as exc:
        return [str(e) for e in exc.errors]
    return []


class Simulation:
    """A simulated cluster with one Job in it (see the module docstring).

    ``job`` is a manifest (the Job is created at time 0) or a
    :class:`~k8sjobs.api.snapshot.Snapshot` of a real cluster: its Job and pods are put in
    the API server as they were, the clock starts at the snapshot's ``now``, the
    controller starts as after a restart (no expectations, no backoff record) and its
    first sync comes at that instant, before the nodes act; the nodes are those the pods
    ran on (or ``nodes`` generic ones), and they take the pods over.
    """

    def __init__(self, job: Job | Snapshot | str | bytes | dict, config: SimConfig | None = None, *,
                 ids: IdSource | None = None, pod_grace_period: Callable | None = None, **settings: Any) -> None:
        if config is None:
            config = SimConfig(**settings)
        elif settings:
            config = replace(config, **settings)
        self.config = config
        self.snapshot = job if isinstance(job, Snapshot) else None
        self.manifest = load_job(job)
        check_workload(self.manifest)
        self.clock = FakeClock(self.snapshot.now if self.snapshot is not None else 0.0)
        self.heap = EventHeap(self.clock)
        self.store = APIStore(self.clock, ids=ids or IdSource(config.seed),
                              pod_grace_period=pod_grace_period or upstream_pod_grace_period)
        if self.snapshot is not None:
            self._check_snapshot_workloads(self.snapshot)
            self.store.load([self.snapshot.job, *self.snapshot.pods])
            quota = self.snapshot.quota
            if quota is not None:
                f = self.store.faults
                f.pod_quota, f.pod_quota_name, f.pod_quota_resource = quota.hard, quota.name, quota.resource
                f.pod_quota_outside = quota.outside
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
        self._worker_scheduled = False
        self._orphan_scheduled = False
        self._ttl_scheduled = False
        for kind in ("Job", "Pod", "Node", "Event"):
            self.store.watch(kind, self._on_watch)

        inf_sched = None if config.manual else self.heap
        self.job_informer = Informer(self.store, "Job", inf_sched, lag=config.informer_lag)
        self.pod_informer = Informer(self.store, "Pod", inf_sched, lag=config.informer_lag)
        self.recorder = StoreEventRecorder(self.store, self.clock, "job-controller")
        on_ready = None if config.manual else self._kick_worker
        queue = RateLimitingQueue(self.clock, self.heap, on_ready=on_ready)
        orphan_queue = RateLimitingQueue(self.clock, self.heap,
                                         on_ready=None if config.manual else self._kick_orphan_worker)
        self.controller = JobController(
            jobs=self.job_informer, pods=self.pod_informer,
            pod_control=StorePodControl(self.store, self.recorder), job_client=StoreJobClient(self.store),
            clock=self.clock, recorder=self.recorder, queue=queue, orphan_queue=orphan_queue, emit=self._emit)
        ttl_queue = RateLimitingQueue(self.clock, self.heap, on_ready=None if config.manual else self._kick_ttl)
        self.ttl = TTLAfterFinishedController(jobs=self.job_informer, client=StoreJobClient(self.store),
                                              clock=self.clock, queue=ttl_queue, emit=self._emit)
        self.cluster: Cluster | None = None
        if not config.manual:
            node_names = self.snapshot.node_names() or None if self.snapshot is not None else None
            self.cluster = Cluster(self.store, self.heap, nodes=config.nodes, pods_per_node=config.pods_per_node,
                                   seed=config.seed, scheduling_latency=config.scheduling_latency,
                                   node_lost_delay=config.node_lost_delay, emit=self._emit, node_names=node_names)
        if self.snapshot is None:
            created = self._create_job(self.manifest)
        else:
            created = self.snapshot.job
            # The controller starts as after a restart: its first sync is due now, and the
            # nodes take the pods over only after it, so it sees exactly the snapshot.
            self.controller.queue.add(key_func(created))
            if self.cluster is not None:
                pods = list(self.snapshot.pods)
                self.heap.call_at(self.clock.now(), partial(self.cluster.adopt, pods), priority=PRIORITY_ADOPT,
                                  label="cluster:adopt")
        self.job_key = key_func(created)
        self.job_uid = created.metadata.uid

    # ------------------------------------------------------------------ plumbing

    @staticmethod
    def _check_snapshot_workloads(snapshot: Snapshot) -> None:
        # Sim annotations on a snapshot's pods are read by the nodes: refuse bad ones now.
        for pod in snapshot.pods:
            _, errors = parse_workload(pod.metadata.annotations)
            if errors:
                fixed = [replace(e, field=e.field.replace("spec.template.metadata", "metadata", 1)) for e in errors]
                raise InvalidError("Pod", pod.metadata.name, fixed)

    def _create_job(self, job: Job) -> Job:
        meta = job.metadata
        if not meta.namespace:
            job = replace(job, metadata=replace(meta, namespace="default"))
        try:
            return self.store.create(job)
        except APIError as exc:
            if exc.field_errors:
                raise InvalidError("Job", job.metadata.name, exc.field_errors) from None
            raise SimulationError(str(exc)) from None

    def _emit(self, kind: str, /, **fields: Any) -> None:
        if kind == "sync.end":
            if fields.get("job") == self.job_key:
                self.cycles += 1
        elif kind == "sync.begin" and fields.get("job") == self.job_key:
            self.pod_cycles += self._pods_a_sync_reads()
        fields.setdefault("t", self.clock.now())
        for fn in self.listeners:
            fn(kind, fields)

    def _pods_a_sync_reads(self) -> int:
        """How many pods the next sync of the Job looks at: its live pods, and with a podFailurePolicy
        also its settled failed pods (getFailJobMessage matches every failed pod)."""
        inf = self.pod_informer
        n = inf.index_size(JOB_POD_INDEX, self.job_uid)
        job = self.job_informer.get(*self.job_key.split("/", 1))
        if job is not None and job.spec.pod_failure_policy is not None:
            n += inf.index_size(JOB_POD_INDEX, self.job_uid + SETTLED_FAILED)
        return n

    def _on_watch(self, ev: WatchEvent) -> None:
        if ev.type == "ADDED" and ev.kind == "Pod":
            self.pods_created += 1
        for fn in self.watchers:
            fn(ev)

    def add_listener(self, fn: Listener) -> None:
        """Receive every decision and observation: ``fn(rule_id, fields)``."""
        self.listeners.append(fn)

    def add_watcher(self, fn: Callable[[WatchEvent], None]) -> None:
        """Receive every API write (ADDED / MODIFIED / DELETED of Jobs, Pods, Nodes, Events)."""
        self.watchers.append(fn)

    def _kick_worker(self) -> None:
        if not self._worker_scheduled:
            self._worker_scheduled = True
            self.heap.call_at(self.clock.now(), self._work, priority=PRIORITY_WORKER, label="job-controller")

    def _work(self) -> None:
        self._worker_scheduled = False
        self.controller.process_next_work_item()
        if len(self.controller.queue):
            self._kick_worker()

    def _kick_orphan_worker(self) -> None:
        if not self._orphan_scheduled:
            self._orphan_scheduled = True
            self.heap.call_at(self.clock.now(), self._orphan_work, priority=PRIORITY_ORPHAN_WORKER,
                              label="orphan-pods")

    def _orphan_work(self) -> None:
        self._orphan_scheduled = False
        while self.controller.process_next_orphan_pod():
            pass

    def _kick_ttl(self) -> None:
        if not self._ttl_scheduled:
            self._ttl_scheduled = True
            self.heap.call_at(self.clock.now(), self._ttl_work, priority=PRIORITY_TTL_WORKER, label="ttl")

    def _ttl_work(self) -> None:
        self._ttl_scheduled = False
        while self.ttl.process_next_work_item():
            pass

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
        """The Job as the API server has it now (None once deleted)."""
        ns, _, name = self.job_key.partition("/")
        return self.store.try_get("Job", ns, name)

    def pods(self) -> list[Pod]:
        """The Job's pods as the API server has them, in creation order."""
        uid = self.job_uid
        pods = [p for p in self.store.objects("Pod") if any(r.uid == uid for r in p.metadata.owner_references)]
        return sorted(pods, key=lambda p: (p.metadata.creation_timestamp or 0.0, p.metadata.uid))

    def pod(self, name: str) -> Pod:
        """One pod of the Job by name; raises SimulationError listing the pods that exist."""
        for p in self.pods():
            if p.metadata.name == name:
                return p
        names = ", ".join(p.metadata.name for p in self.pods()) or "none"
        raise SimulationError(f'pod "{name}" not found; pods of this Job: {names}')

    @property
    def finished(self) -> bool:
        """The Job is Complete or Failed, or gone."""
        job = self.job
        return job is None or is_job_finished(job)

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
        with fewer_gc_passes():
            while True:
                nxt = self.heap.peek_time()
                if nxt is None or nxt > max_time:
                    break
                if not settle and self.finished:
                    break
                if budget is not None:
                    limit = budget.reached(self, nxt)
                    if limit is not None:
                        if not self.finished:
                            self.limit_reached = self.limit_hit(budget, limit)
                        break
                self.step()
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

    def _update_spec(self, **changes: Any) -> Job:
        job = self.job
        if job is None:
            raise SimulationError("the Job has been deleted")
        new = replace(job, spec=replace(job.spec, **changes), metadata=replace(job.metadata, resource_version=""))
        try:
            return self.store.update(new)
        except APIError as exc:
            if exc.field_errors:
                raise InvalidError("Job", job.metadata.name, exc.field_errors) from None
            raise SimulationError(str(exc)) from None

    def suspend(self) -> None:
        """Set spec.suspend = true."""
        self._update_spec(suspend=True)
        self._record("suspend")

    def resume(self) -> None:
        """Set spec.suspend = false."""
        self._update_spec(suspend=False)
        self._record("resume")

    def scale(self, parallelism: int | None = None, completions: int | None = None) -> None:
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
        self._update_spec(**changes)
        self._record("scale", parallelism=parallelism, completions=completions)

    def edit(self, manifest: Job | str | bytes | dict) -> None:
        """Apply an edited manifest to the running Job (as ``kubectl apply``): only the spec changes."""
        new = load_job(manifest, "<edit>")
        job = self.job
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
        self._update_spec(**{f.name: getattr(spec, f.name) for f in dataclasses.fields(spec)})
        self._record("edit", manifest=yamlio_dump(new))

    def delete_job(self, propagation: str = "Background") -> None:
        """``kubectl delete job`` (Background: the garbage collector then deletes the pods)."""
        if propagation not in ("Background", "Foreground", "Orphan"):
            raise SimulationError(f'propagation: Unsupported value: "{propagation}": supported values: '
                                  '"Background", "Foreground", "Orphan"')
        ns, _, name = self.job_key.partition("/")
        try:
            self.store.delete("Job", ns, name, propagation=propagation)
        except APIError as exc:
            raise SimulationError(str(exc)) from None
        self._record("delete_job", propagation=propagation)

    # ------------------------------------------------------------------ replay

    def replay_action(self, act: Action) -> None:
        """Re-apply a recorded action exactly where it happened: same heap position, same clock."""
        self.run_events(act.position - self.events_run)
        # run_until() may have moved the clock past the last event before the action was taken.
        if act.t > self.clock.now():
            self.clock.set(act.t)
        self.apply(act.name, **dict(act.kwargs))

    @classmethod
    def replay(cls, manifest: Job | str | bytes | dict, config: SimConfig, actions: list[Action],
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
                     "edit", "delete_job"})
"""Methods of :class:`Simulation` that change a run (and are recorded for replay)."""

__all__ = ["ACTIONS", "Action", "Budget", "DEFAULT_MAX_CYCLES", "DEFAULT_MAX_EVENTS", "DEFAULT_MAX_PODS",
           "DEFAULT_MAX_POD_CYCLES", "DEFAULT_MAX_TIME", "LIMIT_OPTIONS", "LimitReached", "DecodeError", "InvalidError", "SimConfig", "Simulation", "SimulationError",
           "check_workload", "load_job", "validate"]
