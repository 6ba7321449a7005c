"""Simulated nodes: a scheduler, a kubelet per node and pod garbage collection.

The cluster reacts to the API server (it watches the store directly, without lag, as the
real scheduler and kubelets have their own watches) and writes pod status back:

* **scheduler**: binds each new pod to the ready node with the most free pod slots
  (ties by name); with no room the pod stays Pending with PodScheduled=False
  (Unschedulable) until a slot frees;
* **kubelet**: after the start latency the pod is Running and Ready; each run lasts its
  planned duration and exits with its planned code (:mod:`.workload`); restartPolicy
  OnFailure restarts a failed container in place, at once the first time, then after the
  CrashLoopBackOff wait (10 s, 20 s, ... at most 5 minutes); a
  deleted pod stops after its termination delay, ends in phase Failed and is removed
  with grace 0 (the Job's finalizer may keep it a while longer); native sidecars
  (init containers with ``restartPolicy: Always``) run beside the regular containers and
  are stopped once the last regular container has exited, so they never keep a pod
  Running; a regular container named in ``sim.k8sjobs.io/keeps-running`` never exits
  on its own and does keep the pod Running; a pod's own ``spec.activeDeadlineSeconds``
  (counted from ``status.startTime``, set when the pod is bound) makes the kubelet kill
  it: phase Failed, reason DeadlineExceeded;
* **pod GC**: runs every 20 s (``gcCheckPeriod``). A pass that finds pods bound to a node
  that no longer exists quarantines the node for ``node_lost_delay`` (``quarantineTime``,
  40 s); the first pass after that marks those pods Failed with DisruptionTarget
  (DeletionByPodGC) and force-deletes them, so they go 40 to 60 s after the node. Unscheduled
  pods that are being deleted are failed and removed at the next pass.

Terminal pods free their node slot, as the scheduler ignores Succeeded/Failed pods.
"""

from __future__ import annotations

import copy
import heapq
import math
import random
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any

from ..api.apierrors import APIError
from ..api.store import ADDED, DELETED, APIStore, WatchEvent
from ..api.types import (
    JOB_COMPLETION_INDEX_ANNOTATION,
    ConditionStatus,
    Node,
    NodeCondition,
    NodeStatus,
    ObjectMeta,
    Phase,
    Pod,
    evolve,
)
from ..clock import EventHeap, copy_callback
from ..hooks import Emit, null_emit
from ..ids import clone_random
from . import kubelet as kl
from .workload import (
    KNOWN_KEYS,
    KWOK_DELAY,
    KWOK_JITTER,
    PREFIX,
    CrashLoopEntry,
    Span,
    Workload,
    crash_loop_backoff,
    parse_workload,
)

PRIORITY_CLUSTER = 0
"""Heap priority of kubelet/scheduler actions: before informer deliveries at the same time."""
POD_GC_PERIOD = 20.0
_SIM_KEYS = frozenset([*(PREFIX + k for k in KNOWN_KEYS), KWOK_DELAY, KWOK_JITTER])
DEFAULT_PODS_PER_NODE = 110
DEFAULT_GRACE_PERIOD = 30
"""terminationGracePeriodSeconds when a pod spec has none (API defaulting sets it on every Job's pods)."""


@dataclass
class _PodRun:
    """The kubelet's private state for one pod."""

    token: int
    workload: Workload
    rng: random.Random
    plan_runs: list[tuple[float, int]]
    termination_delay: float
    evict_after: float | None
    start_latency: float
    index: int | None = None
    run_no: int = 0
    started: bool = False
    stopping: bool = False
    sidecar_termination_delay: float = 0.0
    sidecars_stopping: bool = False
    running: bool = False
    """The pod's containers run now (False before the start and between a crash and its restart)."""
    crash_loop: CrashLoopEntry | None = None
    """The kubelet's restart back-off record (restartPolicy OnFailure)."""
    failing_runs: int = 0
    span: Span | None = None
    attempt: int = 0
    rng_shared: bool = False
    """The generator is shared with a snapshot: clone it before drawing (copy on write)."""

    def current(self) -> tuple[float, int]:
        """``(duration, exit code)`` of the run in progress, drawn when first needed (Workload.draw_run)."""
        runs = self.plan_runs
        while len(runs) <= self.run_no:
            if self.rng_shared:
                self.rng, self.rng_shared = clone_random(self.rng), False
            runs.append(self.workload.draw_run(self.rng, len(runs), self.failing_runs, self.span, self.index,
                                               self.attempt, runs))
        return runs[self.run_no]

    def __deepcopy__(self, memo: dict[int, Any]) -> _PodRun:
        # Most pods never draw again: the copy shares the generator until one of the two draws.
        self.rng_shared = True
        new = _PodRun.__new__(_PodRun)
        new.__dict__.update(self.__dict__)
        new.plan_runs = list(self.plan_runs)
        memo[id(self)] = new
        return new


class Cluster:
    """Nodes, scheduler, kubelets and pod GC on the simulation's event heap."""

    def __init__(self, store: APIStore, heap: EventHeap, *, nodes: int = 3,
                 pods_per_node: int = DEFAULT_PODS_PER_NODE, seed: int = 0, scheduling_latency: float = 0.0,
                 node_lost_delay: float = 40.0, emit: Emit = null_emit,
                 node_names: list[str] | None = None, stopped_until: Callable[[], float] | None = None) -> None:
        self.store = store
        self.stopped_until = stopped_until
        """When kube-controller-manager, and with it pod GC, is stopped until (None: never stopped)."""
        self.heap = heap
        self.seed = seed
        self.pods_per_node = pods_per_node
        self.scheduling_latency = scheduling_latency
        self.node_lost_delay = node_lost_delay
        self.emit = emit
        self._runs: dict[str, _PodRun] = {}
        self._tokens = 0
        self._on_node: dict[str, dict[tuple[str, str], None]] = {}
        """node -> (namespace, name) of its non-terminal pods (what occupies a slot)."""
        self._pending: dict[tuple[str, str], None] = {}
        """Unscheduled pods waiting for a slot, in arrival order."""
        self._attempts: dict[tuple[str, int | None], int] = {}
        self._ordinals: dict[str, int] = {}
        self._workloads: dict[frozenset, tuple[Workload, list]] = {}
        self._gc_scheduled_at: float | None = None
        self._quarantine: dict[str, float] = {}
        """Pod GC: missing node -> when its quarantine is over (upstream's delaying nodeQueue)."""
        self._capacity: dict[str, int] = {}
        self.lost_nodes: set[str] = set()
        self._ready: tuple[frozenset[str], list[str]] | None = None
        """(lost nodes, ready nodes by name) as last computed."""
        self._by_free: list[tuple[int, str]] = []
        """(-free slots, node) entries: a node's newest entry is current, older ones are skipped
        when they come up. The scheduler's pick is the top, so it costs log(nodes), not nodes."""
        for name in node_names if node_names is not None else [f"node-{i}" for i in range(1, nodes + 1)]:
            self.add_node(name)
        store.watch("Pod", self._on_pod)

    def __deepcopy__(self, memo: dict[int, Any]) -> Cluster:
        # Maps of immutable pods and names are copied one level deep; per-pod kubelet state is copied.
        new = Cluster.__new__(Cluster)
        memo[id(self)] = new
        for name, value in self.__dict__.items():
            if name == "_runs":
                new._runs = {uid: run.__deepcopy__(memo) for uid, run in value.items()}
            elif name == "_on_node":
                new._on_node = {node: dict(pods) for node, pods in value.items()}
            elif name in ("_pending", "_attempts", "_ordinals", "_capacity", "_workloads", "_quarantine"):
                setattr(new, name, dict(value))
            elif name in ("lost_nodes", "_by_free"):
                setattr(new, name, type(value)(value))
            elif name == "emit":
                new.emit = copy_callback(value, memo)
            else:
                setattr(new, name, copy.deepcopy(value, memo))
        return new

    # ------------------------------------------------------------------ nodes

    def add_node(self, name: str, pods: int | None = None) -> Node:
        """Register a Ready node with room for ``pods`` pods."""
        cap = str(pods if pods is not None else self.pods_per_node)
        node = Node(metadata=ObjectMeta(name=name),
                    status=NodeStatus(capacity={"pods": cap}, allocatable={"pods": cap},
                                      conditions=(NodeCondition(type="Ready", status=ConditionStatus.TRUE,
                                                                reason="KubeletReady"),)))
        created = self.store.create(node)
        self._capacity[name] = int(cap)
        self._on_node.setdefault(name, {})
        self.lost_nodes.discard(name)
        self._ready = None
        self._slots_changed(name)
        self._schedule_pending_soon()
        return created

    def capacity(self, node: str) -> int:
        """Pod slots of ``node`` (its allocatable pods)."""
        return self._capacity.get(node, 0)

    def ready_nodes(self) -> list[str]:
        """Nodes that can take pods, by name."""
        return list(self._ready_nodes())

    def _ready_nodes(self) -> list[str]:
        # Nodes are only added by add_node (which resets the cache); losing one changes lost_nodes.
        if self._ready is None or self._ready[0] != self.lost_nodes:
            self._ready = (frozenset(self.lost_nodes), sorted(n for n in self._on_node if n not in self.lost_nodes))
        return self._ready[1]

    def used(self, node: str) -> int:
        """Non-terminal pods on ``node``."""
        return len(self._on_node.get(node, ()))

    def lose_node(self, name: str) -> None:
        """The node disappears: its kubelet stops; pod GC notices, waits the quarantine, then fails its pods."""
        if name not in self._on_node or name in self.lost_nodes:
            raise ValueError(f"node {name!r} is not a ready node; ready nodes: {', '.join(self.ready_nodes())}")
        self.lost_nodes.add(name)
        if self.store.try_get("Node", "", name) is not None:
            self.store.delete("Node", "", name)
        victims = sorted(n for _, n in self._on_node.get(name, ()))
        self.emit("cluster.node_lost", node=name, pods=victims, delay=self.node_lost_delay, period=POD_GC_PERIOD)
        self._schedule_gc_tick()

    def _gc_orphaned(self, t: float, pods: list[Pod]) -> None:
        """Mirrors ``gcOrphaned``: a node that pods point at but that does not exist is quarantined
        for ``node_lost_delay`` (upstream ``quarantineTime``, 40 s); a pass that finds its quarantine
        over and the node still missing fails (DisruptionTarget, DeletionByPodGC) and force-deletes
        every pod bound to it."""
        existing = {n.metadata.name for n in self.store.objects("Node")}
        for pod in pods:
            node = pod.spec.node_name
            if node and node not in existing:
                self._quarantine.setdefault(node, t + self.node_lost_delay)
        gone = sorted(n for n, ready_at in self._quarantine.items() if ready_at <= t)
        for node in gone:
            del self._quarantine[node]
        deleted = {n for n in gone if n not in existing}
        for pod in pods:
            node = pod.spec.node_name
            if node not in deleted:
                continue
            self._runs.pop(pod.metadata.uid, None)
            if pod.status.phase not in (Phase.SUCCEEDED, Phase.FAILED):
                self._write_status(kl.gc_mark_failed(pod, t, ("DeletionByPodGC", "PodGC: node no longer exists")))
            self._delete(pod, grace=0)
            self.emit("cluster.pod_gc", pod=pod.metadata.name, node=node)

    # ------------------------------------------------------------------ helpers

    def _find(self, name: str, namespace: str) -> Pod | None:
        return self.store.try_get("Pod", namespace, name)

    def _write_status(self, pod: Pod) -> Pod | None:
        cur = self.store.try_get("Pod", pod.metadata.namespace, pod.metadata.name)
        if cur is None or cur.metadata.uid != pod.metadata.uid:
            return None
        # The kubelet owns the pod's status: write it whatever the resourceVersion (a pod
        # computed from the current object already carries it, and needs no copy).
        return self.store.update_status(pod if pod.metadata is cur.metadata else evolve(cur, status=pod.status))

    def _write_spec(self, pod: Pod) -> Pod | None:
        cur = self.store.try_get("Pod", pod.metadata.namespace, pod.metadata.name)
        if cur is None or cur.metadata.uid != pod.metadata.uid:
            return None
        return self.store.bind_pod(cur.metadata.namespace, cur.metadata.name, pod.spec, pod.status)

    def _delete(self, pod: Pod, grace: int | None = None) -> None:
        try:
            self.store.delete("Pod", pod.metadata.namespace, pod.metadata.name, grace_period_seconds=grace)
        except APIError:
            pass

    def workload_of(self, pod: Pod) -> Workload:
        """The parsed sim annotations of the pod (invalid values were rejected when the Job was created)."""
        # Keyed by the sim annotations only: an Indexed Job's pods differ in their index annotation.
        key = frozenset(item for item in pod.metadata.annotations.items() if item[0] in _SIM_KEYS)
        if key not in self._workloads:
            self._workloads[key] = parse_workload(pod.metadata.annotations)
        return self._workloads[key][0]

    # ------------------------------------------------------------------ watch

    def _on_pod(self, ev: WatchEvent) -> None:
        pod = ev.obj
        key = (pod.metadata.namespace, pod.metadata.name)
        if ev.type == DELETED:
            self._release_slot(pod)
            self._pending.pop(key, None)
            self._runs.pop(pod.metadata.uid, None)
            return
        if ev.type == ADDED:
            if not pod.spec.node_name and pod.metadata.deletion_timestamp is None:
                self._pending[key] = None
                self.heap.call_later(self.scheduling_latency, partial(self._schedule, key),
                                     priority=PRIORITY_CLUSTER, label="scheduler")
            return
        if pod.status.phase in (Phase.SUCCEEDED, Phase.FAILED):
            self._release_slot(pod)
        if pod.metadata.deletion_timestamp is not None and (ev.old is None or ev.old.metadata.deletion_timestamp is None):
            self._on_deletion(pod)

    def _release_slot(self, pod: Pod) -> None:
        node = pod.spec.node_name
        key = (pod.metadata.namespace, pod.metadata.name)
        if node and key in self._on_node.get(node, ()):
            del self._on_node[node][key]
            self._slots_changed(node)
            self._schedule_pending_soon()

    def _schedule_pending_soon(self) -> None:
        if self._pending:
            self.heap.call_later(self.scheduling_latency, self._schedule_all, priority=PRIORITY_CLUSTER,
                                 label="scheduler")

    # ------------------------------------------------------------------ pods that were there first

    def adopt(self, pods: list[Pod]) -> None:
        """Take over pods that existed before the simulation started (a snapshot of a real cluster).

        As kubelets and the scheduler do after a restart: unscheduled pods queue for a
        node; pending pods on a node start after their start latency; running pods end at
        their start time plus the run time their sim annotations give (at once if that is
        past); pods being deleted stop at the end of their termination delay or grace
        period. Finished pods take no slot.
        """
        t = self.heap.now()
        for pod in sorted(pods, key=lambda p: (p.metadata.creation_timestamp or 0.0, p.metadata.uid)):
            key = (pod.metadata.namespace, pod.metadata.name)
            if pod.status.phase in (Phase.SUCCEEDED, Phase.FAILED):
                continue
            node = pod.spec.node_name
            if not node:
                if pod.metadata.deletion_timestamp is not None:
                    self._schedule_gc_tick()
                else:
                    self._pending[key] = None
                    self.heap.call_later(self.scheduling_latency, partial(self._schedule, key),
                                         priority=PRIORITY_CLUSTER, label="scheduler")
                continue
            if node not in self._on_node:
                self.add_node(node)
            self._on_node[node][key] = None
            self._slots_changed(node)
            run = self._plan(pod)
            if pod.metadata.deletion_timestamp is not None:
                grace = pod.metadata.deletion_grace_period_seconds or 0
                asked = pod.metadata.deletion_timestamp - grace
                run.stopping = True
                at = max(t, asked + min(run.termination_delay, grace))
                self.heap.call_at(at, partial(self._stop, pod, run.termination_delay > grace),
                                  priority=PRIORITY_CLUSTER, label="kubelet")
            elif pod.status.phase == Phase.RUNNING:
                run.started = True
                duration = run.current()[0]
                if math.isfinite(duration):
                    self.heap.call_at(max(t, _started_at(pod, t) + duration),
                                      partial(self._run_ended, pod, run.token),
                                      priority=PRIORITY_CLUSTER, label="kubelet")
            elif math.isfinite(run.start_latency):
                self.heap.call_later(run.start_latency, partial(self._start, pod, run.token),
                                     priority=PRIORITY_CLUSTER, label="kubelet")

    # ------------------------------------------------------------------ scheduler

    def _slots_changed(self, node: str) -> None:
        """Record ``node``'s free slots after a change (see :attr:`_by_free`)."""
        entries = self._by_free
        heapq.heappush(entries, (len(self._on_node[node]) - self._capacity.get(node, 0), node))
        if len(entries) > 4 * len(self._on_node) + 64:
            # Mostly outdated entries: start again from one entry per node.
            entries[:] = [(len(on) - self._capacity.get(n, 0), n) for n, on in self._on_node.items()]
            heapq.heapify(entries)

    def _pick_node(self) -> str | None:
        """The ready node with the most free pod slots, the first by name among equals (None if all are full)."""
        entries = self._by_free
        lost = self.lost_nodes
        while entries:
            neg_free, node = entries[0]
            if node in lost or neg_free != len(self._on_node[node]) - self._capacity.get(node, 0):
                heapq.heappop(entries)  # outdated: the node's current entry is further down
                continue
            return node if neg_free < 0 else None
        return None

    def _schedule_all(self) -> None:
        for key in list(self._pending):
            if not self._schedule(key):
                break

    def _schedule(self, key: tuple[str, str]) -> bool:
        if key not in self._pending:
            return True
        pod = self.store.try_get("Pod", *key)
        name = key[1]
        if pod is None or pod.spec.node_name or pod.metadata.deletion_timestamp is not None:
            self._pending.pop(key, None)
            return True
        node = self._pick_node()
        t = self.heap.now()
        if node is None:
            n = len(self.ready_nodes())
            msg = f"0/{n} nodes are available: {n} Too many pods."
            if not any(c.type == "PodScheduled" and c.reason == "Unschedulable" for c in pod.status.conditions):
                self._write_status(kl.unschedulable(pod, t, msg))
                self.emit("cluster.unschedulable", pod=name)
            return False
        self._pending.pop(key, None)
        bound = self._write_spec(kl.bind(pod, node, t))
        if bound is None:
            return True
        self._on_node[node][key] = None
        self._slots_changed(node)
        run = self._plan(bound)
        if math.isfinite(run.start_latency):  # "never" starts: nothing to schedule
            self.heap.call_later(run.start_latency, partial(self._start, bound, run.token),
                                 priority=PRIORITY_CLUSTER, label="kubelet")
        if bound.spec.active_deadline_seconds is not None:
            # activeDeadlineHandler: measured from status.startTime, which bind() set to now.
            self.heap.call_later(float(bound.spec.active_deadline_seconds), partial(self._pod_deadline, bound),
                                 priority=PRIORITY_CLUSTER, label="kubelet")
        return True

    # ------------------------------------------------------------------ kubelet

    def _plan(self, pod: Pod) -> _PodRun:
        wl = self.workload_of(pod)
        owner = next((r.uid for r in pod.metadata.owner_references if r.controller), "")
        ix_text = pod.metadata.annotations.get(JOB_COMPLETION_INDEX_ANNOTATION)
        index = int(ix_text) if ix_text is not None and ix_text.isdigit() else None
        attempt = self._attempts[(owner, index)] = self._attempts.get((owner, index), 0) + 1
        ordinal = self._ordinals[owner] = self._ordinals.get(owner, 0) + 1
        job_name = next((r.name for r in pod.metadata.owner_references if r.controller), pod.metadata.name)
        rng = random.Random(f"{self.seed}/{job_name}/{index}/{attempt}/{ordinal if index is None else 0}")
        plan = wl.plan(rng, index=index, attempt=attempt, ordinal=ordinal,
                       restart_policy=pod.spec.restart_policy or "Never")
        self._tokens += 1
        run = _PodRun(self._tokens, wl, rng, list(plan.runs), plan.termination_delay, plan.evict_after,
                      plan.start_latency, index, sidecar_termination_delay=plan.sidecar_termination_delay,
                      failing_runs=plan.failing_runs, span=plan.span, attempt=attempt)
        self._runs[pod.metadata.uid] = run
        return run

    def _live(self, pod: Pod, token: int) -> tuple[Pod, _PodRun] | None:
        run = self._runs.get(pod.metadata.uid)
        if run is None or run.token != token or run.stopping:
            return None
        cur = self.store.try_get("Pod", pod.metadata.namespace, pod.metadata.name)
        if cur is None or cur.metadata.uid != pod.metadata.uid or cur.spec.node_name in self.lost_nodes:
            return None
        if cur.metadata.deletion_timestamp is not None or cur.status.phase in (Phase.SUCCEEDED, Phase.FAILED):
            return None
        return cur, run

    def _start(self, pod: Pod, token: int, *, restarted: bool = False) -> None:
        live = self._live(pod, token)
        if live is None:
            return
        cur, run = live
        t = self.heap.now()
        started = self._write_status(kl.start(cur, t, restarted=restarted))
        if started is None:
            return
        run.started = run.running = True
        duration, _ = run.current()
        if math.isfinite(duration):
            self.heap.call_later(duration, partial(self._run_ended, started, token), priority=PRIORITY_CLUSTER,
                                 label="kubelet")
        if run.evict_after is not None and run.run_no == 0:
            self.heap.call_later(run.evict_after, partial(self._evict_planned, started, token),
                                 priority=PRIORITY_CLUSTER, label="eviction")

    def _run_ended(self, pod: Pod, token: int) -> None:
        live = self._live(pod, token)
        if live is None:
            return
        cur, run = live
        t = self.heap.now()
        _, code = run.current()
        on_failure = (cur.spec.restart_policy or "Never") == "OnFailure"
        if code != 0 and on_failure:
            self._restart_in_place(cur, run, code, t)
            return
        self._containers_exited(cur, run, kl.finish(cur, t, code, keep_running=run.workload.keeps_running))

    def _containers_exited(self, cur: Pod, run: _PodRun, after: Pod) -> None:
        """Write the pod after its regular containers exited; stop the sidecars if nothing else runs."""
        written = self._write_status(after)
        if after.status.phase in (Phase.SUCCEEDED, Phase.FAILED):
            self._runs.pop(cur.metadata.uid, None)
            return
        # Something still runs: a kept-running container (the pod stays Running) or sidecars.
        self._tokens += 1
        run.token = self._tokens  # what was scheduled for the exited containers no longer applies
        if written is not None and not kl.regular_containers_running(written) and kl.sidecar_names(written):
            self._stop_sidecars_later(written, run)

    def _kill_later(self, pod: Pod, delay: float, stopped: Callable[[Pod, float, int], Pod]) -> None:
        """Stop the pod's remaining containers in ``delay`` s (SIGKILL once the pod's grace period runs out).

        Then write ``stopped(pod, t, exit_code)`` unless the pod has meanwhile gone or finished.
        """
        grace = pod.spec.termination_grace_period_seconds
        grace = DEFAULT_GRACE_PERIOD if grace is None else grace
        code = kl.EXIT_SIGKILL if delay > grace else kl.EXIT_SIGTERM
        self.heap.call_later(min(delay, grace), partial(self._kill_now, pod, stopped, code),
                             priority=PRIORITY_CLUSTER, label="kubelet")

    def _kill_now(self, pod: Pod, stopped: Callable[[Pod, float, int], Pod], code: int) -> None:
        cur = self.store.try_get("Pod", pod.metadata.namespace, pod.metadata.name)
        if cur is None or cur.metadata.uid != pod.metadata.uid or cur.status.phase in (Phase.SUCCEEDED, Phase.FAILED):
            return
        self._write_status(stopped(cur, self.heap.now(), code))
        self._runs.pop(cur.metadata.uid, None)

    def _stop_sidecars_later(self, pod: Pod, run: _PodRun) -> None:
        """The last regular container exited: the kubelet stops the sidecars (killPod, the pod's grace period)."""
        run.sidecars_stopping = True
        names = kl.sidecar_names(pod)
        grace = pod.spec.termination_grace_period_seconds
        seconds = min(run.sidecar_termination_delay, DEFAULT_GRACE_PERIOD if grace is None else grace)
        self.emit("cluster.sidecars_stopping", pod=pod.metadata.name, sidecars=names, seconds=seconds)
        self._kill_later(pod, run.sidecar_termination_delay, kl.stop_sidecars)

    def _pod_deadline(self, pod: Pod) -> None:
        """The pod outlived spec.activeDeadlineSeconds: the kubelet kills its containers, then reports Failed."""
        run = self._runs.get(pod.metadata.uid)
        cur = self.store.try_get("Pod", pod.metadata.namespace, pod.metadata.name)
        if (run is None or run.stopping or cur is None or cur.metadata.uid != pod.metadata.uid
                or cur.metadata.deletion_timestamp is not None or cur.spec.node_name in self.lost_nodes
                or cur.status.phase in (Phase.SUCCEEDED, Phase.FAILED)):
            return
        run.stopping = True
        self.emit("cluster.pod_deadline", pod=cur.metadata.name, seconds=cur.spec.active_deadline_seconds)
        self._kill_later(cur, run.termination_delay, kl.fail_for_deadline)

    def _restart_in_place(self, cur: Pod, run: _PodRun, code: int, t: float) -> None:
        """restartPolicy OnFailure: the container exited ``code``; the kubelet restarts it, the pod stays Running.

        The first crash restarts at once, later ones after the CrashLoopBackOff wait
        (:func:`~.workload.crash_loop_backoff`); the restartCount grows when the restart happens.
        """
        wait, run.crash_loop = crash_loop_backoff(run.crash_loop, t)
        exited = self._write_status(kl.container_exited(cur, t, code, waiting=wait > 0,
                                                        keep_running=run.workload.keeps_running))
        if exited is None:
            return
        run.running = False
        # A new token: whatever was scheduled for the run that just ended no longer applies.
        self._tokens += 1
        run.token = token = self._tokens
        run.run_no += 1
        # Past the planned restarts each new run draws its outcome afresh (_PodRun.current).
        run.current()
        count = 1 + max((s.restart_count for s in exited.status.container_statuses), default=0)
        self.emit("cluster.container_restart", pod=cur.metadata.name, exit_code=code, restarts=count, delay=wait,
                  case="" if wait else "at_once")
        self.heap.call_later(wait, partial(self._start, exited, token, restarted=True), priority=PRIORITY_CLUSTER,
                             label="kubelet")

    def _evict_planned(self, pod: Pod, token: int) -> None:
        if self._live(pod, token) is not None:
            self.evict(pod.metadata.name, pod.metadata.namespace)

    def _on_deletion(self, pod: Pod) -> None:
        if pod.status.phase in (Phase.SUCCEEDED, Phase.FAILED):
            return
        if not pod.spec.node_name:
            self._schedule_gc_tick()
            return
        if pod.spec.node_name in self.lost_nodes:
            return
        run = self._runs.get(pod.metadata.uid)
        if run is not None and run.sidecars_stopping:
            return  # the kubelet is already stopping the pod's last containers
        delay = run.termination_delay if run is not None else 0.0
        if run is not None and kl.sidecar_names(pod):
            # Sidecars get SIGTERM only once the regular containers have stopped.
            delay = (delay if kl.regular_containers_running(pod) else 0.0) + run.sidecar_termination_delay
        grace = pod.metadata.deletion_grace_period_seconds or 0
        killed = delay > grace
        if run is not None:
            run.stopping = True
        self.heap.call_later(min(delay, grace), partial(self._stop, pod, killed), priority=PRIORITY_CLUSTER,
                             label="kubelet")

    def _stop(self, pod: Pod, killed: bool) -> None:
        cur = self.store.try_get("Pod", pod.metadata.namespace, pod.metadata.name)
        if cur is None or cur.metadata.uid != pod.metadata.uid:
            return
        t = self.heap.now()
        stopped = self._write_status(kl.stop_after_deletion(cur, t, kl.EXIT_SIGKILL if killed else kl.EXIT_SIGTERM))
        self._runs.pop(cur.metadata.uid, None)
        if stopped is not None:
            self._delete(stopped, grace=0)

    def _schedule_gc_tick(self) -> None:
        # Pod GC runs every POD_GC_PERIOD seconds (upstream gcCheckPeriod); only passes that have
        # something to do are put on the heap.
        t = self.heap.now()
        tick = (math.floor(t / POD_GC_PERIOD) + 1) * POD_GC_PERIOD
        if self._gc_scheduled_at is not None and self._gc_scheduled_at >= tick:
            return  # a pass is due by then (or at the end of a stop of kube-controller-manager)
        self._gc_scheduled_at = tick
        self.heap.call_at(tick, self._gc_pass, priority=PRIORITY_CLUSTER, label="podgc")

    def _gc_pass(self) -> None:
        """One pass of pod GC (mirrors ``gc`` in podgc/gc_controller.go: orphaned pods, then
        unscheduled terminating pods)."""
        self._gc_scheduled_at = None
        t = self.heap.now()
        until = self.stopped_until() if self.stopped_until is not None else 0.0
        if t < until:
            # Pod GC is a controller of kube-controller-manager: stopped with it, it runs again as it
            # starts (wait.Until runs gc at once, then every gcCheckPeriod).
            self._gc_scheduled_at = until
            self.heap.call_at(until, self._gc_pass, priority=PRIORITY_CLUSTER, label="podgc")
            return
        pods = sorted(self.store.objects("Pod"), key=lambda p: (p.metadata.namespace, p.metadata.name))
        self._gc_orphaned(t, pods)
        self._gc_unscheduled_terminating(t, pods)
        if self._quarantine:
            self._schedule_gc_tick()

    def _gc_unscheduled_terminating(self, t: float, pods: list[Pod]) -> None:
        """Mirrors ``gcUnscheduledTerminating``: a pod being deleted that no node ever took is failed
        and force-deleted (no kubelet would ever stop it)."""
        for pod in pods:
            if pod.spec.node_name or pod.metadata.deletion_timestamp is None:
                continue
            if pod.status.phase in (Phase.SUCCEEDED, Phase.FAILED):
                continue
            cur = self.store.try_get("Pod", pod.metadata.namespace, pod.metadata.name)
            if cur is None or cur.metadata.uid != pod.metadata.uid:
                continue
            failed = self._write_status(kl.gc_mark_failed(cur, t))
            if failed is not None:
                self._delete(failed, grace=0)

    # ------------------------------------------------------------------ actions

    def evict(self, name: str, namespace: str = "default") -> None:
        """Evict a pod through the Eviction API: DisruptionTarget=True, then a graceful delete."""
        pod = self._find(name, namespace)
        if pod is None:
            raise ValueError(f'pod "{name}" not found')
        t = self.heap.now()
        marked = self._write_status(kl.add_disruption(pod, t, "EvictionByEvictionAPI", "Eviction API: evicting"))
        self.emit("cluster.evicted", pod=name)
        self._delete(marked or pod)

    def fail_pod(self, name: str, namespace: str = "default", *, exit_code: int = 1, container: str | None = None,
                 condition: str | None = None) -> None:
        """Make a pod fail now with ``exit_code`` (and optionally a pod condition such as DisruptionTarget)."""
        pod = self._find(name, namespace)
        if pod is None:
            raise ValueError(f'pod "{name}" not found')
        if pod.status.phase in (Phase.SUCCEEDED, Phase.FAILED):
            raise ValueError(f'pod "{name}" has already finished ({pod.status.phase})')
        if container is not None and container not in kl.container_names(pod):
            raise ValueError(f'pod "{name}" has no container "{container}"; containers: '
                             + ", ".join(kl.container_names(pod)))
        t = self.heap.now()
        if (pod.spec.restart_policy or "Never") == "OnFailure" and exit_code != 0:
            # The kubelet restarts a failed container in place: the pod does not fail.
            run = self._runs.get(pod.metadata.uid)
            if run is None or not run.running:
                raise ValueError(f'pod "{name}" has no running container to fail yet (restartPolicy OnFailure '
                                 "restarts containers in place)")
            if condition:
                pod = self._write_status(kl.set_condition(pod, condition, ConditionStatus.TRUE, t, "Injected",
                                                          "condition added by a k8sjobs fault")) or pod
            self._restart_in_place(pod, run, exit_code, t)
            return
        run = self._runs.get(pod.metadata.uid)
        keep = run.workload.keeps_running if run is not None else frozenset()
        failed = kl.finish(pod, t, exit_code, container, keep_running=keep)
        if condition:
            failed = kl.set_condition(failed, condition, ConditionStatus.TRUE, t, "Injected",
                                      "condition added by a k8sjobs fault")
        if run is None or failed.status.phase in (Phase.SUCCEEDED, Phase.FAILED):
            self._runs.pop(pod.metadata.uid, None)
            self._write_status(failed)
        else:
            self._containers_exited(pod, run, failed)

    def stretch_pod(self, name: str, namespace: str = "default", *, seconds: float) -> None:
        """Make a running pod's containers run ``seconds`` more from now, then exit as planned (a Job that
        runs long); what was planned for it before (its exit, a planned eviction) no longer happens."""
        pod = self._find(name, namespace)
        if pod is None:
            raise ValueError(f'pod "{name}" not found')
        run = self._runs.get(pod.metadata.uid)
        if run is None or not run.running or run.stopping or pod.status.phase in (Phase.SUCCEEDED, Phase.FAILED):
            raise ValueError(f'pod "{name}" is not running (phase {pod.status.phase or "Pending"}): only a running '
                             "pod can run longer")
        self._tokens += 1
        run.token = self._tokens
        self.heap.call_later(seconds, partial(self._run_ended, pod, run.token), priority=PRIORITY_CLUSTER,
                             label="kubelet")

    def on_node(self) -> dict[str, list[str]]:
        """node -> its non-terminal pods (sorted), for views."""
        return {n: sorted(name for _, name in p) for n, p in sorted(self._on_node.items())}

    def workload_errors(self, annotations: dict[str, str]) -> list:
        """Field errors of the sim annotations (used when a Job is created)."""
        return parse_workload(annotations)[1]


def _started_at(pod: Pod, default: float) -> float:
    """When a running pod's containers started (the latest start), else its start time."""
    starts = [s.state.running.started_at for s in pod.status.container_statuses
              if s.state.running is not None and s.state.running.started_at is not None]
    if starts:
        return max(starts)
    return pod.status.start_time if pod.status.start_time is not None else default
