"""``python -m k8sjobs explain FILE``: what the Job controller does next with a real Job, and why.

FILE is what ``kubectl get job,pods -l batch.kubernetes.io/job-name=NAME -o yaml`` (or
``-o json``) printed: a ``v1 List``, several YAML documents, or a Job alone (``-`` reads
standard input). The real controller's next sync runs on exactly that state
(:mod:`k8sjobs.snapshot.explain`); the answer lists what it observes, each decision in order
with its rule id and reason, the result, and what the snapshot cannot show.

``--forecast`` then plays the Job forward in the simulated cluster from the snapshot and
prints the cycles as ``run`` does. Bad input gives one clear line per problem on stderr
and exit status 1; never a traceback.
"""

from __future__ import annotations

import argparse
import json
import os
import sys

from ..api.errors import DecodeError, InvalidError
from ..cluster.workload import parse_go_duration
from ..i18n import _, ngettext
from ..sim import SimConfig, SimulationError
from ..snapshot.cronexplain import DEFAULT_RUNS, CronExplanation
from ..snapshot.errors import CLI, SNAPSHOT_COMMAND, SnapshotError
from ..snapshot.explain import explain
from ..snapshot.read import MAX_SNAPSHOT_BYTES, read_snapshot
from ..trace.run import DEFAULT_MAX_CYCLES
from ..trace.text import render_trace
from ._input import Unreadable, read_input
from .run import FOREVER, add_budget_arguments, budget_problem, cli_message, run_to_json


def add_arguments(p: argparse.ArgumentParser) -> None:
    """Register the command's arguments."""
    p.formatter_class = argparse.RawDescriptionHelpFormatter
    # TRANSLATORS: the commands stay as they are (kubectl and python command lines).
    p.epilog = _("""take a snapshot (-o json for big Jobs: it is read many times faster than YAML), strip its secrets,
explain it:
  kubectl get job,pods -l batch.kubernetes.io/job-name=NAME -o json | python -m k8sjobs redact - > snap.json
  python -m k8sjobs explain snap.json
a Job with labels of its own is not selected by -l: take it by name as another document:
  { kubectl get job NAME -o json; kubectl get pods -l batch.kubernetes.io/job-name=NAME -o json; } > snap.json
add `kubectl get resourcequota -o json` the same way when a quota may refuse pod creations.""")
    # TRANSLATORS: the commands and options stay as they are.
    p.epilog += "\n" + _("""a CronJob: its next runs, its sync now and at the next schedule time, missed runs:
  kubectl get cronjob,jobs -o json > cj.json      (or kubectl get cronjob NAME -o json alone)
  python -m k8sjobs explain cj.json --job NAME --now TIME --forecast --runs 5
its YAML does not say when it was printed: give --now.""")
    p.add_argument("file", metavar="FILE", help=_("what `{command}` printed (YAML or JSON, several documents one "
                                                  "after the other allowed; - for stdin)").format(
        command=SNAPSHOT_COMMAND))
    p.add_argument("--job", metavar="NAME", help=_("the Job or CronJob to explain when the file has several (NAME or "
                                                  "NAMESPACE/NAME; a CronJob is explained unless a Job is named)"))
    p.add_argument("--now", metavar="TIME", help=_("when the sync happens, RFC 3339 (default: the latest time "
                                                  "recorded in the file)"))
    p.add_argument("--format", choices=("text", "json"), default="text", help=_("output format (default text)"))
    p.add_argument("--forecast", action="store_true", help=_("then run the Job forward in the simulated cluster "
                                                            "and print its cycles as `run` does"))
    p.add_argument("--assume-duration", metavar="DURATION", help=_("with --forecast: how long a pod runs when its "
                                                                     "sim annotations do not say (30s, 2m, 1h30m; "
                                                                     "default: the median run time of the succeeded "
                                                                     "pods in the file, else 60s)"))
    p.add_argument("--assume-sync", action="store_true",
                   help=_("with --forecast on a stuck Job (no sync due by itself): start with the sync explained, "
                          "as if one came at the snapshot's time"))
    p.add_argument("--runs", type=int, default=DEFAULT_RUNS, metavar="N",
                   help=_("with --forecast on a CronJob: how many schedule times to play (default {n})").format(
                       n=DEFAULT_RUNS))
    p.add_argument("--seed", type=int, default=0, help=_("random seed of the forecast (default 0)"))
    p.add_argument("--until", type=float, metavar="SECONDS", help=_("with --forecast: stop this many simulated "
                                                                   "seconds after the snapshot (default: when the "
                                                                   "Job finishes)"))
    p.add_argument("--max-cycles", type=int, default=DEFAULT_MAX_CYCLES, help=_("with --forecast: stop after this many reconcile cycles (default {n})").format(
                       n=DEFAULT_MAX_CYCLES))
    add_budget_arguments(p)


def _too_big(path: str) -> str | None:
    """A file larger than a snapshot may be, said before reading it (what to take instead); None if it fits."""
    if path == "-":
        return None  # standard input: read up to the same limit, the reader refuses more
    try:
        size = os.stat(path).st_size
    except OSError:
        return None
    if size <= MAX_SNAPSHOT_BYTES:
        return None
    return _("{path}: {size} bytes: larger than the {limit} bytes a snapshot may have (about "
             "15,000 pods as kubectl prints them); take the Job and only the pods that still run or "
             "wait, e.g. kubectl get job NAME -o yaml and kubectl get pods -l "
             "batch.kubernetes.io/job-name=NAME --field-selector=status.phase!=Succeeded -o yaml").format(
        path=path, size=f"{size:,}", limit=f"{MAX_SNAPSHOT_BYTES:,}")


def _fail(message: str) -> int:
    print(message, file=sys.stderr)
    return 1


def handle(args: argparse.Namespace) -> int:
    """Explain (and forecast); bad input gives one line per problem and exit 1."""
    too_big = _too_big(args.file)
    if too_big is not None:
        return _fail(too_big)
    try:
        data, source = read_input(args.file, MAX_SNAPSHOT_BYTES, snapshot=True)
    except Unreadable as exc:
        return _fail(f"explain: {exc}")
    duration = None
    if args.assume_duration is not None:
        try:
            text = args.assume_duration.strip()
            duration = float(text) if text.replace(".", "", 1).isdigit() else parse_go_duration(text)
        except ValueError as exc:
            return _fail(_("explain: --assume-duration: {detail}").format(detail=exc))
        if not duration > 0:
            return _fail(_("explain: --assume-duration: must be longer than 0 s"))
    if args.until is not None and not 0 < args.until <= FOREVER:
        return _fail(_("explain: --until: must be between 0 and {max} seconds, got {value}").format(
            max=f"{FOREVER:g}", value=f"{args.until:g}"))
    if args.max_cycles < 1:
        return _fail(_("explain: --max-cycles: must be at least 1, got {n}").format(n=args.max_cycles))
    problem = budget_problem(args)
    if problem is not None:
        return _fail("explain: " + problem)
    try:
        snapshot = read_snapshot(data, source, job=args.job, now=args.now)
        config = SimConfig(seed=args.seed)
        answer = explain(snapshot, config)
        answer.surface = CLI
        run = None
        if isinstance(answer, CronExplanation):
            return _cronjob(answer, args, duration)
        if args.forecast:
            run = answer.forecast(duration, until=args.until, max_cycles=args.max_cycles, max_pods=args.max_pods,
                                  max_events=args.max_events, max_pod_cycles=args.max_pod_cycles,
                                  assume_sync=args.assume_sync)
            ahead = run.source
    except SnapshotError as exc:
        return _fail(exc.render(CLI))
    except DecodeError as exc:
        return _fail(exc.render())
    except InvalidError as exc:
        return _fail(exc.message())
    except (SimulationError, ValueError) as exc:
        return _fail(f"explain: {exc}")
    if args.format == "json":
        doc = answer.to_json()
        if run is not None:
            doc["forecast"] = {**run_to_json(run, FORECAST_COMMAND), "assumedDuration": ahead.assumed_duration,
                               "durationFrom": ahead.duration_source}
        json.dump(doc, sys.stdout, indent=1, ensure_ascii=False, default=str)
        sys.stdout.write("\n")
        _stop_note(run, args)
        return 0
    sys.stdout.write(answer.render_text())
    if run is not None:
        sys.stdout.write("\n" + forecast_heading(ahead, answer) + "\n")
        sys.stdout.write(render_trace(run.trace))
        _stop_note(run, args)
    return 0


def _cronjob(answer: CronExplanation, args: argparse.Namespace, duration: float | None) -> int:
    """Print a CronJob's explanation (and its forecast of ``--runs`` schedule times)."""
    forecast = None
    if args.forecast:
        try:
            forecast = answer.forecast(args.runs, duration, until=args.until, max_cycles=args.max_cycles,
                                       max_pods=args.max_pods, max_events=args.max_events,
                                       max_pod_cycles=args.max_pod_cycles)
        except SnapshotError as exc:
            return _fail(exc.render(CLI))
    if args.format == "json":
        doc = answer.to_json()
        if forecast is not None:
            doc["forecast"] = forecast.to_json()
        json.dump(doc, sys.stdout, indent=1, ensure_ascii=False, default=str)
        sys.stdout.write("\n")
    else:
        sys.stdout.write(answer.render_text())
        if forecast is not None:
            sys.stdout.write("\n" + forecast.render_text())
    if forecast is not None and forecast.run.limit is not None and forecast.run.limit.limit not in ("max_time",):
        print("explain: " + cli_message(forecast.run.limit, FORECAST_COMMAND), file=sys.stderr)
    return 0


FORECAST_API = "forecast"
"""How a limit's message names the Python call of a forecast: ``explain(...).forecast(..., max_pods=...)``."""
FORECAST_COMMAND = "explain --forecast"
"""How a limit's message names the command line of a forecast (``python -m k8sjobs explain --forecast``)."""


def _stop_note(run, args: argparse.Namespace) -> None:
    """On stderr: the forecast stopped at a limit before the Job finished, which one, and how to raise it."""
    if run is None or not run.trace.truncated:
        return
    limit = run.limit
    if limit is not None and limit.limit not in ("max_cycles", "max_time"):
        # A run limit (pods, events, pod-cycles): the same message as `run` and the dashboard give.
        print("explain: " + cli_message(limit, FORECAST_COMMAND), file=sys.stderr)
        return
    if len(run) >= args.max_cycles:
        why = _("--max-cycles {n} reached; give a larger --max-cycles to see more").format(n=args.max_cycles)
    else:
        why = _("--until {s} reached").format(s=f"{args.until:g}" if args.until is not None else "?")
    print(ngettext("explain: the forecast stopped after {cycles} cycle at t={t} s, before the Job finished: {why}",
                   "explain: the forecast stopped after {cycles} cycles at t={t} s, before the Job finished: {why}",
                   len(run)).format(cycles=len(run), t=f"{run.trace.end_t:g}", why=why), file=sys.stderr)


def forecast_heading(snapshot, answer=None) -> str:  # noqa: ANN001 -- a Snapshot and its Explanation
    """The line above a forecast: where it starts and what it assumes (run times, nodes, a sync not due)."""
    how = {"given": _("given with --assume-duration"),
           "finished-pods": _("the median run time of {n} succeeded pods in the snapshot").format(
               n=snapshot.duration_pods),
           "default": _("no succeeded pod shows one")}[snapshot.duration_source]
    line = _("Forecast from {now} (simulated time counts from the Job's creation): pods without sim annotations "
             "run {d} s ({how}) and succeed; the nodes are those the pods ran on").format(
        now=snapshot.real_time(snapshot.now), d=f"{snapshot.assumed_duration:g}", how=how)
    if snapshot.unseen:
        line += "\n" + _("The pods the snapshot does not show ({names}) start at {now} on generic nodes.").format(
            names=", ".join(snapshot.unseen[:5]) + (", ..." if len(snapshot.unseen) > 5 else ""),
            now=snapshot.real_time(snapshot.now))
    if answer is not None and answer.stuck and snapshot.sync_due:
        line += "\n" + _("Its first cycle assumes that a sync comes at {now}, although none is due by itself (see "
                         "what looks stuck above): without one, the Job stays as the snapshot shows it.").format(
            now=snapshot.real_time(snapshot.now))
    elif answer is not None and answer.stuck:
        # TRANSLATORS: {option} is --assume-sync (command line) or assume_sync=True (Python).
        line += "\n" + _("No sync is due by itself (see what looks stuck above), so the forecast starts none: "
                         "nothing happens, and the Job stays as the snapshot shows it. Give {option} to play what "
                         "follows if a sync comes at {now}.").format(
            now=snapshot.real_time(snapshot.now),
            option="--assume-sync" if answer.surface == "cli" else "assume_sync=True")
    return line
