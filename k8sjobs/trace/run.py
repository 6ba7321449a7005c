"""A recorded run with time travel: seek any cycle, fork the past.

:class:`Run` simulates a manifest to the end (or to one of its limits) and keeps the
:class:`~k8sjobs.trace.recorder.Trace`. Seeking is cheap: the world at a cycle is rebuilt
from the trace's checkpoints plus changes. Forking changes something at a past cycle and
continues from there, dropping the old future. While it runs, a run saves the state of its
simulation now and then (:class:`Checkpoint`); a fork resumes from the last saved state
before the fork point and replays only the few events after it (runs are deterministic, so
this gives exactly the trace a replay from time 0 would give).

A run can also be *lazy* (``Run(..., lazy=True)``, ``fork(..., lazy=True)``): it simulates
only as far as asked and :meth:`Run.extend` continues it; :attr:`Run.complete` says whether
the end is reached. The dashboard uses this to show a forked cycle at once.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from ..api.snapshot import CronJobSnapshot, Snapshot
from ..api.types import CronJob, Job
from ..i18n import _
from ..sim import (
    DEFAULT_MAX_CYCLES,
    DEFAULT_MAX_TIME,
    Action,
    Budget,
    LimitReached,
    Manifest,
    SimConfig,
    Simulation,
    fewer_gc_passes,
    load_job,
    load_objects,
)
from .recorder import ClusterTrace, Recorder, RecorderState, Trace, WorldState
from .records import Cycle

PROGRESS_EVERY = 5000
"""Heap events between two calls of a run's ``progress`` callback."""

CHECKPOINT_MIN_WORK = 256
"""Work (see :func:`work_done`) between two saved states, at least."""
CHECKPOINT_MEMORY = 100_000
"""The most objects (stored objects plus scheduled events, summed over saved states) a run keeps
in saved states; past it every other one is dropped and they are taken half as often."""


def work_done(sim: Simulation) -> int:
    """How much a simulation has done, in heap events, counting a reconcile cycle's look at one
    pod as 1/16 of an event (a sync over 1,000 pods costs about as much as 60 other events)."""
    return sim.events_run + sim.pod_cycles // 16


def state_size(sim: Simulation) -> int:
    """What a saved state of ``sim`` holds, in objects: what the API server stores, plus the
    scheduled events (about one per live pod, each with the kubelet's state of its pod)."""
    return sim.store.size() + 2 * len(sim.heap)


@dataclass(frozen=True, slots=True)
class Checkpoint:
    """The saved state of a run's simulation between two heap events, and of its recorder.

    ``sim`` is never run: resuming takes ``sim.clone()``, so one checkpoint serves any
    number of forks. It is valid for every run with the same past up to ``events``.
    """

    events: int
    t: float
    actions: int
    """How many of the run's actions had been applied."""
    sim: Simulation
    recorder: RecorderState
    size: int


def make_budget(budget: Budget | None = None, **limits: Any) -> Budget:
    """``budget`` (default: :class:`~k8sjobs.sim.Budget`'s defaults) with the limits given as keywords set.

    A keyword that is None keeps the budget's value; an invalid value raises ValueError.
    """
    base = budget if budget is not None else Budget()
    given = {k: v for k, v in limits.items() if v is not None}
    return replace(base, **given) if given else base


class Run:
    """One simulated run of one Job, recorded cycle by cycle.

    Every run has a :class:`~k8sjobs.sim.Budget` (``budget=``, or the limits one by one:
    ``max_pods``, ``max_events``, ``max_pod_cycles``, ``max_time``, ``max_cycles``). When a
    limit stops the run before the Job finished, :attr:`limit` says which, ``message()``
    says it in words, and the trace up to there is usable like any other.

    ``checkpoints`` (default on) saves the simulation's state now and then so forks resume
    near their fork point; a run that will never be forked (the command line) turns it off;
    a number sets the least work between two saved states (see :func:`work_done`).
    ``lazy=True`` simulates nothing yet: call :meth:`extend`.
    """

    def __init__(self, manifest: Manifest, config: SimConfig | None = None, *,
                 actions: tuple[Action, ...] | list[Action] = (), max_time: float | None = None,
                 max_cycles: int | None = None, max_pods: int | None = None, max_events: int | None = None,
                 max_pod_cycles: int | None = None, budget: Budget | None = None,
                 progress: Callable[[Simulation], None] | None = None, checkpoints: bool | int = True,
                 lazy: bool = False, **settings: Any) -> None:
        if config is None:
            config = SimConfig(**settings)
        elif settings:
            config = replace(config, **settings)
        if isinstance(manifest, (Snapshot, CronJobSnapshot)):
            self.source: Job | CronJob | Snapshot | CronJobSnapshot | tuple[Job | CronJob, ...] = manifest
        else:
            objects = tuple(o for _, o in load_objects(manifest))
            self.source = objects[0] if len(objects) == 1 else objects
        """What every rebuild of this run starts from: the manifest (its Jobs), or a real cluster's snapshot."""
        self.manifest = load_job(self.source)
        self.config = config
        self.budget = make_budget(budget, max_time=max_time, max_cycles=max_cycles, max_pods=max_pods,
                                  max_events=max_events, max_pod_cycles=max_pod_cycles)
        self.progress = progress
        self.checkpoints: list[Checkpoint] | None = [] if checkpoints is not False else None
        """The saved states of this run's simulation, oldest first (None: not kept)."""
        self.checkpoint_min_work = (CHECKPOINT_MIN_WORK if isinstance(checkpoints, bool)
                                    else max(int(checkpoints), 1))
        self.focus: str | None = None
        """The Job that :attr:`trace`, cycles, seeking, extending and forking are about (None: the first)."""
        sim = Simulation(self.source, config)
        recorder = Recorder(sim)
        for act in sorted(actions, key=lambda a: (a.position, a.t)):
            sim.replay_action(act)
        self._start(sim, recorder)
        if not lazy:
            self.extend()

    def _start(self, sim: Simulation, recorder: Recorder) -> None:
        self.sim = sim
        self._recorder = recorder
        self.actions: list[Action] = list(sim.actions)
        self.complete = False
        """Whether the run has reached its end (the heap ran dry or a limit stopped it)."""
        self._spacing = self.checkpoint_min_work
        self._last_checkpoint_work = work_done(sim)
        recorder.finish()

    @property
    def trace(self) -> Trace:
        """The trace of the Job in :attr:`focus` (the first Job's by default; :attr:`cluster` holds every Job's)."""
        if self.focus is None:
            return self._recorder.trace
        return self._recorder.cluster.trace_of(self.focus)

    def focused(self, job: str | None) -> Run:
        """This run with its cycles, seeking and forking about the Job called ``job`` (None: the first).

        Raises KeyError naming the run's Jobs when there is no such Job. Returns ``self``.
        """
        if job is not None:
            self._recorder.cluster.trace_of(job)
        self.focus = job
        return self

    @property
    def max_time(self) -> float:
        """The simulated time this run stops at (its budget's ``max_time``)."""
        return self.budget.max_time

    @property
    def max_cycles(self) -> int:
        """The reconcile cycles this run stops after (its budget's ``max_cycles``)."""
        return self.budget.max_cycles

    # ------------------------------------------------------------------ simulating

    def extend(self, cycles: int | None = None, *, work: int = 0) -> bool:
        """Simulate further; returns :attr:`complete`.

        Without arguments, to the end. With ``cycles``: until the run has that many cycles,
        then on while less than ``work`` (see :func:`work_done`) was done in this call.
        """
        if self.complete:
            return True
        sim, budget, progress = self.sim, self.budget, self.progress
        reached = budget.reached
        trace_cycles = self.trace.cycles
        keep = self.checkpoints is not None
        start = work_done(sim) if cycles is not None else 0
        limit: LimitReached | None = None
        ended = False
        with fewer_gc_passes():
            while True:
                if cycles is not None and len(trace_cycles) >= cycles and work_done(sim) - start >= work:
                    break
                nxt = sim.heap.peek_time()
                if nxt is None:
                    ended = True
                    break
                name = reached(sim, nxt)
                if name is not None:
                    if not sim.finished:
                        limit = sim.limit_hit(budget, name)
                    ended = True
                    break
                sim.step()
                if progress is not None and sim.events_run % PROGRESS_EVERY == 0:
                    progress(sim)
                if keep and work_done(sim) - self._last_checkpoint_work >= self._spacing:
                    self._save()
        self._recorder.finish()
        if ended:
            self.complete = True
            for tr in self._recorder.traces.values():
                tr.truncated = limit is not None
                tr.limit = limit
        return self.complete

    @property
    def cluster(self) -> ClusterTrace:
        """Every Job's trace, in creation order, and the order of all syncs."""
        return self._recorder.cluster

    def trace_of(self, job: str | None = None) -> Trace:
        """The trace of the Job called ``job`` (None: the first); KeyError names the run's Jobs."""
        return self._recorder.cluster.trace_of(job)

    def _save(self) -> None:
        """Save the simulation's state now (see :class:`Checkpoint`) and space the next one by its size."""
        sim = self.sim
        size = state_size(sim)
        points = self.checkpoints
        points.append(Checkpoint(sim.events_run, sim.clock.now(), len(sim.actions), sim.clone(),
                                 self._recorder.state(), size))
        self._last_checkpoint_work = work_done(sim)
        # Copying a state costs about one event per hundred objects it holds (3,849 objects: ~2 ms,
        # the cyclic collector paused): spaced by a quarter of their size, saves cost a few percent of
        # the run, and a fork replays at most that much work.
        self._spacing = max(self._spacing, self.checkpoint_min_work, size // 4)
        if sum(p.size for p in points) > CHECKPOINT_MEMORY:
            # Thin out: keep every other saved state, and save half as often from now on.
            points[:] = points[1::2]
            self._spacing *= 2

    # ------------------------------------------------------------------ the outcome

    @property
    def limit(self) -> LimitReached | None:
        """The limit that stopped this run before the Job finished (None if it did not stop early)."""
        return self.trace.limit

    def message(self, api: str = "Run") -> str:
        """Why the run stopped early and how to raise the limit ("" if it was not stopped by a limit),
        naming the keyword of ``api`` (the function the caller called: ``Run``, ``explain``, ...)."""
        from .limits import api_hint, message

        limit = self.trace.limit
        return message(limit, api_hint(limit, api)) if limit is not None else ""

    # ------------------------------------------------------------------ reading

    def __len__(self) -> int:
        """How many cycles the run has (so far, while it is not :attr:`complete`)."""
        return len(self.trace.cycles)

    @property
    def cycles(self) -> list[Cycle]:
        """Every recorded cycle, first to last."""
        return self.trace.cycles

    def cycle(self, index: int) -> Cycle:
        """Cycle ``index`` (1-based)."""
        return self.trace.cycle(index)

    def state_at(self, index: int) -> WorldState:
        """The world right after cycle ``index``."""
        return self.trace.state_at(index)

    # ------------------------------------------------------------------ forking

    def fork(self, at_cycle: int, action: str, *, lazy: bool = False, **kwargs: Any) -> Run:
        """A new run: the same past up to cycle ``at_cycle``, then ``action``, then a new future.

        Actions applied after that cycle in this run are dropped. Bad input raises the
        action's error (SimulationError, InvalidError) and leaves this run untouched. With
        ``lazy=True`` the new run is simulated only until its cycle ``at_cycle + 1`` exists
        (or it ends): :meth:`extend` continues it.
        """
        if not 0 <= at_cycle <= len(self):
            raise IndexError(_("cycle {index} does not exist: this run has cycles 0 to {n}").format(
                index=at_cycle, n=len(self)))
        position = self.cycle(at_cycle).position if at_cycle else 0
        # Actions already taken at that very cycle stay (act twice at one cycle); later ones go.
        kept = [a for a in self.actions if a.position <= position]
        point = self._resume_point(kept, lambda p: p.events <= position)
        new = self._branch(kept, point, lambda sim: sim.run_events(position - sim.events_run), action, kwargs)
        new.extend(at_cycle + 1 if lazy else None)
        return new

    def fork_at_time(self, t: float, action: str, *, lazy: bool = False, **kwargs: Any) -> Run:
        """Like :meth:`fork`, at a simulated time: everything due at or before ``t`` has happened.

        Actions this run took after ``t`` are dropped. ``lazy``: see :meth:`fork` (the new
        run is simulated until its first cycle after ``t``).
        """
        if not isinstance(t, (int, float)) or isinstance(t, bool) or not 0 <= t <= self.max_time:
            raise ValueError(_("t: must be a time between 0 and {max:g} s, got {value!r}").format(
                max=self.max_time, value=t))
        kept = [a for a in self.actions if a.t <= t]
        point = self._resume_point(kept, lambda p: p.t <= t)
        new = self._branch(kept, point, lambda sim: sim.run_until(t), action, kwargs)
        new.extend(new.trace.cycle_at_time(t) + 1 if lazy else None)
        return new

    def _resume_point(self, kept: list[Action], before: Callable[[Checkpoint], bool]) -> Checkpoint | None:
        """The last saved state before the fork point whose actions are all kept (None: start at 0)."""
        for point in reversed(self.checkpoints or ()):
            if before(point) and point.actions <= len(kept):
                return point
        return None

    def _branch(self, kept: list[Action], point: Checkpoint | None, advance: Callable[[Simulation], Any],
                action: str, kwargs: dict[str, Any]) -> Run:
        new = Run.__new__(Run)
        new.source, new.manifest, new.config, new.budget = self.source, self.manifest, self.config, self.budget
        new.progress, new.checkpoint_min_work = None, self.checkpoint_min_work
        new.focus = self.focus
        with fewer_gc_passes():  # the replay to the fork point is a run loop like any other
            if point is None:
                sim = Simulation(self.source, self.config)
                recorder = Recorder(sim)
                replay = kept
            else:
                sim = point.sim.clone()
                recorder = Recorder.resume(sim, self.trace, point.recorder)
                replay = kept[point.actions:]
            for act in replay:
                sim.replay_action(act)
            advance(sim)
            sim.apply(action, **kwargs)
        # The saved states up to the fork point are the new run's too (the same past).
        new.checkpoints = None if self.checkpoints is None else [
            p for p in self.checkpoints if point is not None and p.events <= point.events]
        new._start(sim, recorder)
        # Saved states are spaced as in this run: a fork does not copy its state again right away
        # (a copy on the click's path would make the forked cycle wait for it).
        new._spacing = self._spacing
        return new

    def with_settings(self, **settings: Any) -> Run:
        """The same manifest and actions under other settings (seed, nodes, informer lag, ...)."""
        run = Run(self.source, replace(self.config, **settings), actions=self.actions, budget=self.budget,
                  checkpoints=self.checkpoint_min_work if self.checkpoints is not None else False)
        run.focus = self.focus
        return run


__all__ = ["CHECKPOINT_MEMORY", "CHECKPOINT_MIN_WORK", "Checkpoint", "DEFAULT_MAX_CYCLES", "DEFAULT_MAX_TIME",
           "PROGRESS_EVERY", "Run", "make_budget", "state_size", "work_done"]
