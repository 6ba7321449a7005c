"""``python -m k8sjobs run MANIFEST``: simulate a Job and print what the controller did, cycle by cycle."""

from __future__ import annotations

import argparse
import json
import sys

from ..api.errors import DecodeError, InvalidError
from ..i18n import _, ngettext
from ..sim import SimConfig, SimulationError
from ..trace.run import DEFAULT_MAX_CYCLES, Run
from ..trace.text import cycle_to_json, render_trace

FOREVER = 365 * 24 * 3600.0


def add_arguments(p: argparse.ArgumentParser) -> None:
    """Register the command's arguments."""
    p.add_argument("manifest", metavar="MANIFEST", help=_("a batch/v1 Job manifest (YAML or JSON; - for stdin)"))
    p.add_argument("--seed", type=int, default=0, help=_("random seed of the simulation (default 0)"))
    p.add_argument("--nodes", type=int, default=3, help=_("number of nodes (default 3)"))
    p.add_argument("--pods-per-node", type=int, default=110, help=_("pod slots per node (default 110)"))
    p.add_argument("--informer-lag", type=float, default=0.0, help=_("seconds the controller's caches trail the "
                                                                      "API server (default 0)"))
    until = p.add_mutually_exclusive_group()
    until.add_argument("--until", type=float, metavar="SECONDS", help=_("stop after this many simulated seconds"))
    until.add_argument("--until-finished", action="store_true",
                       help=_("run until the Job finishes and nothing is left to do (the default)"))
    p.add_argument("--max-cycles", type=int, default=DEFAULT_MAX_CYCLES,
                   help=_("stop after this many reconcile cycles (default {n})").format(n=DEFAULT_MAX_CYCLES))
    p.add_argument("--format", choices=("text", "json", "none"), default="text", help=_("output format"))


def _read(path: str) -> bytes:
    if path == "-":
        return sys.stdin.buffer.read()
    with open(path, "rb") as fh:
        return fh.read()


def handle(args: argparse.Namespace) -> int:
    """Simulate and print; bad input gives one line per problem and exit 1."""
    try:
        data = _read(args.manifest)
    except IsADirectoryError:
        print("run: " + _("{path}: is a directory, not a manifest file").format(path=args.manifest), file=sys.stderr)
        return 1
    except OSError as exc:
        print(f"run: {args.manifest}: {exc.strerror or exc}", file=sys.stderr)
        return 1
    if args.until is not None and not 0 <= args.until <= FOREVER:
        print("run: " + _("--until: must be between 0 and {max:g} seconds, got {value:g}").format(
            max=FOREVER, value=args.until), file=sys.stderr)
        return 1
    if args.max_cycles < 1:
        print("run: " + _("--max-cycles: must be at least 1, got {value}").format(value=args.max_cycles),
              file=sys.stderr)
        return 1
    try:
        config = SimConfig(seed=args.seed, nodes=args.nodes, pods_per_node=args.pods_per_node,
                           informer_lag=args.informer_lag)
        bar = ProgressBar(sys.stderr, args.until) if sys.stderr.isatty() else None
        run = Run(_decode(data, args.manifest), config, max_time=args.until if args.until is not None else FOREVER,
                  max_cycles=args.max_cycles, progress=bar)
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
    progress_note(run)
    if args.format == "text":
        sys.stdout.write(render_trace(run.trace))
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
    from ..api.yamlio import load_job_manifest

    return load_job_manifest(data, source)


def progress_note(run: Run) -> None:
    """On a terminal, say on stderr when the run stopped at its horizon."""
    if run.trace.truncated and sys.stderr.isatty():
        print(ngettext("note: stopped after {n} cycle at t={t:g} s before the Job finished",
                       "note: stopped after {n} cycles at t={t:g} s before the Job finished", len(run)).format(
            n=len(run), t=run.trace.end_t), file=sys.stderr)


def run_to_json(run: Run) -> dict:
    """``{"job", "seed", "cycles", "events", "final": {"status", "finishedAt"}}``."""
    from ..api.serialize import to_dict

    tr = run.trace
    final = tr.final_job
    finished_at = None
    if final is not None:
        for c in final.status.conditions:
            if c.type in ("Complete", "Failed") and c.status == "True":
                finished_at = c.last_transition_time
                break
    return {
        "job": tr.job_name,
        "seed": tr.seed,
        "cycles": [cycle_to_json(c) for c in tr.cycles],
        "events": [{"t": e.t, "type": e.type, "reason": e.reason, "message": e.message} for e in tr.events],
        "final": {"status": to_dict(final.status) if final is not None else None, "finishedAt": finished_at,
                  "deleted": final is None, "truncated": tr.truncated, "endTime": tr.end_t},
    }
