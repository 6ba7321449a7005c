"""Simulation benchmarks (issue 8): print figures, assert nothing.

    python benchmarks/bench_sim.py            # 10k and 20k runs, seek, memory
    python benchmarks/bench_sim.py --quick    # a 1,000-pod run only
    python benchmarks/bench_sim.py --repeat 5 # more runs per size on a noisy machine

Figures: wall and CPU seconds of a headless run to the end (completions N, parallelism
N/10, 2 % random failures, 20..40 s pods, enough nodes), the 20k/10k ratio (linearity),
seek time to a cycle of a 1,000-cycle trace, and peak traced memory of the 10k run.
Wall time depends on what else the machine runs (on a shared VM the same run varies by
30 % and more), so each size runs several times, interleaved with the other sizes, and the
best and median are printed.
"""

from __future__ import annotations

import argparse
import gc
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

from k8sjobs.sim import Simulation
from k8sjobs.trace import Run

MANIFEST = """
apiVersion: batch/v1
kind: Job
metadata: {{name: bench}}
spec:
  completions: {n}
  parallelism: {p}
  backoffLimit: 1000000
  template:
    metadata:
      annotations: {{sim.k8sjobs.io/duration: "20s..40s", sim.k8sjobs.io/fail-rate: "0.02"}}
    spec:
      restartPolicy: Never
      containers: [{{name: main, image: busybox}}]
"""


LONG_MANIFEST = MANIFEST.format(n=3000, p=30).replace('"20s..40s"', '"10s..20s"')


def manifest(n: int) -> str:
    """The benchmark Job with ``n`` completions and parallelism n/10."""
    return MANIFEST.format(n=n, p=max(n // 10, 1))


def timed_sim(n: int, *, traced: bool) -> tuple[float, float, int, float]:
    """(wall s, cpu s, cycles, simulated end time) of a run to the end."""
    gc.collect()
    nodes = max(n // 1000, 1) + 1
    w0, c0 = time.perf_counter(), time.process_time()
    if traced:
        run = Run(manifest(n), seed=1, nodes=nodes)
        cycles, end = len(run), run.trace.end_t
    else:
        sim = Simulation(manifest(n), seed=1, nodes=nodes)
        sim.run_until_finished()
        cycles, end = sim.cycles, sim.now
    return time.perf_counter() - w0, time.process_time() - c0, cycles, end


def bytecode_cached() -> None:
    """Write the package's bytecode caches, as a user's Python does on its first run: a machine that sets
    PYTHONDONTWRITEBYTECODE (these VMs do) would otherwise compile every module in every timed process."""
    import compileall

    import k8sjobs

    compileall.compile_dir(str(Path(k8sjobs.__file__).parent), quiet=1)


def whole_process(n: int) -> tuple[float, float]:
    """(wall s, cpu s) of ``python -m k8sjobs run`` on the n-pod Job as a user runs it: a fresh
    interpreter, imports included, to the end (``--format none``: headless, nothing recorded or printed)."""
    nodes = max(n // 1000, 1) + 1
    with tempfile.NamedTemporaryFile("w", suffix=".yaml", delete=False) as f:
        f.write(manifest(n))
    try:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        w0 = time.perf_counter()
        subprocess.run([sys.executable, "-m", "k8sjobs", "run", f.name, "--seed", "1", "--nodes", str(nodes),
                        "--format", "none"], check=True)
        wall = time.perf_counter() - w0
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    finally:
        os.unlink(f.name)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def rss_of_a_traced_run(n: int) -> float:
    """Peak resident memory (MiB) of a fresh interpreter that runs the n-pod Job with its trace.

    Read from VmHWM in /proc/self/status, the peak of the new process's own memory: the
    rusage maximum would also count the parent's memory at the fork (Linux keeps it across
    exec), which made this figure report the benchmark's own 250 MiB.
    """
    here, nodes = str(Path(__file__).parent), max(n // 1000, 1) + 1
    code = (f"import sys; sys.path.insert(0, {here!r}); from bench_sim import manifest; "
            f"from k8sjobs.trace import Run; run = Run(manifest({n}), seed=1, nodes={nodes}); "
            "print([line.split()[1] for line in open('/proc/self/status') if line.startswith('VmHWM')][0])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    return int(out.split()[-1]) / 1024  # VmHWM is in kB


def main() -> None:
    """Run the benchmarks and print a table."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true", help="a 1,000-pod run only")
    ap.add_argument("--repeat", type=int, default=3, help="runs of each size (best and median are printed)")
    args = ap.parse_args()
    sizes = [1000] if args.quick else [1000, 10_000, 20_000]
    print(f"{os.cpu_count()} CPUs; each run {args.repeat} times; cpu s is process time (best / median)")
    print(f"{'run':<26}{'wall best':>10}{'cpu best':>10}{'cpu median':>11}{'cycles':>8}{'sim end s':>11}")
    best: dict[tuple[int, bool], float] = {}
    # Interleaved (every size once, then again): a slow spell of the machine then hits all
    # sizes alike instead of inflating the 20k/10k ratio.
    runs: dict[tuple[int, bool], list[tuple[float, float, int, float]]] = {}
    for _ in range(max(args.repeat, 1)):
        for n in sizes:
            for traced in (False, True):
                runs.setdefault((n, traced), []).append(timed_sim(n, traced=traced))
    for n in sizes:
        for traced in (False, True):
            rows = runs[(n, traced)]
            walls, cpus = [r[0] for r in rows], [r[1] for r in rows]
            best[(n, traced)] = min(cpus)
            _, _, cycles, end = rows[0]
            label = f"{n:,} pods {'with trace' if traced else 'headless'}"
            print(f"{label:<26}{min(walls):>10.2f}{min(cpus):>10.2f}{statistics.median(cpus):>11.2f}"
                  f"{cycles:>8}{end:>11.0f}")
    # Whole processes, as /usr/bin/time measures them (the goal for the 10k run: under 2 s median).
    whole: dict[int, list[tuple[float, float]]] = {}
    bytecode_cached()
    for _ in range(max(args.repeat, 1)):
        for n in sizes:
            whole.setdefault(n, []).append(whole_process(n))
    for n in sizes:
        walls, cpus = [w for w, _ in whole[n]], [c for _, c in whole[n]]
        label = f"{n:,} pods whole process"
        print(f"{label:<26}{min(walls):>10.2f}{min(cpus):>10.2f}{statistics.median(cpus):>11.2f}"
              f"   wall median {statistics.median(walls):.2f} s (python -m k8sjobs run, imports included)")
    if not args.quick:
        ratio = min(c for _, c in whole[20_000]) / min(c for _, c in whole[10_000])
        print(f"20k/10k best-cpu ratio (whole process): {ratio:.2f} (linear = 2.0, limit 2.2)")
        for traced in (False, True):
            ratio = best[(20_000, traced)] / best[(10_000, traced)]
            print(f"20k/10k best-cpu ratio ({'trace' if traced else 'headless'}): {ratio:.2f} "
                  "(linear = 2.0, limit 2.2)")
        tracemalloc.start()
        memory_run = Run(manifest(10_000), seed=1, nodes=11)
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        del memory_run  # kept alive until the peak is read
        print(f"peak traced memory of the 10k run with trace: {peak / 2**20:.0f} MiB (limit 300)")
        print(f"peak RSS of a fresh process running the 10k run with trace: {rss_of_a_traced_run(10_000):.0f} MiB "
              "(interpreter and imports included; limit 300)")
        # A long, narrow Job: ~3,000 pods through 30 slots gives well over 1,000 cycles.
        long_run = Run(LONG_MANIFEST, seed=1, nodes=1)
        n = len(long_run)
        worst = 0.0
        for k in (1, n // 4, n // 2, 3 * n // 4, n):
            t0 = time.perf_counter()
            long_run.state_at(k)
            worst = max(worst, time.perf_counter() - t0)
        print(f"seek in a {n}-cycle trace: worst {worst * 1000:.1f} ms over 5 cycles (limit 100 ms)")


if __name__ == "__main__":
    main()
