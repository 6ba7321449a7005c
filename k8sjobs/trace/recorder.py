"""Recording a simulation into a :class:`Trace`: cycles, changes, events and notes.

The :class:`Recorder` listens to the simulation's decision hook and to every API write;
it never calls into the controller. :class:`Trace` then answers questions about the run:
the world at any cycle (from checkpoints plus changes), each pod's life, the events.
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass, field, replace
from typing import Any

from ..api.store import DELETED, WatchEvent
from ..api.types import Job, Phase, Pod
from ..controller.job.util.utils import is_job_finished
from ..i18n import _
from ..sim import Action, LimitReached, SimConfig, Simulation
from .records import (
    CHECKPOINT_EVERY,
    Change,
    Cycle,
    Decision,
    EventRecord,
    Note,
    PodHistory,
    StatusSummary,
    pod_index,
)

_NOT_DECISIONS = {"sync.begin", "sync.end", "cronjob.sync.begin", "cronjob.sync.end"}
CRONJOB_PREFIX = "cronjob/"
"""A CronJob's trace is keyed ``cronjob/namespace/name`` in a run's traces (a Job may share its name)."""
_NOT_FIELDS = ("t", "job")


@dataclass(frozen=True, slots=True)
class WorldState:
    """The cluster as the API server had it right after a cycle."""

    t: float
    cycle: int
    job: Job | None
    pods: tuple[Pod, ...]
    nodes: tuple[Any, ...]

    def pods_by_phase(self) -> dict[str, int]:
        """How many pods are in each phase (terminating pods counted apart)."""
        out: dict[str, int] = {}
        for p in self.pods:
            key = "Terminating" if p.metadata.deletion_timestamp is not None and p.status.phase not in (
                Phase.SUCCEEDED, Phase.FAILED) else (p.status.phase or Phase.PENDING)
            out[key] = out.get(key, 0) + 1
        return out


@dataclass
class Trace:
    """Everything a run did. Built by :class:`Recorder`; read by views and widgets."""

    job_name: str
    job_key: str
    job_uid: str
    seed: int
    config: SimConfig
    manifest: Job
    actions: list[Action] = field(default_factory=list)
    cycles: list[Cycle] = field(default_factory=list)
    changes: list[Change] = field(default_factory=list)
    events: list[EventRecord] = field(default_factory=list)
    notes: list[Note] = field(default_factory=list)
    end_t: float = 0.0
    finished: bool = False
    final_job: Job | None = None
    truncated: bool = False
    """The run stopped at one of its limits before the Job finished (:attr:`limit` says which)."""
    limit: LimitReached | None = None
    """The limit that stopped the run before the Job finished (None if none did)."""
    start_t: float = 0.0
    """When the run starts: 0 (the Job's creation), or a snapshot's instant."""
    snapshot_at: str | None = None
    """For a run from a real cluster's snapshot: the snapshot's time as the cluster printed it (RFC 3339)."""
    origin: float = 0.0
    """Where the run's time 0 is, in seconds since :data:`k8sjobs.api.serialize.EPOCH`: for a run from a
    manifest its ``start`` setting (0 by default), the Job's ``creationTimestamp`` for a run from a snapshot. Printed dates add it, so a forecast
    of a real Job shows the cluster's dates, never the epoch."""
    initial_changes: int = 0
    """How many changes record the world as the run found it (the Job, nodes, a snapshot's pods)."""
    _checkpoints: dict[int, dict[tuple[str, str, str], Any]] = field(default_factory=dict, repr=False)
    _histories: dict[str, PodHistory] | None = field(default=None, repr=False)
    _histories_at: int = field(default=-1, repr=False)
    cluster: ClusterTrace | None = field(default=None, repr=False, compare=False)
    """The run's whole record (every object's trace, the order of all syncs); None for a trace read alone."""
    kind: str = "Job"
    """The object this trace follows: a Job, or a CronJob (whose cycles are its controller's syncs:
    ``created``/``deleted`` name Jobs, ``after.active`` counts its active Jobs)."""

    def __len__(self) -> int:
        return len(self.cycles)

    def cycle(self, index: int) -> Cycle:
        """Cycle ``index`` (1-based); raises IndexError naming the valid range."""
        if not 1 <= index <= len(self.cycles):
            raise IndexError(_("cycle {index} does not exist: this run has cycles 1 to {n}").format(
                index=index, n=len(self.cycles)))
        return self.cycles[index - 1]

    # ------------------------------------------------------------------ the world at a cycle

    def _objects_until(self, end: int) -> dict[tuple[str, str, str], Any]:
        """Objects after the first ``end`` changes (from the nearest checkpoint)."""
        base_at = max((k for k in self._checkpoints if k <= end), default=0)
        objs = dict(self._checkpoints.get(base_at, {}))
        for ch in self.changes[base_at:end]:
            key = (ch.kind, ch.obj.metadata.namespace, ch.name)
            if ch.type == DELETED:
                objs.pop(key, None)
            else:
                objs[key] = ch.obj
        return objs

    def state_at(self, index: int) -> WorldState:
        """The world right after cycle ``index`` (0 = before the first cycle)."""
        if index == 0:
            end, t = (self.cycles[0].change_start if self.cycles else len(self.changes)), self.start_t
        else:
            c = self.cycle(index)
            end, t = c.change_end, c.t
        objs = self._objects_until(end)
        kind = self.kind
        job = next((o for (k, _, _), o in objs.items() if k == kind and o.metadata.uid == self.job_uid), None)
        pods = sorted((o for (k, _, _), o in objs.items() if k == "Pod"
                       and any(r.uid == self.job_uid for r in o.metadata.owner_references)),
                      key=lambda p: (p.metadata.creation_timestamp or 0.0, p.metadata.uid))
        nodes = tuple(sorted((o for (k, _, _), o in objs.items() if k == "Node"), key=lambda n: n.metadata.name))
        return WorldState(t, index, job, tuple(pods), nodes)

    def cycle_at_time(self, t: float) -> int:
        """The last cycle that ran at or before ``t`` (0 if none)."""
        times = [c.t for c in self.cycles]
        return bisect_right(times, t)

    # ------------------------------------------------------------------ pods

    def pod_histories(self) -> list[PodHistory]:
        """Every pod of the Job with its life events, in creation order."""
        # The changes are shared by every Job's trace of a run: the cache holds while they do not grow.
        if self._histories is None or self._histories_at != len(self.changes):
            self._histories = _build_histories(self)
            self._histories_at = len(self.changes)
        return list(self._histories.values())

    def events_until(self, index: int) -> list[EventRecord]:
        """Events recorded up to and including cycle ``index`` (events outside cycles by time)."""
        if index <= 0:
            return []
        t = self.cycle(index).t
        return [e for e in self.events if (e.cycle and e.cycle <= index) or (not e.cycle and e.t <= t)]


def _build_histories(trace: Trace) -> dict[str, PodHistory]:
    # One mutable record per pod while reading the changes, frozen once at the end: a
    # 10,000-pod trace has some 50,000 pod changes.
    rows: dict[str, dict[str, Any]] = {}
    cycle_ends = [c.change_end for c in trace.cycles]
    job_uid = trace.job_uid
    # In a run of many Jobs (a CronJob's), only the changes of pods this Job ever owned: the same
    # histories, without reading every other Job's pods once per Job.
    changes = trace.cluster.pod_changes_of(job_uid, trace.changes) if trace.cluster is not None else trace.changes
    for ch in changes:
        if ch.kind != "Pod":
            continue
        pod: Pod = ch.obj
        meta = pod.metadata
        h = rows.get(meta.uid)
        # A pod of the Job stays followed after it is orphaned (its ownerReference removed).
        if h is None and not any(r.uid == job_uid for r in meta.owner_references):
            continue
        if h is None and ch.seq < trace.initial_changes:
            # A snapshot's pod: its life so far is in its own timestamps, not in changes.
            rows[meta.uid] = _history_from_object(pod, ch.t)
            continue
        if h is None:
            h = rows[meta.uid] = {
                "name": meta.name, "uid": meta.uid, "index": pod_index(pod),
                "created": meta.creation_timestamp if meta.creation_timestamp is not None else ch.t,
                "created_in_cycle": bisect_right(cycle_ends, ch.seq) + 1, "scheduled": None, "node": "",
                "started": None, "ready": None, "finished": None, "phase": Phase.PENDING, "exit_code": None,
                "deleting": None, "removed": None, "restarts": 0, "disruption": "", "seqs": {}}
        seqs = h["seqs"]
        if ch.type == DELETED:
            h["removed"] = ch.t
            seqs["removed"] = ch.seq
            continue
        status = pod.status
        phase = status.phase
        if h["scheduled"] is None and pod.spec.node_name:
            h["scheduled"], h["node"] = ch.t, pod.spec.node_name
            seqs["scheduled"] = seqs["node"] = ch.seq
        if h["started"] is None and phase == Phase.RUNNING:
            h["started"] = ch.t
            seqs["started"] = ch.seq
        if h["ready"] is None and any(c.type == "Ready" and c.status == "True" for c in status.conditions):
            h["ready"] = ch.t
            seqs["ready"] = ch.seq
        if h["finished"] is None and (phase == Phase.SUCCEEDED or phase == Phase.FAILED):
            codes = [s.state.terminated.exit_code for s in status.container_statuses if s.state.terminated is not None]
            nonzero = [c for c in codes if c != 0]
            h["finished"], h["phase"] = ch.t, phase
            h["exit_code"] = nonzero[0] if nonzero else (codes[0] if codes else None)
            seqs["finished"] = ch.seq
        if h["deleting"] is None and meta.deletion_timestamp is not None:
            h["deleting"] = ch.t
            seqs["deleting"] = ch.seq
        if status.container_statuses:
            h["restarts"] = max(s.restart_count for s in status.container_statuses)
        if not h["disruption"]:
            for c in status.conditions:
                if c.type == "DisruptionTarget" and c.status == "True":
                    h["disruption"] = c.reason or "DisruptionTarget"
                    seqs["disruption"] = ch.seq
                    break
    return {uid: PodHistory(**row) for uid, row in rows.items()}


def _history_from_object(pod: Pod, t: float) -> dict[str, Any]:
    """A pod's history as its own timestamps tell it (a pod that existed before the run)."""
    meta, status = pod.metadata, pod.status
    phase = status.phase or Phase.PENDING
    conds = {c.type: c for c in status.conditions}

    def since(ctype: str) -> float | None:
        c = conds.get(ctype)
        return (c.last_transition_time if c.last_transition_time is not None else t) if c and c.status == "True" \
            else None

    starts = [s.state.running.started_at for s in status.container_statuses if s.state.running is not None]
    starts += [s.state.terminated.started_at for s in status.container_statuses if s.state.terminated is not None]
    starts = [x for x in starts if x is not None]
    ends = [s.state.terminated.finished_at for s in status.container_statuses if s.state.terminated is not None]
    ends = [x for x in ends if x is not None]
    terminal = phase in (Phase.SUCCEEDED, Phase.FAILED)
    codes = [s.state.terminated.exit_code for s in status.container_statuses if s.state.terminated is not None]
    nonzero = [c for c in codes if c != 0]
    scheduled = since("PodScheduled") if pod.spec.node_name else None
    started = min(starts) if starts else (status.start_time if phase != Phase.PENDING else None)
    disruption = next((c.reason or "DisruptionTarget" for c in status.conditions
                       if c.type == "DisruptionTarget" and c.status == "True"), "")
    return {
        "name": meta.name, "uid": meta.uid, "index": pod_index(pod),
        "created": meta.creation_timestamp if meta.creation_timestamp is not None else t, "created_in_cycle": 0,
        "scheduled": scheduled if scheduled is not None else (t if pod.spec.node_name else None),
        "node": pod.spec.node_name, "started": started, "ready": since("Ready"),
        "finished": (max(ends) if ends else t) if terminal else None, "phase": phase if terminal else Phase.PENDING,
        "exit_code": (nonzero[0] if nonzero else (codes[0] if codes else None)) if terminal else None,
        "deleting": (meta.deletion_timestamp - (meta.deletion_grace_period_seconds or 0)
                     if meta.deletion_timestamp is not None else None),
        "removed": None, "restarts": max((s.restart_count for s in status.container_statuses), default=0),
        "disruption": disruption, "seqs": {}}


@dataclass
class ClusterTrace:
    """The record of a whole run: one :class:`Trace` per Job, in creation order, and the order of every sync.

    The Job traces share the run's API changes (and their checkpoints); each has its own cycles
    (numbered from 1 for that Job), events and notes. ``syncs`` lists every reconcile of any
    object as ``(key, cycle index in that object's trace)`` in the order they ran.
    """

    traces: dict[str, Trace]
    syncs: list[tuple[str, int]] = field(default_factory=list)
    _pod_changes: dict[str, list[Change]] = field(default_factory=dict, repr=False)
    _owned: dict[str, dict[str, None]] = field(default_factory=dict, repr=False)
    _indexed: int = field(default=0, repr=False)
    _indexed_of: list[Change] | None = field(default=None, repr=False)

    def pod_changes_of(self, owner_uid: str, changes: list[Change]) -> list[Change]:
        """The changes of every pod that named ``owner_uid`` among its owners at some change, in order.

        The index is built once over the run's ``changes`` and extended as they grow.
        """
        if self._indexed_of is not changes:
            self._pod_changes, self._owned, self._indexed, self._indexed_of = {}, {}, 0, changes
        by_pod, owned = self._pod_changes, self._owned
        for ch in changes[self._indexed:]:
            if ch.kind != "Pod":
                continue
            uid = ch.obj.metadata.uid
            mine = by_pod.get(uid)
            if mine is None:
                mine = by_pod[uid] = []
            mine.append(ch)
            for r in ch.obj.metadata.owner_references:
                owned.setdefault(r.uid, {})[uid] = None
        self._indexed = len(changes)
        pods = owned.get(owner_uid, {})
        if len(pods) == 1:
            return by_pod[next(iter(pods))]
        return sorted((ch for uid in pods for ch in by_pod[uid]), key=lambda ch: ch.seq)

    @property
    def first(self) -> Trace:
        """The first object's trace: the first Job's (a run of one Job has only this one), or a CronJob's."""
        return next(iter(self.traces.values()))

    def jobs(self) -> list[Trace]:
        """Every Job's trace, in creation order."""
        return [t for t in self.traces.values() if t.kind == "Job"]

    def cronjobs(self) -> list[Trace]:
        """Every CronJob's trace, in creation order."""
        return [t for t in self.traces.values() if t.kind == "CronJob"]

    def trace_of(self, name: str | None = None) -> Trace:
        """The trace of the Job called ``name`` (or ``namespace/name``; None: the first).

        Raises KeyError naming the Jobs of the run when there is none.
        """
        if name is None:
            return self.first
        for key, tr in self.traces.items():
            if name in (key, tr.job_name):
                return tr
        names = ", ".join(tr.job_name for tr in self.traces.values())
        raise KeyError(_("no Job {name} in this run; its Jobs: {names}").format(name=name, names=names))


@dataclass(frozen=True, slots=True)
class RecorderState:
    """Where a recorder was between two heap events: the lengths of its lists, the Event counts and the
    pods' owners it had seen (all it needs to go on from there with a resumed simulation)."""

    changes: int
    syncs: int
    per_trace: tuple[tuple[str, int, int, int], ...]
    """(key, cycles, events, notes) of every object's trace, in creation order."""
    event_counts: dict[str, int]
    owners: dict[str, str]


class Recorder:
    """Builds a :class:`Trace` per Job (and their :class:`ClusterTrace`) while a simulation runs."""

    def __init__(self, sim: Simulation) -> None:
        self.sim = sim
        self.changes: list[Change] = []
        self.checkpoints: dict[int, dict[tuple[str, str, str], Any]] = {}
        self.traces: dict[str, Trace] = {}
        self.cluster = ClusterTrace(self.traces)
        self._open: dict[str, Any] | None = None
        self._event_counts: dict[str, int] = {}
        self._owner: dict[str, str] = {}
        """pod name -> the key of the Job that owns it (to file the cluster's notes about a pod)."""
        self._by_uid: dict[str, str] = {}
        self._cycle_count = 0
        # What happened before the recorder was attached (the Jobs' creation) is change 0...
        for obj in sorted(sim.store.objects("Node"), key=lambda n: n.metadata.name):
            self._change(WatchEvent("ADDED", "Node", obj))
        # A run from a CronJob's snapshot is about the CronJob: its trace comes first, then its Jobs'.
        cron_first = type(sim.snapshot).__name__ == "CronJobSnapshot"
        if cron_first:
            self._add_cronjobs(sim)
        for key in sim.job_uids:
            ns, _, name = key.partition("/")
            job = sim.store.try_get("Job", ns, name)
            self._new_trace(key, job)
            if job is not None:
                self._change(WatchEvent("ADDED", "Job", job))
        if not cron_first:
            self._add_cronjobs(sim)
        # A snapshot's pods were there before the run: they are part of its starting world.
        for key in sim.job_uids:
            for pod in sim.pods(key):
                self._change(WatchEvent("ADDED", "Pod", pod))
        start_t = sim.clock.now()
        snapshot_at = sim.snapshot.real_time(sim.snapshot.now) if sim.snapshot is not None else None
        origin = sim.origin
        for tr in self.traces.values():
            tr.start_t, tr.snapshot_at, tr.initial_changes = start_t, snapshot_at, len(self.changes)
            tr.origin = origin
        sim.add_listener(self._on_emit)
        sim.add_watcher(self._change)

    def _add_cronjobs(self, sim: Simulation) -> None:
        for cj in sim.store.objects("CronJob"):
            self._new_cronjob_trace(cj)
            self._change(WatchEvent("ADDED", "CronJob", cj))

    @property
    def trace(self) -> Trace:
        """The first Job's trace."""
        return self.cluster.first

    def _new_trace(self, key: str, job: Job | None, like: Trace | None = None) -> Trace:
        sim = self.sim
        uid = job.metadata.uid if job is not None else sim.job_uids.get(key, "")
        manifest = next((m for m in sim.manifests if (m.metadata.namespace or "default") + "/" + m.metadata.name
                         == key), None) or job or sim.manifest
        return self._attach(key, Trace(job_name=key.partition("/")[2], job_key=key, job_uid=uid,
                                       seed=sim.config.seed, config=sim.config, manifest=manifest), like)

    def _new_cronjob_trace(self, cj: Any) -> Trace:
        sim = self.sim
        from ..sim import job_of_template

        key = f"{cj.metadata.namespace}/{cj.metadata.name}"
        return self._attach(CRONJOB_PREFIX + key, Trace(job_name=cj.metadata.name, job_key=key,
                                                        job_uid=cj.metadata.uid, seed=sim.config.seed,
                                                        config=sim.config, manifest=job_of_template(cj),
                                                        kind="CronJob"))

    def _attach(self, key: str, tr: Trace, like: Trace | None = None) -> Trace:
        """Make ``tr`` one of the run's traces under ``key``: it shares the run's changes and checkpoints,
        and starts as ``like`` did (when given: the run's start, snapshot and origin)."""
        tr.changes, tr._checkpoints, tr.cluster = self.changes, self.checkpoints, self.cluster
        if like is not None:
            tr.start_t, tr.snapshot_at, tr.initial_changes = like.start_t, like.snapshot_at, like.initial_changes
            tr.origin = like.origin
        self.traces[key] = tr
        self._by_uid[tr.job_uid] = key
        return tr

    def state(self) -> RecorderState:
        """What :meth:`resume` needs to go on from here (take it between heap events)."""
        if self._open is not None:
            raise RuntimeError("a reconcile cycle is being recorded: save the state between heap events")
        return RecorderState(len(self.changes), len(self.cluster.syncs),
                             tuple((k, len(t.cycles), len(t.events), len(t.notes)) for k, t in self.traces.items()),
                             dict(self._event_counts), dict(self._owner))

    @classmethod
    def resume(cls, sim: Simulation, past: Trace, state: RecorderState) -> Recorder:
        """A recorder for ``sim``, a simulation resumed from a saved state, whose traces start as
        ``past``'s run did up to ``state`` (``past`` is any trace of a run with the same history up to there)."""
        rec = cls.__new__(cls)
        rec.sim = sim
        rec.changes = past.changes[:state.changes]
        rec.checkpoints = {end: objs for end, objs in past._checkpoints.items() if end <= state.changes}
        rec.traces = {}
        old = past.cluster.traces
        rec.cluster = ClusterTrace(rec.traces, list(past.cluster.syncs[:state.syncs]))
        rec._open = None
        rec._event_counts = dict(state.event_counts)
        rec._owner, rec._by_uid = dict(state.owners), {}
        for key, cycles, events, notes in state.per_trace:
            was = old[key]
            tr = rec._attach(key, Trace(job_name=was.job_name, job_key=was.job_key, job_uid=was.job_uid,
                                        seed=was.seed, config=was.config, manifest=was.manifest, kind=was.kind), was)
            tr.cycles, tr.events, tr.notes = was.cycles[:cycles], was.events[:events], was.notes[:notes]
        rec._cycle_count = len(rec.cluster.syncs)
        sim.add_listener(rec._on_emit)
        sim.add_watcher(rec._change)
        return rec

    # ------------------------------------------------------------------ inputs

    def _note_owner(self, pod: Pod) -> None:
        for r in pod.metadata.owner_references:
            key = self._by_uid.get(r.uid)
            if key is not None:
                self._owner[pod.metadata.name] = key
                return

    def _change(self, ev: WatchEvent) -> None:
        if ev.kind == "Event":
            self._on_k8s_event(ev)
            return
        if ev.kind == "Pod" and ev.type == "ADDED":
            self._note_owner(ev.obj)
        elif ev.kind == "Job" and ev.type == "ADDED" and (self.traces or self.sim.cronjob_manifests):
            key = f"{ev.obj.metadata.namespace}/{ev.obj.metadata.name}"
            if key not in self.traces or self.traces[key].job_uid != ev.obj.metadata.uid:
                # A Job created during the run (by a CronJob, or re-created): it gets its own trace.
                self._new_trace(key, ev.obj, like=self.trace if self.traces else None)
        seq = len(self.changes)
        self.changes.append(Change(seq, self.sim.clock.now(), ev.type, ev.kind, ev.obj.metadata.name, ev.obj, ev.old))

    def _on_k8s_event(self, ev: WatchEvent) -> None:
        e = ev.obj
        key = self._by_uid.get(e.involved_object.uid)
        if ev.type == DELETED or key is None:
            return
        tr = self.traces[key]
        before = self._event_counts.get(e.metadata.name, 0)
        self._event_counts[e.metadata.name] = e.count
        o = self._open
        cycle = len(tr.cycles) + 1 if o is not None and o["key"] == key else 0
        for _i in range(e.count - before):
            tr.events.append(EventRecord(self.sim.clock.now(), e.type, e.reason, e.message, cycle, e.metadata.name))

    def _targets(self, fields: dict[str, Any]) -> list[Trace]:
        """The traces a note belongs to: its CronJob's, its Job's, its pod's Job's, else every Job's (a node,
        the cluster)."""
        if isinstance(fields.get("cronjob"), str):
            tr = self.traces.get(CRONJOB_PREFIX + fields["cronjob"])
            if tr is not None:
                return [tr]
        key = fields.get("job")
        if key is None and isinstance(fields.get("pod"), str):
            key = self._owner.get(fields["pod"])
        if key is None and isinstance(fields.get("name"), str) and str(fields.get("action", "")).endswith("_pod"):
            key = self._owner.get(fields["name"])
        if key is not None and "/" not in key:
            key = next((k for k in self.traces if k.partition("/")[2] == key), key)
        if key is None:
            return list(self.traces.values())
        tr = self.traces.get(key)
        return [tr] if tr is not None else []

    def _on_emit(self, rule: str, fields: dict[str, Any]) -> None:
        cron = fields.get("cronjob")
        if cron is not None and rule.startswith("cronjob."):
            self._on_cronjob_emit(rule, fields, CRONJOB_PREFIX + cron)
            return
        job = fields.get("job")
        o = self._open
        if rule == "sync.begin" and job in self.traces:
            ns, _, name = job.partition("/")
            current = self.sim.store.try_get("Job", ns, name)
            tr = self.traces[job]
            self._open = {"key": job, "t": fields["t"], "decisions": [], "change_start": len(self.changes),
                          "before": StatusSummary.of(current), "observed": {}, "events_start": len(tr.events)}
            return
        if o is not None and (job == o["key"] or job is None) and rule not in _NOT_DECISIONS:
            data = {k: v for k, v in fields.items() if k not in _NOT_FIELDS}
            if rule == "sync.observed":
                o["observed"] = data
            o["decisions"].append(Decision(rule, data))
            return
        if rule == "sync.end" and o is not None and job == o["key"]:
            self._close(fields)
            return
        if rule not in _NOT_DECISIONS:
            note_fields = {k: v for k, v in fields.items() if k != "t"}
            for tr in self._targets(fields):
                tr.notes.append(Note(fields["t"], rule, note_fields, len(tr.cycles)))

    def _on_cronjob_emit(self, rule: str, fields: dict[str, Any], key: str) -> None:
        o = self._open
        tr = self.traces.get(key)
        if tr is None:
            return
        if rule == "cronjob.sync.begin":
            self._open = {"key": key, "t": fields["t"], "decisions": [], "change_start": len(self.changes),
                          "before": StatusSummary(), "observed": {}, "events_start": len(tr.events)}
            return
        if o is not None and o["key"] == key and rule == "cronjob.sync.end":
            self._close(fields)
            return
        # "t" stays: some CronJob decisions carry a time of their own (a Job's completion time).
        data = {k: v for k, v in fields.items() if k != "cronjob"}
        if o is not None and o["key"] == key:
            o["decisions"].append(Decision(rule, data))
            return
        if rule == "cronjob.sync.error" and tr.cycles and tr.cycles[-1].t == fields["t"] and tr.cycles[-1].error:
            # processNextWorkItem's handling of the error the sync just returned (the rate-limited
            # requeue) is part of that sync: it is what the learner must see as its headline.
            last = tr.cycles[-1]
            tr.cycles[-1] = replace(last, decisions=(*last.decisions, Decision(rule, data)))
            return
        tr.notes.append(Note(fields["t"], rule, data, len(tr.cycles)))

    def _close_cronjob(self, o: dict[str, Any], tr: Trace) -> Cycle:
        result = self.sim.cronjob_controller.last_result if self.sim.cronjob_controller is not None else None
        ns, _, name = tr.job_key.partition("/")
        cj = self.sim.store.try_get("CronJob", ns, name)
        active = len(cj.status.active) if cj is not None else 0
        return Cycle(
            index=len(tr.cycles) + 1, t=o["t"], observed={}, decisions=tuple(o["decisions"]),
            created=tuple(result.created) if result else (), created_indexes=(),
            deleted=tuple(result.deleted) if result else (), before=o["before"],
            after=StatusSummary(active=active), events=tuple(tr.events[o["events_start"]:]),
            error=result.error if result else None, requeue_after=result.requeue_after if result else None,
            skipped=None, change_start=o["change_start"], change_end=len(self.changes),
            position=self.sim.events_run + 1, parallelism=None, completions=None, expectations=(0, 0, 0, 0),
            satisfied=True, suspended=bool(cj.spec.suspend) if cj is not None else False)

    def _close(self, fields: dict[str, Any]) -> None:
        o = self._open
        self._open = None
        key = o["key"]
        tr = self.traces[key]
        if tr.kind == "CronJob":
            self._append(tr, key, self._close_cronjob(o, tr))
            return
        result = self.sim.controller.last_result
        ns, _, name = key.partition("/")
        job = self.sim.store.try_get("Job", ns, name)
        spec = job.spec if job is not None else tr.manifest.spec
        cycle = Cycle(
            index=len(tr.cycles) + 1, t=o["t"], observed=o["observed"], decisions=tuple(o["decisions"]),
            created=tuple(result.created) if result else (),
            created_indexes=tuple(result.created_indexes) if result else (),
            deleted=tuple(result.deleted) if result else (), before=o["before"], after=StatusSummary.of(job),
            events=tuple(tr.events[o["events_start"]:]), error=result.error if result else None,
            requeue_after=result.requeue_after if result else None, skipped=result.skipped if result else None,
            change_start=o["change_start"], change_end=len(self.changes), position=self.sim.events_run + 1,
            parallelism=spec.parallelism, completions=spec.completions,
            expectations=(int(o["observed"].get("expect_add", 0)), int(o["observed"].get("expect_del", 0)),
                          int(fields.get("expect_add", 0)), int(fields.get("expect_del", 0))),
            satisfied=bool(o["observed"].get("satisfied", True)), suspended=bool(spec.suspend))
        self._append(tr, key, cycle)

    def _append(self, tr: Trace, key: str, cycle: Cycle) -> None:
        tr.cycles.append(cycle)
        self.cluster.syncs.append((key, cycle.index))
        self._cycle_count += 1
        if self._cycle_count % CHECKPOINT_EVERY == 0:
            self.checkpoints[cycle.change_end] = tr._objects_until(cycle.change_end)

    def finish(self) -> Trace:
        """Seal the traces at the simulation's current time; returns the first Job's."""
        sim = self.sim
        now, actions = sim.clock.now(), list(sim.actions)
        for tr in self.traces.values():
            ns, _, name = tr.job_key.partition("/")
            job = sim.store.try_get(tr.kind, ns, name)
            tr.end_t = now
            tr.final_job = job if job is None or job.metadata.uid == tr.job_uid else None
            tr.finished = (job is None or job.metadata.uid != tr.job_uid
                           or (tr.kind == "Job" and is_job_finished(job)))
            tr.actions = actions
        return self.trace
