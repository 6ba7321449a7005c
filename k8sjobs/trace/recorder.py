"""Recording a simulation into a :class:`Trace`: cycles, changes, events and notes.

The :class:`Recorder` listens to the simulation's decision hook and to every API write;
it never calls into the controller. :class:`Trace` then answers questions about the run:
the world at any cycle (from checkpoints plus changes), each pod's life, the events.
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass, field
from typing import Any

from ..api.store import DELETED, WatchEvent
from ..api.types import Job, Phase, Pod
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

_NOT_DECISIONS = {"sync.begin", "sync.end"}
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
    """Where the run's time 0 is, in seconds since :data:`k8sjobs.api.serialize.EPOCH`: 0 for a run from a
    manifest, the Job's ``creationTimestamp`` for a run from a snapshot. Printed dates add it, so a forecast
    of a real Job shows the cluster's dates, never the epoch."""
    initial_changes: int = 0
    """How many changes record the world as the run found it (the Job, nodes, a snapshot's pods)."""
    _checkpoints: dict[int, dict[tuple[str, str, str], Any]] = field(default_factory=dict, repr=False)
    _histories: dict[str, PodHistory] | None = field(default=None, repr=False)

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
        job = next((o for (k, _, _), o in objs.items() if k == "Job" and o.metadata.uid == self.job_uid), None)
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
        if self._histories is None:
            self._histories = _build_histories(self)
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
    for ch in trace.changes:
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


@dataclass(frozen=True, slots=True)
class RecorderState:
    """Where a recorder was between two heap events: the lengths of its trace's lists, and the
    Event counts it had seen (all it needs to go on from there with a resumed simulation)."""

    cycles: int
    changes: int
    events: int
    notes: int
    event_counts: dict[str, int]


class Recorder:
    """Builds a :class:`Trace` while a :class:`~k8sjobs.sim.Simulation` runs."""

    def __init__(self, sim: Simulation) -> None:
        self.sim = sim
        job = sim.job
        self.trace = Trace(job_name=job.metadata.name if job else "", job_key=sim.job_key, job_uid=sim.job_uid,
                           seed=sim.config.seed, config=sim.config, manifest=sim.manifest)
        self._open: dict[str, Any] | None = None
        self._event_counts: dict[str, int] = {}
        # What happened before the recorder was attached (the Job's creation) is change 0...
        for obj in sorted(sim.store.objects("Node"), key=lambda n: n.metadata.name):
            self._change(WatchEvent("ADDED", "Node", obj))
        if job is not None:
            self._change(WatchEvent("ADDED", "Job", job))
        # A snapshot's pods were there before the run: they are part of its starting world.
        for pod in sim.pods():
            self._change(WatchEvent("ADDED", "Pod", pod))
        self.trace.start_t = sim.clock.now()
        if sim.snapshot is not None:
            self.trace.snapshot_at = sim.snapshot.real_time(sim.snapshot.now)
            self.trace.origin = sim.snapshot.origin
        self.trace.initial_changes = len(self.trace.changes)
        sim.add_listener(self._on_emit)
        sim.add_watcher(self._change)

    def state(self) -> RecorderState:
        """What :meth:`resume` needs to go on from here (take it between heap events)."""
        if self._open is not None:
            raise RuntimeError("a reconcile cycle is being recorded: save the state between heap events")
        tr = self.trace
        return RecorderState(len(tr.cycles), len(tr.changes), len(tr.events), len(tr.notes), dict(self._event_counts))

    @classmethod
    def resume(cls, sim: Simulation, past: Trace, state: RecorderState) -> Recorder:
        """A recorder for ``sim``, a simulation resumed from a saved state, whose trace starts as
        ``past`` did up to ``state`` (``past`` is any trace with the same history up to there)."""
        rec = cls.__new__(cls)
        rec.sim = sim
        tr = rec.trace = Trace(job_name=past.job_name, job_key=past.job_key, job_uid=past.job_uid, seed=past.seed,
                               config=past.config, manifest=past.manifest)
        tr.start_t, tr.snapshot_at, tr.initial_changes = past.start_t, past.snapshot_at, past.initial_changes
        tr.origin = past.origin
        tr.cycles = past.cycles[:state.cycles]
        tr.changes = past.changes[:state.changes]
        tr.events = past.events[:state.events]
        tr.notes = past.notes[:state.notes]
        tr._checkpoints = {end: objs for end, objs in past._checkpoints.items() if end <= state.changes}
        rec._open = None
        rec._event_counts = dict(state.event_counts)
        sim.add_listener(rec._on_emit)
        sim.add_watcher(rec._change)
        return rec

    # ------------------------------------------------------------------ inputs

    def _change(self, ev: WatchEvent) -> None:
        tr = self.trace
        if ev.kind == "Event":
            self._on_k8s_event(ev)
            return
        seq = len(tr.changes)
        tr.changes.append(Change(seq, self.sim.clock.now(), ev.type, ev.kind, ev.obj.metadata.name, ev.obj, ev.old))
        tr._histories = None

    def _on_k8s_event(self, ev: WatchEvent) -> None:
        e = ev.obj
        if ev.type == DELETED or e.involved_object.uid != self.sim.job_uid:
            return
        before = self._event_counts.get(e.metadata.name, 0)
        self._event_counts[e.metadata.name] = e.count
        cycle = len(self.trace.cycles) + 1 if self._open is not None else 0
        for _i in range(e.count - before):
            self.trace.events.append(EventRecord(self.sim.clock.now(), e.type, e.reason, e.message, cycle,
                                                 e.metadata.name))

    def _on_emit(self, rule: str, fields: dict[str, Any]) -> None:
        job = fields.get("job")
        if rule == "sync.begin" and job == self.sim.job_key:
            current = self.sim.job
            self._open = {"t": fields["t"], "decisions": [], "change_start": len(self.trace.changes),
                          "before": StatusSummary.of(current), "observed": {}, "events_start": len(self.trace.events)}
            return
        if self._open is not None and (job == self.sim.job_key or job is None) and rule not in _NOT_DECISIONS:
            data = {k: v for k, v in fields.items() if k not in _NOT_FIELDS}
            if rule == "sync.observed":
                self._open["observed"] = data
            self._open["decisions"].append(Decision(rule, data))
            return
        if rule == "sync.end" and job == self.sim.job_key and self._open is not None:
            self._close(fields)
            return
        if rule not in _NOT_DECISIONS and (job is None or job == self.sim.job_key):
            self.trace.notes.append(Note(fields["t"], rule, {k: v for k, v in fields.items() if k != "t"},
                                         len(self.trace.cycles)))

    def _close(self, fields: dict[str, Any]) -> None:
        o = self._open
        self._open = None
        result = self.sim.controller.last_result
        job = self.sim.job
        spec = job.spec if job is not None else self.sim.manifest.spec
        cycle = Cycle(
            index=len(self.trace.cycles) + 1, t=o["t"], observed=o["observed"], decisions=tuple(o["decisions"]),
            created=tuple(result.created) if result else (),
            created_indexes=tuple(result.created_indexes) if result else (),
            deleted=tuple(result.deleted) if result else (), before=o["before"], after=StatusSummary.of(job),
            events=tuple(self.trace.events[o["events_start"]:]), error=result.error if result else None,
            requeue_after=result.requeue_after if result else None, skipped=result.skipped if result else None,
            change_start=o["change_start"], change_end=len(self.trace.changes), position=self.sim.events_run + 1,
            parallelism=spec.parallelism, completions=spec.completions,
            expectations=(int(o["observed"].get("expect_add", 0)), int(o["observed"].get("expect_del", 0)),
                          int(fields.get("expect_add", 0)), int(fields.get("expect_del", 0))),
            satisfied=bool(o["observed"].get("satisfied", True)), suspended=bool(spec.suspend))
        self.trace.cycles.append(cycle)
        if cycle.index % CHECKPOINT_EVERY == 0:
            self.trace._checkpoints[cycle.change_end] = self.trace._objects_until(cycle.change_end)

    def finish(self) -> Trace:
        """Seal the trace at the simulation's current time."""
        tr = self.trace
        tr.end_t = self.sim.clock.now()
        tr.final_job = self.sim.job
        tr.finished = self.sim.finished
        tr.actions = list(self.sim.actions)
        return tr
