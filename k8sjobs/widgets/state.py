"""What the lesson dashboard shows, without any widget: a manifest, settings, a run, a cycle.

:class:`ExplorerState` is the model behind :class:`~k8sjobs.widgets.explorer.Explorer` (the
view is thin: buttons call these methods, then redraw). It is plain Python, so lessons,
tests and scripts can drive it without a browser::

    s = ExplorerState(open("examples/docs/indexed-job.yaml").read(), seed=0)
    s.step(); s.step()
    s.status_line()        # 'cycle 2 of 10 · t=1 s · nothing to change: 3 active, ...'
    s.act("fail_pod", name=s.pods()[0], exit_code=3)   # forks the run after cycle 2
    s.apply_yaml(text_with_parallelism_minus_one)      # -> ['The Job "indexed-job" is invalid: ...']

Every method that takes learner input returns a list of error lines (empty when it
worked) phrased as the API server or the simulator phrases them, and keeps the old state
when there is an error: nothing typed or simulated is lost.

Time travel comes from :class:`~k8sjobs.trace.Run`: moving to a cycle only rebuilds the
world at that cycle from the recorded trace; acting at a cycle *forks* the run there (the
past up to that cycle is kept, the action applies, and a new future is simulated; actions
the old run had after that cycle are dropped).
"""

from __future__ import annotations

import os
import re
from bisect import bisect_right
from collections.abc import Callable
from typing import Any

import yaml

from ..api.errors import DecodeError, InvalidError
from ..api.snapshot import CronJobSnapshot, Snapshot
from ..api.types import CronJob, Job, Phase
from ..i18n import N_, _, join_list, ngettext
from ..sim import (
    ACTIONS,
    DEFAULT_MAX_TIME,
    Budget,
    BudgetError,
    LimitReached,
    SimConfig,
    SimulationError,
    yamlio_dump,
)
from ..snapshot.read import assume, load_snapshot
from ..trace.cron_status import sync_summary, wall_clock
from ..trace.recorder import WorldState
from ..trace.records import Cycle, Decision
from ..trace.run import DEFAULT_MAX_CYCLES, Run, make_budget, work_done

SEP = " · "
"""Separator of the status line's parts (a middle dot between spaces)."""

BEFORE_FIRST_CYCLE = N_("before the first cycle: the Job is created; the controller has not synced it yet")
"""The reason shown at cycle 0 (marked: show it with ``_()``)."""
BEFORE_FIRST_CRONJOB_SYNC = N_("the CronJob is created; the CronJob controller has not synced it yet")
"""The reason shown at a CronJob's sync 0 (marked: show it with ``_()``)."""

PICKER_JOBS = 12
"""The Job picker lists a CronJob's newest Jobs made so far, at most this many (and says how many more)."""
CRONJOB_ACTIONS = frozenset({"suspend_cronjob", "resume_cronjob", "set_schedule", "set_time_zone"})
"""Actions on a CronJob: they act on the CronJob the dashboard shows."""
NEXT_SCHEDULE_CHUNK = 64
"""A lazily simulated run is extended by this many cycles at a time while looking for the next schedule."""

DASHBOARD_BUDGET = Budget(max_pods=5_000, max_events=40_000, max_pod_cycles=1_000_000, max_time=DEFAULT_MAX_TIME,
                          max_cycles=DEFAULT_MAX_CYCLES)
"""The dashboard's limits: lower than a script's (:class:`~k8sjobs.sim.Budget`), because a
Binder kernel has 2 GB for the run, its figures and the notebook: a run at these limits takes
about a second and 100 MB here. ``Explorer(..., max_pods=...)`` raises one."""

LOOKAHEAD_CYCLES = 2
"""A run simulated as the learner steps is kept this many cycles ahead of the cycle shown."""
CHUNK_WORK = 400
"""Work (heap events; see :func:`k8sjobs.trace.run.work_done`) simulated ahead on each move: a forked
run's remaining cycles are simulated in such slices (a few ms each) as the learner steps."""
EAGER_FORK_WORK = 3_000
"""A run that took at most this much work is forked to its end at once (as in every lesson): only
bigger ones show the forked cycle first and simulate the rest as the learner steps."""


SNAPSHOTS = (Snapshot, CronJobSnapshot)
"""What a dashboard opens at besides a manifest: a Job's or a CronJob's snapshot."""


def limit_lines(limit: LimitReached, refused: bool, *, snapshot: bool = False) -> list[str]:
    """What the dashboard says when a run reached one of its limits.

    ``refused``: an edit was not applied because its run would stop there (the current run and
    YAML are kept); otherwise the run shown stops at that limit. ``snapshot``: the dashboard was
    opened at a real Job's snapshot (the hint names ``Explorer.from_snapshot`` and ``explain --forecast``).
    """
    from ..trace.limits import api_hint
    from ..trace.limits import what as limit_what

    what = limit_what(limit)
    if refused:
        head = _("Not applied: the run of this Job would stop at a limit of the dashboard after cycle {cycle} "
                 "(t={t} s): {what}. Your current run and YAML are kept.").format(
            cycle=limit.cycle, t=format_seconds(limit.t), what=what)
    else:
        head = _("This run stops after cycle {cycle} (t={t} s), before the Job finished, at a limit of the "
                 "dashboard: {what}. The cycles up to there can be stepped, seeked and forked.").format(
            cycle=limit.cycle, t=format_seconds(limit.t), what=what)
    return [head, api_hint(limit, "Explorer.from_snapshot" if snapshot else "Explorer")]


def stops_early(run: Run) -> bool:
    """Whether ``run`` stopped at one of its limits before its end: a CronJob never finishes, so a run with
    one ends where the dashboard's time does (``max_time``), and that is no early stop."""
    limit = run.limit
    return limit is not None and not (limit.limit == "max_time" and bool(run.sim.cronjob_manifests))


Listener = Callable[[str], None]
"""``fn(kind)`` after a change: ``"cycle"`` (moved in the same run), ``"run"`` (a new run),
``"error"`` (input refused; :attr:`ExplorerState.last_error` says why)."""


def format_seconds(t: float) -> str:
    """Simulated seconds with up to three decimals and no trailing zeros: ``0``, ``1.5``, ``12.125``."""
    text = f"{t:.3f}".rstrip("0").rstrip(".")
    return "0" if text in ("", "-0") else text


def error_lines(exc: BaseException) -> list[str]:
    """The lines a learner sees for a refused input: the API server's or the simulator's phrasing."""
    if isinstance(exc, BudgetError):
        from ..trace.limits import budget_problems

        lines = [budget_problems(exc)]
    elif isinstance(exc, InvalidError):
        lines = exc.message().splitlines()
    elif isinstance(exc, DecodeError):
        lines = exc.render().splitlines()
    elif isinstance(exc, TypeError):
        # Simulation.fail_pod() got an unexpected keyword argument 'x' -> fail_pod() got ...
        lines = [str(exc).replace("Simulation.", "", 1)]
    else:
        lines = str(exc).splitlines() or [type(exc).__name__]
    return [line.rstrip() for line in lines if line.strip()]


def parse_duration(text: str) -> float | None:
    """Whole days then a Go duration (``2d``, ``1d12h``, ``90m``, ``3h``) in seconds; None if it does not read."""
    from ..cluster.workload import parse_go_duration

    m = re.fullmatch(r"\s*(?:(\d+)d)?(.*?)\s*", text)
    if m is None or (not m.group(1) and not m.group(2)):
        return None
    try:
        return float(m.group(1) or 0) * 86400 + (parse_go_duration(m.group(2)) if m.group(2) else 0.0)
    except ValueError:
        return None


def _seconds(duration: str | float) -> float | None:
    """A positive duration given as seconds or as text (:func:`parse_duration`); None otherwise."""
    seconds = duration if isinstance(duration, (int, float)) and not isinstance(duration, bool) else None
    if isinstance(duration, str):
        seconds = parse_duration(duration)
    return seconds if seconds is not None and seconds > 0 else None


def manifest_text(manifest: Job | str | bytes | dict | os.PathLike) -> str:
    """The YAML text of a manifest given as text, bytes, a document, a Job or a path to a file.

    A one-line string ending in ``.yaml``, ``.yml`` or ``.json`` that names an existing file
    is read from that file.
    """
    if isinstance(manifest, os.PathLike):
        with open(manifest, encoding="utf-8") as f:
            return f.read()
    if isinstance(manifest, bytes):
        return manifest.decode("utf-8", errors="replace")
    if isinstance(manifest, str):
        candidate = manifest.strip()
        if ("\n" not in candidate and candidate.lower().endswith((".yaml", ".yml", ".json"))
                and os.path.isfile(candidate)):
            with open(candidate, encoding="utf-8") as f:
                return f.read()
        return manifest
    if isinstance(manifest, Job):
        return yamlio_dump(manifest)
    if isinstance(manifest, dict):
        return yaml.safe_dump(manifest, sort_keys=False)
    raise TypeError(_("manifest: expected YAML text, a path, a dict or a Job, got {type}").format(
        type=type(manifest).__name__))


def create_problems(text: str, source: str = "<manifest>") -> list[str]:
    """What ``kubectl create`` would answer for ``text``: [] if the API server accepts it.

    Decoding problems come as the decoder phrases them; field problems under the
    ``The Job "name" is invalid:`` heading, one ``* field: rule`` line each when there are
    several (as kubectl prints them).
    """
    from ..sim import check_manifest

    try:
        checked = check_manifest(text, source)
    except DecodeError as exc:
        return [exc.reason, *[str(e) for e in exc.errors]]  # a decoding problem: one line each
    lines: list[str] = []
    for c in checked:
        if c.error is not None:
            # kubectl's lines: "The Job "x" is invalid: <error>", or the heading and "* <error>" lines.
            lines.extend(line.rstrip() for line in c.error.message().splitlines())
    return lines


JOB_ACTIONS = frozenset({"suspend", "resume", "scale", "delete_job"})
"""Actions on a Job (rather than a pod or a node): they act on the Job the dashboard shows."""


class ExplorerState:
    """A manifest, simulation settings, the current :class:`~k8sjobs.trace.Run` and a cycle.

    ``manifest`` is YAML text, a path to a YAML file, a document (dict) or a Job. ``seed``,
    ``nodes``, ``informer_lag`` and any other :class:`~k8sjobs.sim.SimConfig` field set the
    simulation. ``start_cycle`` is where the learner starts (and where :meth:`reset` returns);
    a negative number counts from the end (``-1`` is the last cycle). An invalid manifest or
    setting raises ``ValueError`` naming every problem (that is the lesson writer's mistake,
    not the learner's).
    """

    def __init__(self, manifest: Job | str | bytes | dict | os.PathLike, *, seed: int = 0, nodes: int = 3,
                 informer_lag: float = 0.0, start_cycle: int = 0, max_time: float | None = None,
                 max_cycles: int | None = None, max_pods: int | None = None, max_events: int | None = None,
                 max_pod_cycles: int | None = None, budget: Budget | None = None, **settings: Any) -> None:
        if isinstance(manifest, SNAPSHOTS):
            # A real cluster's state: the run starts at the snapshot, the YAML shows its Job (or CronJob).
            text = yamlio_dump(manifest.job if isinstance(manifest, Snapshot) else manifest.cronjob)
            self.initial_source: Snapshot | CronJobSnapshot | str = manifest
        else:
            text = manifest_text(manifest)
            problems = create_problems(text)
            if problems:
                raise ValueError(_("the manifest is not a valid Job:") + "\n" + "\n".join(problems))
            self.initial_source = text
        self.config = SimConfig(seed=seed, nodes=nodes, informer_lag=informer_lag, **settings)
        self.budget = make_budget(budget if budget is not None else DASHBOARD_BUDGET, max_time=max_time,
                                  max_cycles=max_cycles, max_pods=max_pods, max_events=max_events,
                                  max_pod_cycles=max_pod_cycles)
        """The limits of every run of this dashboard (:data:`DASHBOARD_BUDGET` unless given)."""
        self.initial_text = text
        self.initial_config = self.config
        self.manifest_text = text
        """The manifest the current run was created from (what Apply last accepted)."""
        self.run = self._first_run()
        self.initial_run = self.run
        """The run of the original manifest and settings (what :meth:`reset` returns to, without simulating)."""
        self.cycle = 0
        """The cycle shown: 0 (before the first sync) to :attr:`n_cycles`."""
        self.last_error: list[str] = []
        """Why the last input was refused (empty if it was accepted)."""
        self.notice = self._with_limit("")
        """What the last accepted change did, in words (e.g. that an action forked the run)."""
        self._listeners: list[Listener] = []
        self._world_key: tuple[int, int] | None = None
        self._world: WorldState | None = None
        if not isinstance(start_cycle, int) or isinstance(start_cycle, bool):
            raise ValueError(_("start_cycle: must be an integer, got {value!r}").format(value=start_cycle))
        self.start_cycle = start_cycle
        self.cycle = self._resolve_start()

    @classmethod
    def from_snapshot(cls, snapshot: Snapshot | str | bytes | dict | os.PathLike, *, job: str | None = None,
                      now: str | None = None, assume_duration: float | None = None, **kwargs: Any) -> ExplorerState:
        """The dashboard's state at a real Job's snapshot (what ``kubectl get job,pods -o yaml`` printed).

        ``snapshot``: that text (YAML or JSON), a path to it, its document, or a
        :class:`~k8sjobs.api.snapshot.Snapshot`. ``job`` and ``now`` as for ``explain``;
        ``assume_duration``: seconds a pod runs when its sim annotations do not say (default:
        the median run time of the succeeded pods in the snapshot, else 60 s). Cycle 0 is the
        snapshot; cycle 1 is the controller's next sync on it. Raises DecodeError (a
        ValueError) naming the problem.
        """
        return cls(assume(load_snapshot(snapshot, job=job, now=now), assume_duration), **kwargs)

    def _first_run(self) -> Run:
        source = self.initial_source
        if isinstance(source, SNAPSHOTS):
            return Run(source, self.initial_config, budget=self.budget, max_time=source.now + self.max_time)
        return Run(source, self.initial_config, budget=self.budget)

    @property
    def max_time(self) -> float:
        """The simulated seconds a run of this dashboard lasts at most (from its start)."""
        return self.budget.max_time

    @property
    def max_cycles(self) -> int:
        """The reconcile cycles a run of this dashboard stops after."""
        return self.budget.max_cycles

    @property
    def snapshot(self) -> Snapshot | CronJobSnapshot | None:
        """The snapshot the current run started from (None for a run from a manifest)."""
        source = self.run.source
        return source if isinstance(source, SNAPSHOTS) else None

    @property
    def jobs(self) -> list[str]:
        """The names of the current run's objects, in creation order (the dashboard's picker): its Jobs, and a
        CronJob with the Jobs it has made so far."""
        traces = self.run.cluster.traces
        cache = getattr(self, "_jobs", None)
        if cache is None or cache[0] is not self.run or cache[1] != len(traces):
            cache = self._jobs = (self.run, len(traces), [tr.job_name for tr in traces.values()])
        return list(cache[2])

    @property
    def job(self) -> str:
        """The Job the views show (the first Job unless :meth:`select_job` chose another)."""
        return self.run.trace.job_name

    @property
    def kind(self) -> str:
        """The kind of object the views show: ``"Job"``, or ``"CronJob"`` when the picker shows a CronJob."""
        return self.run.trace.kind

    @property
    def cronjob(self) -> str | None:
        """The name of the run's (first) CronJob, None when the run has none."""
        crons = self._cron_traces()
        return crons[0].job_name if crons else None

    def _cron_traces(self) -> list:
        """The current run's CronJob traces (made when the run starts: read once per run, not per question,
        since a run of a week holds some 10,000 Job traces to skip)."""
        cache = getattr(self, "_crons", None)
        if cache is None or cache[0] is not self.run:
            from ..trace.recorder import CRONJOB_PREFIX

            traces = self.run.cluster.traces
            keys = [CRONJOB_PREFIX + f"{c.metadata.namespace or 'default'}/{c.metadata.name}"
                    for c in self.run.sim.cronjob_manifests]
            cache = self._crons = (self.run, [traces[k] for k in keys if k in traces])
        return cache[1]

    def _cronjob_manifest(self) -> CronJob | None:
        source = self.run.source
        objects = source if isinstance(source, tuple) else (source,)
        return next((o for o in objects if isinstance(o, CronJob)), None)

    def zone(self, t: float | None = None) -> str:
        """The time zone the CronJob's schedule is read in at ``t`` (default: the time shown): its
        spec.timeZone (as the manifest or a later ``set_time_zone`` says), else the controller's own."""
        cj = self._cronjob_manifest()
        zone = cj.spec.time_zone if cj is not None else None
        c = self.current
        # An action applies right after the cycle it was taken at (its heap position is that cycle's).
        position = c.position if c is not None and t is None else None
        for a in self.run.actions:
            if a.name == "set_time_zone" and (a.position < position if position is not None
                                             else a.t < (self.t if t is None else t)):
                zone = dict(a.kwargs).get("time_zone")
        return zone or self.config.controller_zone

    def clock(self, t: float | None = None) -> str:
        """The instant ``t`` (default: the time shown) as a wall clock in the CronJob's zone: ``day 2 09:05``."""
        t = self.t if t is None else t
        tr = self.run.trace
        return wall_clock(t, self.zone(t), tr.start_t, tr.origin)

    def _job_added_times(self) -> dict[str, float]:
        """When each Job of the current run was created (its ADDED change), read once per run and cached."""
        run = self.run
        cache = getattr(self, "_added", None)
        if cache is None or cache[0] is not run:
            cache = self._added = (run, 0, {})
        _run, done, added = cache
        changes = run.trace.changes
        for ch in changes[done:]:
            if ch.kind == "Job" and ch.type == "ADDED":
                added.setdefault(ch.name, ch.t)
        self._added = (run, len(changes), added)
        return added

    def _owned_jobs(self) -> dict[str, tuple[list[float], list[str]]]:
        """Each CronJob's Jobs in the current run, in creation order: (creation times, names), built once per
        run and extended as the run grows (a week of an every-minute schedule makes 10,080 Jobs)."""
        run = self.run
        cache = getattr(self, "_owned", None)
        if cache is None or cache[0] is not run:
            cache = (run, [0], {tr.job_uid: ([], []) for tr in self._cron_traces()})
            self._owned = cache
        _run, done, by_cron = cache
        traces = run.cluster.traces
        if len(traces) > done[0]:
            added = self._job_added_times()
            for tr in list(traces.values())[done[0]:]:
                if tr.kind != "Job":
                    continue
                for r in tr.manifest.metadata.owner_references:
                    mine = by_cron.get(r.uid)
                    if mine is not None:
                        mine[0].append(added.get(tr.job_name, float("inf")))
                        mine[1].append(tr.job_name)
            done[0] = len(traces)
        crons = {tr.job_name: tr.job_uid for tr in self._cron_traces()}
        return {name: by_cron[uid] for name, uid in crons.items()}

    def jobs_of(self, cronjob: str) -> list[str]:
        """The Jobs the CronJob called ``cronjob`` made up to the time shown, newest first."""
        times, names = self._owned_jobs().get(cronjob, ([], []))
        return names[:bisect_right(times, self.t)][::-1]

    def picker(self) -> tuple[list[tuple[str, str]], int]:
        """The Job picker's options as (label, name), and how many Jobs of a CronJob it leaves out.

        A run of Jobs lists them by name. A CronJob comes with its Jobs made up to the time shown
        under it, newest first, at most :data:`PICKER_JOBS` of them (and the Job shown, wherever it is).
        """
        if not self._cron_traces():
            return [(name, name) for name in self.jobs], 0
        options: list[tuple[str, str]] = []
        owned: set[str] = set()
        more = 0
        t = self.t
        for cron, (times, names) in self._owned_jobs().items():
            made = bisect_right(times, t)
            shown = names[max(made - PICKER_JOBS, 0):made][::-1]
            more += made - len(shown)
            if self.kind == "Job" and self.job not in shown and self.job in names:
                shown.append(self.job)  # the Job shown, even if older or made later than the time shown
                more -= names.index(self.job) < made
            owned.update(names)
            # TRANSLATORS: the Job picker's entry of a CronJob; {name} is its name.
            options.append((_("{name} (CronJob)").format(name=cron), cron))
            options += [("\u21b3 " + name, name) for name in shown]
        options = [(name, name) for name in self.jobs if name not in owned
                   and all(v != name for _l, v in options)] + options
        return options, more

    def select_job(self, name: str) -> list[str]:
        """Show the Job called ``name``: the views, the status line, the slider and the faults are about it.

        The cycle moves to that Job's last sync at or before the time shown. Returns error lines
        naming the run's Jobs ([] if done); on error nothing changes.
        """
        if name not in self.jobs:
            return self._refuse([_("no Job {name} in this run; its Jobs: {names}").format(
                name=name, names=join_list(self.jobs))])
        if name == self.job:
            return []
        t = self.t
        self._focus(name)
        self.cycle = self.run.trace.cycle_at_time(t)
        if self.kind == "CronJob":
            # TRANSLATORS: {name} is a CronJob's name.
            return self._accept("run", _("showing CronJob {name}").format(name=name))
        # TRANSLATORS: {name} is a Job's name.
        return self._accept("run", _("showing Job {name}").format(name=name))

    def _focus(self, name: str) -> None:
        first = self.jobs[0]
        for run in {id(r): r for r in (self.run, self.initial_run)}.values():
            if name == first or any(tr.job_name == name for tr in run.cluster.traces.values()):
                run.focused(None if name == first else name)

    def next_schedule(self) -> bool:
        """Jump over quiet time to the CronJob controller's next sync at which a schedule time has come.

        The views then show the CronJob (whatever the picker showed). False (and nothing changes)
        when no schedule time comes in the rest of the run, or the run has no CronJob.
        """
        cron = self.cronjob
        if cron is None:
            self._refuse([_("this run has no CronJob: there is no schedule to jump to")])
            return False
        tr = self.run.trace_of(cron) if self.kind == "Job" or self.job != cron else self.run.trace
        k = self.cycle if tr is self.run.trace else tr.cycle_at_time(self.t)
        while True:
            cycles = tr.cycles
            found = next((i + 1 for i in range(k, len(cycles))
                          if any(d.rule == "cronjob.schedule.due" for d in cycles[i].decisions)), None)
            if found is not None or self.run.complete:
                break
            k = len(cycles)
            focus = self.run.focus
            self.run.focused(cron if cron != self.jobs[0] else None)
            try:
                self.run.extend(len(self.run) + NEXT_SCHEDULE_CHUNK)
            finally:
                self.run.focus = focus
        if found is None:
            self._refuse([_("no later sync of the CronJob controller has a schedule time due: this run ends at "
                            "{clock}").format(clock=self.clock(self.run.trace.end_t))])
            return False
        switched = self.job != cron
        if switched:
            self._focus(cron)
        self.cycle = found
        self._simulate_ahead(CHUNK_WORK)
        if switched:
            self._accept("run", _("showing CronJob {name}").format(name=cron))
        else:
            self._accept("cycle")
        return True

    def _before_first_cycle(self) -> str:
        snap = self.snapshot
        if snap is None:
            return _(BEFORE_FIRST_CRONJOB_SYNC) if self.kind == "CronJob" else _(BEFORE_FIRST_CYCLE)
        return _("the snapshot of {now}: the controller's next sync comes next").format(
            now=snap.real_time(snap.now))

    # ------------------------------------------------------------------ observers

    def on_change(self, fn: Listener) -> None:
        """Call ``fn(kind)`` after every change (see :data:`Listener`)."""
        self._listeners.append(fn)

    def _changed(self, kind: str) -> None:
        for fn in list(self._listeners):
            fn(kind)

    def _refuse(self, lines: list[str]) -> list[str]:
        self.last_error = lines
        self._changed("error")
        return lines

    def _accept(self, kind: str, notice: str = "") -> list[str]:
        self.last_error = []
        self.notice = self._with_limit(notice)  # a run stopped at a limit keeps saying so
        self._changed(kind)
        return []

    # ------------------------------------------------------------------ reading

    @property
    def trace(self):
        """The current run's :class:`~k8sjobs.trace.Trace`."""
        return self.run.trace

    @property
    def n_cycles(self) -> int:
        """How many reconcile cycles the current run has so far (the M of "cycle N of M")."""
        return len(self.run)

    @property
    def final(self) -> bool:
        """Whether :attr:`n_cycles` is final: a forked run's future is simulated as the learner steps."""
        return self.run.complete

    @property
    def of_cycles(self) -> str:
        """The M of "cycle N of M": ``12``, or ``12+`` while more cycles are still to be simulated."""
        return str(self.n_cycles) if self.final else f"{self.n_cycles}+"

    def _simulate_ahead(self, work: int = 0) -> None:
        """Simulate the current run :data:`LOOKAHEAD_CYCLES` past the cycle shown, then ``work`` more."""
        if not self.run.complete:
            self.run.extend(self.cycle + LOOKAHEAD_CYCLES, work=work)

    @property
    def t(self) -> float:
        """Simulated seconds at the current cycle (0 before the first one)."""
        return self.run.cycle(self.cycle).t if self.cycle else self.run.trace.start_t

    @property
    def current(self) -> Cycle | None:
        """The current :class:`~k8sjobs.trace.Cycle` (None at cycle 0)."""
        return self.run.cycle(self.cycle) if self.cycle else None

    @property
    def at_start(self) -> bool:
        return self.cycle == 0

    @property
    def at_end(self) -> bool:
        return self.cycle >= self.n_cycles and self.final

    @property
    def actions(self) -> list:
        """The actions the current run applied (:class:`~k8sjobs.sim.Action`, in order)."""
        return list(self.run.actions)

    def world(self) -> WorldState:
        """The cluster right after the current cycle (cached per run and cycle)."""
        key = (id(self.run), self.cycle)
        if self._world_key != key:
            self._world = self.run.state_at(self.cycle)
            self._world_key = key
        return self._world

    def reason(self) -> str:
        """The headline reason of the current cycle (why the controller did what it did)."""
        c = self.current
        if c is None:
            return self._before_first_cycle()
        if self.kind == "CronJob":
            return sync_summary(c, self.run.actions, self._considered_before(c.index))
        return " ".join(c.headline.reason.split())

    def _considered_before(self, index: int) -> float:
        """The latest schedule time a CronJob sync before sync ``index`` considered, else the run's start."""
        cycles = self.run.trace.cycles
        for c in reversed(cycles[:index - 1]):
            for d in c.decisions:
                if d.rule == "cronjob.schedule.due":
                    return d.fields["scheduled"]
        return self.run.trace.start_t

    def status_line(self) -> str:
        """``cycle N of M · t=T s · <the headline reason of this cycle>``.

        In a run with a CronJob the time is its wall clock (``day 2 09:05``), and on the CronJob
        itself the line reads ``sync N of M · day 1 00:02 · created hello-29453762 for 00:02``: what
        its controller decided at that sync and why, short.
        """
        if self.cronjob is None:
            # TRANSLATORS: the dashboard's status line, before " · t=3 s · <why>".
            return (_("cycle {cycle} of {n}").format(cycle=self.cycle, n=self.of_cycles) + SEP
                    + _("t={t} s").format(t=format_seconds(self.t)) + SEP + self.reason())
        if self.kind == "CronJob":
            # TRANSLATORS: the status line of a CronJob's dashboard, before " · day 1 00:02 · <what it decided>".
            head = _("sync {cycle} of {n}").format(cycle=self.cycle, n=self.of_cycles)
        else:
            head = _("cycle {cycle} of {n}").format(cycle=self.cycle, n=self.of_cycles)
        return head + SEP + self.clock() + SEP + self.reason()

    def decisions(self) -> list[Decision]:
        """The current cycle's decisions in order (empty at cycle 0)."""
        c = self.current
        return list(c.decisions) if c is not None else []

    def actions_at(self, cycle: int | None = None) -> list:
        """The actions applied right after ``cycle`` (default: the current one)."""
        k = self.cycle if cycle is None else cycle
        return [a for a in self.run.actions if a.cycle == k]

    def explanation(self) -> str:
        """The current cycle's decision in words, with the rule id of every step.

        The first line is the headline (rule and reason); then each decision of the sync in
        order as ``[rule] reason``; then the Events the controller recorded and the learner
        actions applied right after this cycle.
        """
        c = self.current
        lines: list[str] = []
        if c is None and self.kind == "CronJob":
            lines.append(_("Sync 0 of {n}, {clock}: {reason}.").format(n=self.of_cycles, clock=self.clock(),
                                                                        reason=self._before_first_cycle()))
            lines.append(_("Step to see the CronJob controller's first sync of this CronJob."))
        elif c is None:
            lines.append(_("Cycle 0 of {n}, t={t} s: {reason}.").format(n=self.of_cycles, t=format_seconds(self.t),
                                                                        reason=self._before_first_cycle()))
            lines.append(_("Step to see the Job controller's first sync of this Job (its first reconcile cycle).")
                         if self.snapshot is None else
                         _("Step to see the Job controller's next sync on this snapshot, as explain predicts it."))
        else:
            head = c.headline
            if self.kind == "CronJob":
                # TRANSLATORS: {clock} is the time, e.g. day 1 00:02; {reason} the sync's headline sentence.
                lines.append(_("Sync {cycle} of {n}, {clock}: {reason} [{rule}]").format(
                    cycle=c.index, n=self.of_cycles, clock=self.clock(), reason=" ".join(head.reason.split()),
                    rule=head.rule))
            else:
                # TRANSLATORS: {reason} is the cycle's headline sentence, {rule} its rule id (stays English).
                lines.append(_("Cycle {cycle} of {n}, t={t} s: {reason} [{rule}]").format(
                    cycle=c.index, n=self.of_cycles, t=format_seconds(c.t), reason=" ".join(head.reason.split()),
                    rule=head.rule))
            if c.decisions:
                lines.append(_("What the sync did, in order:"))
                for d in c.decisions:
                    lines.append(f"  [{d.rule}] {' '.join(d.reason.split())}")
            if c.error:
                # TRANSLATORS: {error} is the API server's error text (stays English).
                lines.append(_("The sync returned an error and will be retried: {error}").format(error=c.error))
            elif c.requeue_after is not None:
                lines.append(_("It asked to be synced again in {seconds} s.").format(
                    seconds=format_seconds(c.requeue_after)))
            for e in c.events:
                # TRANSLATORS: {type}, {reason} and {message} are the Kubernetes Event's own (stay English).
                lines.append(_("Event {type} {reason}: {message}").format(type=e.type, reason=e.reason,
                                                                          message=e.message))
        for a in self.actions_at():
            # TRANSLATORS: {action} is the action as code, e.g. fail_pod(name='pi-x', exit_code=42).
            lines.append(_("Learner action right after this cycle: {action}").format(action=a.describe()))
        return "\n".join(lines)

    def pod_phases(self) -> dict[str, str]:
        """Each pod of the Job at the current cycle: name -> phase (``Terminating`` when being deleted)."""
        out: dict[str, str] = {}
        for p in self.world().pods:
            phase = p.status.phase or Phase.PENDING
            if p.metadata.deletion_timestamp is not None and phase not in (Phase.SUCCEEDED, Phase.FAILED):
                phase = "Terminating"
            out[p.metadata.name] = phase
        return out

    def pods(self) -> list[str]:
        """Names of the Job's pods at the current cycle, in creation order (for the fault menus)."""
        return list(self.pod_phases())

    def nodes(self) -> list[str]:
        """Names of the nodes at the current cycle (a lost node is gone)."""
        return [n.metadata.name for n in self.world().nodes]

    # ------------------------------------------------------------------ moving in time

    def _resolve_start(self) -> int:
        k = self.start_cycle
        n = self.n_cycles
        if k < 0:
            k = n + 1 + k
        return min(max(k, 0), n)

    def step(self) -> bool:
        """Go to the next cycle; False (and nothing changes) at the last one."""
        if self.cycle >= self.n_cycles:
            self._simulate_ahead()
            if self.cycle >= self.n_cycles:
                return False
        self.cycle += 1
        self._simulate_ahead(CHUNK_WORK)
        self._accept("cycle")
        return True

    def back(self) -> bool:
        """Go to the previous cycle; False (and nothing changes) at cycle 0."""
        if self.at_start:
            return False
        self.cycle -= 1
        self._accept("cycle")
        return True

    def seek(self, k: Any) -> list[str]:
        """Go to cycle ``k`` (0 to :attr:`n_cycles`); returns error lines and stays put if it does not exist."""
        if isinstance(k, str) and k.strip().lstrip("-").isdigit():
            k = int(k.strip())
        if not isinstance(k, int) or isinstance(k, bool):
            return self._refuse([_("cycle: must be a whole number between 0 and {n}, got {value!r}").format(
                n=self.n_cycles, value=k)])
        if k > self.n_cycles and not self.final:
            self.run.extend(k)
        if not 0 <= k <= self.n_cycles:
            return self._refuse([_("cycle {index} does not exist: this run has cycles 0 to {n}").format(
                index=k, n=self.n_cycles)])
        self.cycle = k
        self._simulate_ahead(CHUNK_WORK)
        return self._accept("cycle")

    def reset(self) -> None:
        """Start over: the original manifest and settings, no actions, at the starting cycle."""
        self.manifest_text = self.initial_text
        self.config = self.initial_config
        self.run = self.initial_run  # simulated once and kept: the same manifest and settings give the same run
        # (it keeps the Job the picker shows: its focus is set on both runs)
        self.cycle = self._resolve_start()
        self._accept("run", _("reset: the original manifest and settings, no actions"))

    # ------------------------------------------------------------------ changing the run

    def _new_run(self, run: Run, notice: str) -> list[str]:
        # A lazy fork already holds the cycle after the one shown (Step shows it at once); what comes
        # after is simulated on the next move, not on the click's path.
        self.run = run
        self.cycle = min(self.cycle, self.n_cycles)
        return self._accept("run", notice)

    def _with_limit(self, notice: str) -> str:
        """``notice``, followed by what the dashboard says when the current run stops at a limit."""
        run = self.run
        if run.limit is None or not run.complete:
            return notice
        if not stops_early(run):
            return notice
        lines = limit_lines(run.limit, refused=False, snapshot=isinstance(run.source, SNAPSHOTS))
        return "\n".join(filter(None, [notice, *lines]))

    def apply_yaml(self, text: str, *, mode: str = "recreate") -> list[str]:
        """Apply an edited manifest; returns the API server's error lines ([] if accepted).

        ``mode="recreate"`` (what the Apply button does): the Job is created again from
        ``text`` and simulated from the start under the same settings; learner actions are
        dropped; the cycle number is kept (clamped to the new run). ``mode="edit"``:
        ``kubectl apply`` to the running Job right after the current cycle (update
        validation: immutable fields are refused), which forks the run there.
        On any error the current run, cycle and manifest are kept.
        """
        if not isinstance(text, str) or not text.strip():
            return self._refuse(["error: no objects passed to apply (the manifest is empty)"])
        if mode == "recreate":
            problems = create_problems(text)
            if problems:
                return self._refuse(problems)
            try:
                run = Run(text, self.config, budget=self.budget)
            except (ValueError, TypeError) as exc:  # InvalidError, DecodeError, SimulationError
                return self._refuse(error_lines(exc))
            if stops_early(run):
                return self._refuse(limit_lines(run.limit, refused=True, snapshot=isinstance(run.source, SNAPSHOTS)))
            self.manifest_text = text
            return self._new_run(run, ngettext("applied: the Job was created again from the edited manifest "
                                               "({n} cycle)",
                                               "applied: the Job was created again from the edited manifest "
                                               "({n} cycles)", len(run)).format(n=len(run)))
        if mode == "edit" and self.cronjob is not None:
            return self._refuse([_("a running CronJob is changed with the faults and actions (schedule, time zone, "
                                   "suspend); Apply creates it again from the edited YAML")])
        if mode == "edit":
            try:
                run = self.run.fork(self.cycle, "edit", manifest=text)
            except (ValueError, TypeError, IndexError) as exc:
                return self._refuse(error_lines(exc))
            if stops_early(run) and not stops_early(self.run):
                # The edit makes the run too big (a run that already stops at a limit stays editable).
                return self._refuse(limit_lines(run.limit, refused=True, snapshot=isinstance(run.source, SNAPSHOTS)))
            self.manifest_text = text
            return self._new_run(run, self._fork_notice(None, run))
        return self._refuse([f'mode: Unsupported value: "{mode}": supported values: "recreate", "edit"'])

    def _fork_notice(self, what: str | None, run: Run) -> str:
        """What forking the run did, in words; ``what`` is the action as code, None for an edit."""
        k, old, new_len = self.cycle, self.of_cycles, len(run)
        if what is None:
            # An edit has sentences of its own: "edit (kubectl apply)" in place of {what} would
            # leave a Chinese sentence with a space after its closing bracket, a Russian one
            # with the wrong gender.
            if not run.complete:
                # TRANSLATORS: {old} may end in + (not final yet).
                return _("edit (kubectl apply) applied right after cycle {cycle}: the run was forked there; cycle "
                         "{next} is ready and the cycles after it are simulated as you step ({old} -> {new}+ cycles "
                         "so far)").format(cycle=k, next=k + 1, old=old, new=new_len)
            if k < self.n_cycles or not self.final:
                return ngettext("edit (kubectl apply) applied right after cycle {cycle}: the run was forked there; "
                                "cycles after {cycle} were simulated again ({old} -> {new} cycle)",
                                "edit (kubectl apply) applied right after cycle {cycle}: the run was forked there; "
                                "cycles after {cycle} were simulated again ({old} -> {new} cycles)", new_len).format(
                    cycle=k, old=old, new=new_len)
            return ngettext("edit (kubectl apply) applied right after cycle {cycle}, the last one ({old} -> {new} "
                            "cycle)",
                            "edit (kubectl apply) applied right after cycle {cycle}, the last one ({old} -> {new} "
                            "cycles)", new_len).format(cycle=k, old=old, new=new_len)
        if not run.complete:
            # TRANSLATORS: {what} is the action as code (fail_pod(name='x')); {old} may end in + (not final yet).
            return _("{what} applied right after cycle {cycle}: the run was forked there; cycle {next} is ready "
                     "and the cycles after it are simulated as you step ({old} -> {new}+ cycles so far)").format(
                what=what, cycle=k, next=k + 1, old=old, new=new_len)
        if k < self.n_cycles or not self.final:
            # TRANSLATORS: {what} is the action as code (fail_pod(name='x')).
            return ngettext("{what} applied right after cycle {cycle}: the run was forked there; cycles after "
                            "{cycle} were simulated again ({old} -> {new} cycle)",
                            "{what} applied right after cycle {cycle}: the run was forked there; cycles after "
                            "{cycle} were simulated again ({old} -> {new} cycles)", new_len).format(
                what=what, cycle=k, old=old, new=new_len)
        # TRANSLATORS: {what} is the action as code (fail_pod(name='x')).
        return ngettext("{what} applied right after cycle {cycle}, the last one ({old} -> {new} cycle)",
                        "{what} applied right after cycle {cycle}, the last one ({old} -> {new} cycles)",
                        new_len).format(what=what, cycle=k, old=old, new=new_len)

    def act(self, action: str, **kwargs: Any) -> list[str]:
        """Apply a fault or action right after the current cycle by forking the run there.

        ``action`` is a :class:`~k8sjobs.sim.Simulation` action (``fail_pod``, ``evict_pod``,
        ``delete_pod``, ``lose_node``, ``add_node``, ``fail_next_creates``, ``set_pod_quota``,
        ``set_informer_lag``, ``set_status_conflicts``, ``suspend``, ``resume``, ``scale``,
        ``edit``, ``delete_job``) with its keyword arguments. The cycle stays where it is;
        step to see the effect. Returns error lines ([] if applied); on error nothing changes.
        """
        if not isinstance(action, str) or action not in ACTIONS:
            return self._refuse([_("unknown action {action!r}; actions: {actions}").format(
                action=action, actions=join_list(sorted(ACTIONS)))])
        if action in JOB_ACTIONS and "job" not in kwargs and self.run.focus is not None and self.kind == "Job":
            kwargs = {**kwargs, "job": self.run.focus}  # the Job the picker shows
        if action in CRONJOB_ACTIONS and "cronjob" not in kwargs and self.run.focus is not None \
                and self.kind == "CronJob":
            kwargs = {**kwargs, "cronjob": self.run.focus}  # the CronJob the picker shows
        # A big run's fork shows the forked cycle at once and simulates the rest as the learner steps.
        lazy = not (self.run.complete and work_done(self.run.sim) <= EAGER_FORK_WORK)
        try:
            run = self.run.fork(self.cycle, action, lazy=lazy, **kwargs)
        except (ValueError, TypeError, IndexError) as exc:  # SimulationError, InvalidError, DecodeError
            return self._refuse(error_lines(exc))
        args = ", ".join(f"{k}={v!r}" for k, v in kwargs.items())
        return self._new_run(run, self._fork_notice(f"{action}({args})", run))

    def _objects(self) -> dict:
        """Every object the API server had right after the cycle shown (cached per run, Job shown and cycle)."""
        key = (id(self.run), self.job, self.cycle)
        if getattr(self, "_objects_key", None) != key:
            tr = self.run.trace
            c = self.current
            end = c.change_end if c is not None else (tr.cycles[0].change_start if tr.cycles else len(tr.changes))
            self._objects_cache = tr._objects_until(end)
            self._objects_key = key
        return self._objects_cache

    def active_jobs(self) -> list[str]:
        """The CronJob's Jobs that are not finished at the cycle shown, newest first (the faults' Job menu)."""
        cron = self.cronjob
        if cron is None:
            return []
        uid = self.run.trace_of(cron).job_uid if self.kind == "Job" or self.job != cron else self.run.trace.job_uid
        jobs = [o for (k, _ns, _n), o in self._objects().items() if k == "Job"
                and any(r.uid == uid for r in o.metadata.owner_references)
                and not any(c.type in ("Complete", "Failed") and c.status == "True" for c in o.status.conditions)]
        jobs.sort(key=lambda j: (j.metadata.creation_timestamp or 0.0, j.metadata.name), reverse=True)
        return [j.metadata.name for j in jobs]

    def stop_controllers(self, duration: str | float) -> list[str]:
        """Stop kube-controller-manager for ``duration`` right after the cycle shown (forks the run).

        ``duration``: seconds, or text as the learner types it: whole days, then a Go duration
        (``90m``, ``3h``, ``1h30m``, ``1d12h``). Error lines naming the field if it does not read.
        """
        seconds = _seconds(duration)
        if seconds is None:
            return self._refuse([_("stop the controllers for: must be a duration such as 90m, 3h or 1d12h, got "
                                   "{value!r}").format(value=duration)])
        return self.act("stop_controllers", seconds=seconds)

    def suspend_cronjob_for(self, duration: str | float) -> list[str]:
        """Suspend the CronJob right after the cycle shown and resume it ``duration`` later (``30m``, ``2h``, or
        seconds): two actions, one fork. While it is suspended its controller has no sync to step to, so
        the resumption is taken at its time. Error lines if the duration does not read."""
        seconds = _seconds(duration)
        if seconds is None:
            return self._refuse([_("suspend for: must be a duration such as 90m, 3h or 1d12h, got {value!r}").format(
                value=duration)])
        kwargs = {"cronjob": self.job} if self.kind == "CronJob" and self.run.focus is not None else {}
        try:
            suspended = self.run.fork(self.cycle, "suspend_cronjob", lazy=True, **kwargs)
            at = suspended.actions[-1].t + seconds
            run = suspended.fork_at_time(at, "resume_cronjob", lazy=True, **kwargs) if at <= self.max_time \
                else suspended
        except (ValueError, TypeError, IndexError) as exc:
            return self._refuse(error_lines(exc))
        # TRANSLATORS: {cycle} is a sync's number, {clock} a time such as day 1 00:30.
        return self._new_run(run, _("the CronJob is suspended right after sync {cycle} and resumed at {clock}: the "
                                    "run was forked there; what comes after is simulated as you step").format(
            cycle=self.cycle, clock=self.clock(at)))

    def act_on_job(self, action: str, job: str, **kwargs: Any) -> list[str]:
        """``fail_pod`` or ``stretch_pod`` on the running pod of the Job called ``job`` (a Job of the CronJob):
        forks the run right after the cycle shown. Error lines if the Job has no running pod then."""
        if action not in ("fail_pod", "stretch_pod"):
            return self._refuse([_("unknown action {action!r}; actions: {actions}").format(
                action=action, actions=join_list(["fail_pod", "stretch_pod"]))])
        objs = self._objects()
        owner = next((o for (k, _ns, n), o in objs.items() if k == "Job" and n == job), None)
        pods = [] if owner is None else sorted(
            (o for (k, _ns, _n), o in objs.items() if k == "Pod" and o.metadata.deletion_timestamp is None
             and o.status.phase in (Phase.RUNNING, Phase.PENDING)
             and any(r.uid == owner.metadata.uid for r in o.metadata.owner_references)),
            key=lambda p: (p.status.phase != Phase.RUNNING, p.metadata.creation_timestamp or 0.0, p.metadata.name))
        running = [p for p in pods if p.status.phase == Phase.RUNNING]
        if not running:
            # TRANSLATORS: {action} is the action's name in code (fail_pod, stretch_pod); {job} a Job's name.
            return self._refuse([_("{action}: Job {job} has no running pod at this time (step until it runs)").format(
                action=action, job=job)])
        return self.act(action, name=running[0].metadata.name, **kwargs)

    def configure(self, **settings: Any) -> list[str]:
        """Re-run the same manifest and actions under other settings (``seed``, ``nodes``, ``informer_lag``, ...)."""
        try:
            run = self.run.with_settings(**settings)
        except (ValueError, TypeError) as exc:
            return self._refuse(error_lines(exc))
        if stops_early(run) and not stops_early(self.run):
            return self._refuse(limit_lines(run.limit, refused=True, snapshot=isinstance(run.source, SNAPSHOTS)))
        self.config = run.config
        changed = ", ".join(f"{k}={v!r}" for k, v in settings.items())
        # TRANSLATORS: {settings} is code such as seed=3, nodes=2.
        return self._new_run(run, _("settings changed ({settings}): the run was simulated again").format(
            settings=changed))


__all__ = ["BEFORE_FIRST_CRONJOB_SYNC", "BEFORE_FIRST_CYCLE", "CHUNK_WORK", "CRONJOB_ACTIONS", "DASHBOARD_BUDGET",
           "EAGER_FORK_WORK", "LOOKAHEAD_CYCLES", "NEXT_SCHEDULE_CHUNK", "PICKER_JOBS", "ExplorerState",
           "SimulationError", "create_problems", "error_lines", "format_seconds", "limit_lines", "load_snapshot",
           "manifest_text"]
