"""``python -m k8sjobs run MANIFEST``: simulate a Job and print what the controller did, cycle by cycle."""

from __future__ import annotations

import argparse
import json
import math
import re
import sys

from ..api.errors import DecodeError, InvalidError
from ..api.yamlio import MAX_BYTES
from ..cluster.workload import parse_go_duration
from ..i18n import _, ngettext
from ..sim import (
    DEFAULT_MAX_EVENTS,
    DEFAULT_MAX_POD_CYCLES,
    DEFAULT_MAX_PODS,
    Budget,
    LimitReached,
    SimConfig,
    Simulation,
    SimulationError,
)
from ..trace.run import DEFAULT_MAX_CYCLES, Run
from ..trace.text import cycle_to_json, render_run
from ._input import Unreadable, read_input

FOREVER = 365 * 24 * 3600.0

_DAYS = re.compile(r"(\d+(?:\.\d+)?)d(.*)\Z")


def duration(text: str) -> float:
    """Simulated seconds from ``90``, ``90s``, ``15m``, ``3h``, ``7d`` or ``1d12h`` (argparse type): seconds, or
    whole days followed by a Go duration (:func:`~k8sjobs.cluster.workload.parse_go_duration`)."""
    value = text.strip()
    try:
        return float(value)
    except ValueError:
        pass
    m = _DAYS.match(value)
    days, rest = (float(m.group(1)) * 86400, m.group(2)) if m else (0.0, value)
    try:
        if not value:
            raise ValueError(value)
        return days + (parse_go_duration(rest) if rest else 0.0)
    except ValueError:
        raise argparse.ArgumentTypeError(_("{value!r} is not a duration: give seconds (90) or a number with a "
                                           "unit: 90s, 15m, 3h, 7d, 1h30m").format(value=text)) from None


def add_arguments(p: argparse.ArgumentParser) -> None:
    """Register the command's arguments."""
    p.add_argument("manifest", metavar="MANIFEST", help=_("a batch/v1 Job manifest (YAML or JSON; - for stdin)"))
    p.add_argument("--seed", type=int, default=0, help=_("random seed of the simulation (default 0)"))
    p.add_argument("--nodes", type=int, default=3, help=_("number of nodes (default 3)"))
    p.add_argument("--pods-per-node", type=int, default=110, help=_("pod slots per node (default 110)"))
    p.add_argument("--informer-lag", type=float, default=0.0, help=_("seconds the controller's caches trail the "
                                                                      "API server (default 0)"))
    p.add_argument("--start", metavar="TIME",
                   help=_("the wall-clock instant of simulated time 0, RFC 3339 with its offset, such as "
                          "2026-03-08T00:00:00-05:00 (default 2026-01-01T00:00:00Z): the dates a CronJob's "
                          "schedule, its Jobs' names and the printed times read"))
    until = p.add_mutually_exclusive_group()
    until.add_argument("--until", type=duration, metavar="DURATION",
                       help=_("stop after this much simulated time: seconds, or with units (90s, 15m, 3h, 7d, "
                              "1h30m)"))
    until.add_argument("--until-finished", action="store_true",
                       help=_("run until the Job finishes and nothing is left to do (the default)"))
    p.add_argument("--max-cycles", type=int, default=DEFAULT_MAX_CYCLES,
                   help=_("stop after this many reconcile cycles (default {n})").format(n=DEFAULT_MAX_CYCLES))
    add_budget_arguments(p)
    p.add_argument("--format", choices=("text", "json", "none"), default="text", help=_("output format"))


def add_budget_arguments(p: argparse.ArgumentParser) -> None:
    """The run limits besides time and cycles (``run``, ``explain --forecast``): see :class:`~k8sjobs.sim.Budget`."""
    p.add_argument("--max-pods", type=int, default=DEFAULT_MAX_PODS,
                   help=_("stop once more than this many pods were created (default {n})").format(n=DEFAULT_MAX_PODS))
    p.add_argument("--max-events", type=int, default=DEFAULT_MAX_EVENTS,
                   help=_("stop after this many simulation events (default {n})").format(n=DEFAULT_MAX_EVENTS))
    p.add_argument("--max-pod-cycles", type=int, default=DEFAULT_MAX_POD_CYCLES,
                   help=_("stop once the reconcile cycles looked at more than this many pods in all (each cycle "
                          "looks at every live pod of the Job; default {n})").format(n=DEFAULT_MAX_POD_CYCLES))


def budget_problem(args: argparse.Namespace) -> str | None:
    """The first budget option below 0, in words (None if all are valid)."""
    for option in ("max_pods", "max_events", "max_pod_cycles"):
        if getattr(args, option) < 0:
            return _("--{option}: must be at least 0, got {value}").format(option=option.replace("_", "-"),
                                                                          value=getattr(args, option))
    return None


def handle(args: argparse.Namespace) -> int:
    """Simulate and print; bad input gives one line per problem and exit 1."""
    try:
        data, source = read_input(args.manifest, MAX_BYTES)
    except Unreadable as exc:
        print(f"run: {exc}", file=sys.stderr)
        return 1
    if args.until is not None and not 0 <= args.until <= FOREVER:
        print("run: " + _("--until: must be between 0 and {max:g} seconds, got {value:g}").format(
            max=FOREVER, value=args.until), file=sys.stderr)
        return 1
    if args.max_cycles < 1:
        print("run: " + _("--max-cycles: must be at least 1, got {value}").format(value=args.max_cycles),
              file=sys.stderr)
        return 1
    problem = budget_problem(args)
    if problem is not None:
        print("run: " + problem, file=sys.stderr)
        return 1
    try:
        config = SimConfig(seed=args.seed, nodes=args.nodes, pods_per_node=args.pods_per_node,
                           informer_lag=args.informer_lag, start=args.start)
        budget = Budget(max_pods=args.max_pods, max_events=args.max_events, max_pod_cycles=args.max_pod_cycles,
                        max_time=args.until if args.until is not None else FOREVER, max_cycles=args.max_cycles)
        bar = ProgressBar(sys.stderr, args.until) if sys.stderr.isatty() else None
        job = _decode(data, source)
        if args.format == "none":
            # Nothing is printed: simulate without recording a trace (the same events, run for run;
            # the headless run), and say only why it stopped early, if it did.
            sim = Simulation(job, config)
            sim.run_until_finished(math.inf, budget=budget, progress=bar)
            outcome: Run | Simulation = sim
        else:
            # No saved states: a command-line run is never forked.
            outcome = Run(job, config, budget=budget, progress=bar, checkpoints=False)
        if bar is not None:
            bar.close()
    except DecodeError as exc:
        print(exc.render(), file=sys.stderr)
        return 1
    except InvalidError as exc:
        print(exc.message(), file=sys.stderr)
        return 1
    except (SimulationError, ValueError) as exc:
        print(f"run: {exc}", file=sys.stderr)
        return 1
    if isinstance(outcome, Simulation):
        progress_note(outcome.limit_reached, outcome.cycles, outcome.now, args.until)
        return 0
    run = outcome
    progress_note(run.limit, len(run), run.trace.end_t, args.until)
    if args.format == "text":
        sys.stdout.write(render_run(run.cluster))
    elif args.format == "json":
        json.dump(run_to_json(run), sys.stdout, indent=1, sort_keys=False)
        sys.stdout.write("\n")
    return 0


class ProgressBar:
    """Progress of a long run on a terminal: cycles and simulated time, redrawn in place.

    It appears only after ``SHOW_AFTER`` heap events, so short runs print nothing extra.
    """

    SHOW_AFTER = 20_000
    WIDTH = 30

    def __init__(self, stream, until: float | None) -> None:
        self.stream = stream
        self.until = until
        self.shown = False

    def __call__(self, sim) -> None:
        if sim.events_run < self.SHOW_AFTER:
            return
        job = sim.job
        done = total = 0
        if job is not None and job.spec.completions:
            done, total = job.status.succeeded + job.status.failed, job.spec.completions
        elif self.until:
            done, total = int(sim.now), int(self.until)
        frac = min(done / total, 1.0) if total else 0.0
        filled = int(frac * self.WIDTH)
        bar = "#" * filled + "." * (self.WIDTH - filled)
        # TRANSLATORS: the progress line of a long run: {bar} is the bar, {percent} e.g. " 42%".
        self.stream.write("\r" + _("simulating [{bar}] {percent}  cycle {cycle}  t={t} s ").format(
            bar=bar, percent=f"{frac:4.0%}", cycle=sim.cycles, t=f"{sim.now:,.0f}"))
        self.stream.flush()
        self.shown = True

    def close(self) -> None:
        """Erase the bar (the trace follows on stdout)."""
        if self.shown:
            self.stream.write("\r" + " " * (self.WIDTH + 60) + "\r")
            self.stream.flush()


def _decode(data: bytes, source: str):
    """Every Job of the file, checked as the API server would before any is created (the one
    validation path of ``validate``, ``run`` and :func:`k8sjobs.validate`)."""
    from ..sim import check_manifest, first_error

    checked = check_manifest(data, source)
    error = first_error(checked)
    if error is not None:
        raise error
    jobs = tuple(c.obj for c in checked)
    return jobs[0] if len(jobs) == 1 else jobs


def progress_note(limit: LimitReached | None, cycles: int, end_t: float, until: float | None = None) -> None:
    """Say on stderr when a limit stopped the run (after ``cycles`` cycles, at ``end_t``) before the Job
    finished: which, and how to raise it.

    Stopping at the ``--until`` the user asked for is said only on a terminal (it was asked for).
    """
    if limit is None:
        return
    if limit.limit == "max_time" and until is not None:
        if sys.stderr.isatty():
            print(ngettext("note: stopped after {n} cycle at t={t:g} s before the Job finished",
                           "note: stopped after {n} cycles at t={t:g} s before the Job finished", cycles).format(
                n=cycles, t=end_t), file=sys.stderr)
        return
    print(_("note: {message}").format(message=cli_message(limit, "run")), file=sys.stderr)


def last_job_status(run: Run):
    """The Job's status at the end of the run, or, if it was deleted (by ttlSecondsAfterFinished or
    ``delete_job``), the last status it had; None if it never existed in the trace."""
    tr = run.trace
    if tr.final_job is not None:
        return tr.final_job.status
    for ch in reversed(tr.changes):
        if ch.kind == "Job" and ch.obj.metadata.uid == tr.job_uid:
            return ch.obj.status
    return None


LIMIT_OPTIONS = {"max_pods": "--max-pods", "max_events": "--max-events", "max_pod_cycles": "--max-pod-cycles",
                 "max_time": "--until", "max_cycles": "--max-cycles"}
"""The command-line option (of ``run``, and of ``explain --forecast``) that raises each limit."""


def cli_message(limit: LimitReached, command: str = "run") -> str:
    """Why a run stopped early, for a command-line user: the option of ``python -m k8sjobs {command}`` to raise."""
    from ..trace.limits import command_hint, message

    return message(limit, command_hint(limit, LIMIT_OPTIONS[limit.limit], command))


def run_to_json(run: Run, command: str = "run") -> dict:
    """``{"job", "seed", "cycles", "events", "final": {"status", "lastStatus", "finishedAt", ...}, "objects"}``.

    The first keys are about the run's first object (its Job, or a CronJob and its syncs); ``objects``
    lists every object the run ends with, in creation order: ``{"kind", "namespace", "name", "status"}``.
    ``status`` is the Job's status at the end (null once it was deleted); ``lastStatus`` is the
    last status it had, also when the TTL controller deleted it, so the outcome stays visible;
    ``limit`` names the limit that stopped the run early (null if none did).
    """
    from ..api.serialize import to_dict
    from ..api.snapshot import shift_times

    tr = run.trace
    if tr.origin:  # a run from a real cluster's snapshot: its statuses carry the cluster's dates

        def to_dict(obj, _plain=to_dict):  # noqa: ANN001, ANN202 -- to_dict with the times moved
            return _plain(shift_times(obj, tr.origin))

    final = tr.final_job
    last = last_job_status(run)
    finished_at = None
    if last is not None and tr.kind == "Job":
        for c in last.conditions:
            if c.type in ("Complete", "Failed") and c.status == "True":
                finished_at = c.last_transition_time
                break
    limit = tr.limit
    objects = []
    for each in run.cluster.traces.values():
        # The objects the run ends with, in creation order, with their status as the API server returns it.
        if each.final_job is not None:
            objects.append({"kind": each.kind, "namespace": each.job_key.partition("/")[0], "name": each.job_name,
                            "status": to_dict(each.final_job.status)})
    return {
        "job": tr.job_name,
        "seed": tr.seed,
        "cycles": [cycle_to_json(c) for c in tr.cycles],
        "events": [{"t": e.t, "type": e.type, "reason": e.reason, "message": e.message} for e in tr.events],
        "final": {"status": to_dict(final.status) if final is not None else None,
                  "lastStatus": to_dict(last) if last is not None else None, "finishedAt": finished_at,
                  "deleted": final is None, "truncated": tr.truncated, "endTime": tr.end_t,
                  "limit": None if limit is None else {"name": limit.limit, "value": limit.value,
                                                       "reached": limit.count, "cycle": limit.cycle, "t": limit.t,
                                                       "message": cli_message(limit, command)}},
        "objects": objects,
    }
