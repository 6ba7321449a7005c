"""A recorded run with time travel: seek any cycle, fork the past.

:class:`Run` simulates a manifest to the end (or to a horizon) and keeps the
:class:`~k8sjobs.trace.recorder.Trace`. Seeking is cheap: the world at a cycle is rebuilt
from the trace's checkpoints plus changes. Forking changes something at a past cycle and
continues from there, dropping the old future: the simulation is rebuilt event for event
up to that cycle (runs are deterministic) and the new action is applied there.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from ..api.snapshot import Snapshot
from ..api.types import Job
from ..i18n import _
from ..sim import DEFAULT_MAX_TIME, Action, SimConfig, Simulation, fewer_gc_passes, load_job
from .recorder import Recorder, Trace, WorldState
from .records import Cycle

DEFAULT_MAX_CYCLES = 5000
PROGRESS_EVERY = 5000
"""Heap events between two calls of a run's ``progress`` callback."""


class Run:
    """One simulated run of one Job, recorded cycle by cycle."""

    def __init__(self, manifest: Job | Snapshot | str | bytes | dict, config: SimConfig | None = None, *,
                 actions: tuple[Action, ...] | list[Action] = (), max_time: float = DEFAULT_MAX_TIME,
                 max_cycles: int = DEFAULT_MAX_CYCLES, progress: Callable[[Simulation], None] | None = None,
                 **settings: Any) -> None:
        if config is None:
            config = SimConfig(**settings)
        elif settings:
            config = replace(config, **settings)
        self.source: Job | Snapshot = manifest if isinstance(manifest, Snapshot) else load_job(manifest)
        """What every rebuild of this run starts from: the manifest, or a real cluster's snapshot."""
        self.manifest = load_job(self.source)
        self.config = config
        self.max_time = max_time
        self.max_cycles = max_cycles
        self.progress = progress
        sim = Simulation(self.source, config)
        recorder = Recorder(sim)
        for act in sorted(actions, key=lambda a: (a.position, a.t)):
            sim.replay_action(act)
        self._finish(sim, recorder)

    def _finish(self, sim: Simulation, recorder: Recorder) -> None:
        truncated = False
        with fewer_gc_passes():
            while True:
                nxt = sim.heap.peek_time()
                if nxt is None:
                    break
                if nxt > self.max_time or sim.cycles >= self.max_cycles:
                    truncated = not sim.finished
                    break
                sim.step()
                if self.progress is not None and sim.events_run % PROGRESS_EVERY == 0:
                    self.progress(sim)
        self.trace: Trace = recorder.finish()
        self.trace.truncated = truncated
        self.actions: list[Action] = list(sim.actions)
        self.sim = sim

    # ------------------------------------------------------------------ reading

    def __len__(self) -> int:
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

    def fork(self, at_cycle: int, action: str, **kwargs: Any) -> Run:
        """A new run: the same past up to cycle ``at_cycle``, then ``action``, then a new future.

        Actions applied after that cycle in this run are dropped. Bad input raises the
        action's error (SimulationError, InvalidError) and leaves this run untouched.
        """
        if not 0 <= at_cycle <= len(self):
            raise IndexError(_("cycle {index} does not exist: this run has cycles 0 to {n}").format(
                index=at_cycle, n=len(self)))
        position = self.cycle(at_cycle).position if at_cycle else 0
        # Actions already taken at that very cycle stay (act twice at one cycle); later ones go.
        kept = [a for a in self.actions if a.position <= position]
        return self._branch(kept, lambda sim: sim.run_events(position - sim.events_run), action, kwargs)

    def fork_at_time(self, t: float, action: str, **kwargs: Any) -> Run:
        """Like :meth:`fork`, at a simulated time: everything due at or before ``t`` has happened.

        Actions this run took after ``t`` are dropped.
        """
        if not isinstance(t, (int, float)) or isinstance(t, bool) or not 0 <= t <= self.max_time:
            raise ValueError(_("t: must be a time between 0 and {max:g} s, got {value!r}").format(
                max=self.max_time, value=t))
        kept = [a for a in self.actions if a.t <= t]
        return self._branch(kept, lambda sim: sim.run_until(t), action, kwargs)

    def _branch(self, kept: list[Action], advance: Callable[[Simulation], Any], action: str,
                kwargs: dict[str, Any]) -> Run:
        new = Run.__new__(Run)
        new.source, new.manifest, new.config = self.source, self.manifest, self.config
        new.max_time, new.max_cycles = self.max_time, self.max_cycles
        new.progress = None
        sim = Simulation(self.source, self.config)
        recorder = Recorder(sim)
        for act in kept:
            sim.replay_action(act)
        advance(sim)
        sim.apply(action, **kwargs)
        new._finish(sim, recorder)
        return new

    def with_settings(self, **settings: Any) -> Run:
        """The same manifest and actions under other settings (seed, nodes, informer lag, ...)."""
        return Run(self.source, replace(self.config, **settings), actions=self.actions, max_time=self.max_time,
                   max_cycles=self.max_cycles)
