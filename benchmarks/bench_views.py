"""How long each view takes to build, for a 1,000-pod and a 10,000-pod trace.

Run: ``python benchmarks/bench_views.py`` (add ``--sizes 1000`` for the small one only).
Prints a table of view x size -> milliseconds (the median of several builds, at the middle
and at the last cycle; the slower of the two is shown) against the budget of the issue:
50 ms for 1,000 pods, 500 ms for 10,000. This prints figures; it is not a timed test.

The traces are simulated once and pickled under ``artifacts/bench/`` (gitignored), keyed by
the manifest and the source of the simulator, so a changed simulator is simulated again.
The trace's own one-time work (``pod_histories()``, cached on the trace) is measured apart:
a dashboard pays it once per run, not once per step.
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

from k8sjobs import viz  # noqa: E402
from k8sjobs.trace import Run  # noqa: E402
from tests.manifests import DURATION, FAIL_RATE, job_manifest  # noqa: E402

CACHE = ROOT / "artifacts" / "bench"
BUDGET_MS = {1000: 50.0, 10000: 500.0}
REPEATS = 5


def manifest(completions: int, parallelism: int) -> str:
    """A NonIndexed Job of 20-40 s pods, 2% of which fail."""
    return job_manifest(f"bench-{completions}", completions=completions, parallelism=parallelism,
                        spec={"backoffLimit": 1000000}, annotations={DURATION: "20s..40s", FAIL_RATE: "0.02"})


def _source_hash() -> str:
    h = hashlib.sha256()
    for path in sorted((ROOT / "k8sjobs").rglob("*.py")):
        if "viz" not in path.parts:
            h.update(path.read_bytes())
    return h.hexdigest()[:16]


def trace_for(pods: int, *, scale_down: bool = False):
    """The trace of a ``pods``-pod run (parallelism pods/10, 10 nodes), from the cache when it is fresh.

    ``scale_down``: the same run with parallelism cut to a tenth at cycle 20 (a ranking of
    pods/10 candidates for the deletion view).
    """
    text = manifest(pods, max(pods // 10, 1))
    key = hashlib.sha256((text + _source_hash() + str(scale_down)).encode()).hexdigest()[:16]
    path = CACHE / f"trace-{pods}{'-scaled' if scale_down else ''}-{key}.pickle"
    if path.exists():
        with path.open("rb") as f:
            return pickle.load(f), 0.0
    t0 = time.perf_counter()
    run = Run(text, seed=0, nodes=10)
    if scale_down:
        run = run.fork(20, "scale", parallelism=max(pods // 100, 1))
    trace = run.trace
    took = time.perf_counter() - t0
    CACHE.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as f:
        pickle.dump(trace, f, protocol=pickle.HIGHEST_PROTOCOL)
    return trace, took


def _median_ms(fn, repeats: int = REPEATS) -> float:
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t0) * 1000)
    return statistics.median(times)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000])
    p.add_argument("--text", action="store_true", help="also time the text twins")
    args = p.parse_args(argv)

    traces = {}
    for n in args.sizes:
        trace, took = trace_for(n)
        t0 = time.perf_counter()
        histories = trace.pod_histories()
        first = (time.perf_counter() - t0) * 1000
        traces[n] = trace
        sim = f"simulated in {took:.1f} s" if took else "from the cache"
        print(f"{n:>6} pods: {len(histories)} pods, {len(trace.cycles)} cycles, {len(trace.changes)} changes, "
              f"{len(trace.events)} events ({sim}); pod_histories() first call {first:.0f} ms, then cached")

    # Warm up plotly's lazy imports and validators once, on the smallest trace.
    small = traces[min(traces)]
    for view in viz.VIEWS:
        viz.figure(view, small, 1)

    scaled = {n: trace_for(n, scale_down=True)[0] for n in traces}
    cols = [f"{n} pods" for n in traces]
    print()
    print(f"{'view':<14}" + "".join(f"{c:>14}" for c in cols) + "   budget " + " / ".join(
        f"{BUDGET_MS.get(n, float('nan')):g} ms" for n in traces))
    worst_ok = True
    for view in viz.VIEWS:
        cells = []
        for n, trace in traces.items():
            last = len(trace.cycles)
            ms = max(_median_ms(lambda k=k, v=view, tr=trace: viz.figure(v, tr, k)) for k in (last // 2, last))
            if args.text:
                ms_text = max(_median_ms(lambda k=k, v=view, tr=trace: viz.text(v, tr, k)) for k in (last // 2, last))
            ok = ms <= BUDGET_MS.get(n, float("inf"))
            worst_ok &= ok
            cell = f"{ms:8.1f} ms{'' if ok else ' !'}"
            if args.text:
                cell += f" (text {ms_text:.1f})"
            cells.append(cell)
        print(f"{view:<14}" + "".join(f"{c:>14}" for c in cells))
    # The deletion view needs a scale-down: rank pods/10 candidates (a fork of the same run).
    cells = []
    for n, trace in scaled.items():
        k = next(c.index for c in trace.cycles if any(d.rule == "scale_down" for d in c.decisions))
        cand = len(trace.cycle(k).find("scale_down")[0].fields["candidates"])
        ms = _median_ms(lambda k=k, trace=trace: viz.figure("deletion", trace, k))
        ok = ms <= BUDGET_MS.get(n, float("inf"))
        worst_ok &= ok
        cells.append(f"{ms:8.1f} ms{'' if ok else ' !'}")
        print(f"  ({n} pods: the scale-down at cycle {k} ranks {cand} candidates)")
    print(f"{'deletion*':<14}" + "".join(f"{c:>14}" for c in cells))
    print()
    print("all views within budget" if worst_ok else "some views are over budget (marked !)")
    return 0 if worst_ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
