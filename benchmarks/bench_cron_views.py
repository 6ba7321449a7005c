"""How long the CronJob views take to redraw over a day of an every-minute schedule (1,440 runs).

Run: ``python benchmarks/bench_cron_views.py`` (``--hours 6`` for a shorter day). A dashboard
step redraws the visible view: the figure is built (``viz.figure``) and applied into the
``FigureWidget`` already on the page inside ``batch_update`` (``viz.apply``), as the dashboard
does. This prints the median and the worst over cycles spread across the run (the trace's
one-time work, :mod:`k8sjobs.viz._cron`'s model of the run, is measured apart: a dashboard pays
it once per run), at full and half width, against the goal of issue 23: 50 ms median for the
Schedule view. It prints figures; it is not a timed test.

The run is simulated once and pickled under ``artifacts/bench/`` (gitignored), keyed by the
manifest and the source of the simulator.
"""

from __future__ import annotations

import argparse
import hashlib
import pickle
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_cronjob_run import CRONJOB  # noqa: E402  (the every-minute CronJob of the week-long run)

from k8sjobs import viz  # noqa: E402
from k8sjobs.trace import Run  # noqa: E402
from k8sjobs.viz import _cron  # noqa: E402
from k8sjobs.viz._common import NARROW_FIGURE_PX  # noqa: E402

CACHE = ROOT / "artifacts" / "bench"
GOAL_MS = 50.0
STEPS = 15



def _source_hash() -> str:
    h = hashlib.sha256()
    for path in sorted((ROOT / "k8sjobs").rglob("*.py")):
        if "viz" not in path.parts and "widgets" not in path.parts:
            h.update(path.read_bytes())
    return h.hexdigest()[:16]


def trace_for(hours: float):
    """The CronJob's trace of ``hours`` of the every-minute schedule, from the cache when it is fresh."""
    key = hashlib.sha256((CRONJOB + str(hours) + _source_hash()).encode()).hexdigest()[:16]
    path = CACHE / f"cronjob-{hours:g}h-{key}.pickle"
    if path.exists():
        with path.open("rb") as f:
            return pickle.load(f), 0.0
    t0 = time.perf_counter()
    run = Run(CRONJOB, nodes=3, max_time=hours * 3600, max_pods=10**6, max_events=10**8, max_cycles=10**8,
              checkpoints=False)
    trace = run.cluster.cronjobs()[0]
    took = time.perf_counter() - t0
    CACHE.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as f:
        pickle.dump(trace, f, protocol=pickle.HIGHEST_PROTOCOL)
    return trace, took


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--hours", type=float, default=24)
    args = p.parse_args(argv)
    trace, took = trace_for(args.hours)
    t0 = time.perf_counter()
    m = _cron.model(trace)
    model_ms = (time.perf_counter() - t0) * 1000
    sim = f"simulated in {took:.1f} s" if took else "from the cache"
    print(f"every-minute CronJob, {args.hours:g} h: {len(m.times)} schedule times, {len(m.jobs)} Jobs, "
          f"{len(trace.cycles)} CronJob syncs, {len(trace.changes)} API changes ({sim}); "
          f"the views' model of the run {model_ms:.0f} ms once, then cached")
    import plotly.graph_objects as go

    n = len(trace.cycles)
    cycles = sorted({max(1, n * i // STEPS) for i in range(1, STEPS + 1)})
    print(f"\n{'view':<10}{'width':>7}{'figure+apply median':>22}{'worst':>9}{'text median':>13}   goal {GOAL_MS:g} ms")
    for view in ("schedule", "history"):
        for narrow in (False, True):
            fw = go.FigureWidget(viz.figure(view, trace, cycles[0], narrow=narrow))
            times, texts = [], []
            for k in cycles:
                t0 = time.perf_counter()
                fig = viz.figure(view, trace, k, narrow=narrow)
                with fw.batch_update():
                    viz.apply(fw, fig)
                times.append((time.perf_counter() - t0) * 1000)
                t0 = time.perf_counter()
                viz.text(view, trace, k)
                texts.append((time.perf_counter() - t0) * 1000)
            med = statistics.median(times)
            flag = "" if med <= GOAL_MS else " !"
            width = f"{NARROW_FIGURE_PX}" if narrow else "full"
            print(f"{view:<10}{width:>7}{med:>19.1f} ms{max(times):>7.0f} ms{statistics.median(texts):>10.1f} ms{flag}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
