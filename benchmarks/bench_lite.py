"""The JupyterLite site: its size, the time to an idle kernel, the time to run each lesson.

    sh tools/lite.sh && .venv/bin/python benchmarks/bench_lite.py [--runs 3] [--lessons 'en/0*'] [--build]

* **Size** of ``_site/`` (no source maps are built), by part: the JupyterLab application, the
  lab extensions, the Pyodide core, the wheels (the largest named), the lessons. Goal: <= 70 MB.
* **Build** (``--build``): ``sh tools/lite.sh`` from clean, timed (the build venv is reused when
  its lock is unchanged, as on a developer's machine).
* **Kernel idle**: from opening a lesson's URL in a fresh page (JupyterLite's browser storage
  cleared, the HTTP cache kept, as for a learner's second visit) until its Pyodide kernel is idle.
* **Run all**: from "run all cells" until the kernel is idle again, per lesson.

Headless Debian Chromium, one tab, one lesson at a time, as the ``lite`` test stage runs them. Each figure: median and best of ``--runs`` runs, interleaved
(lesson 1..N, then again), because this 2-core VM is shared and varies by 30 % or more. Not a
timed test: it prints a table.
"""

from __future__ import annotations

import argparse
import fnmatch
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "lite"))

import litepage  # noqa: E402

GOAL_MB = 70.0


def size_report(site: Path) -> list[tuple[str, int]]:
    """(part, bytes) of the site, largest parts first, with the total last."""
    parts: dict[str, int] = {}
    for f in site.rglob("*"):
        if not f.is_file():
            continue
        rel = f.relative_to(site).as_posix()
        if rel.startswith("static/pyodide/") and rel.endswith(".whl"):
            key = f"wheel {f.name.split('-')[0]}" if f.stat().st_size > 1_000_000 else "wheels (others)"
        elif rel.startswith("static/pyodide/"):
            key = "Pyodide core"
        elif rel.startswith("build/"):
            key = "JupyterLab app (build/)"
        elif rel.startswith("extensions/"):
            key = f"extension {rel.split('/')[1]}"
        elif rel.startswith("files/"):
            key = "lessons (files/)"
        elif rel.startswith("api/translations"):
            key = "interface translations"
        else:
            key = "the rest"
        parts[key] = parts.get(key, 0) + f.stat().st_size
    rows = sorted(parts.items(), key=lambda kv: -kv[1])
    return [*rows, ("total", sum(parts.values()))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3, help="runs per lesson (median and best are printed)")
    parser.add_argument("--lessons", default="*/*.ipynb", help="glob over site paths, e.g. 'en/0*'")
    parser.add_argument("--build", action="store_true", help="time `sh tools/lite.sh` first")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args()

    figures: dict = {}
    if args.build:
        t0 = time.perf_counter()
        subprocess.run(["sh", str(ROOT / "tools" / "lite.sh")], check=True, cwd=ROOT)
        figures["build_s"] = round(time.perf_counter() - t0, 1)
        print(f"build from clean (sh tools/lite.sh): {figures['build_s']} s")
    site = litepage.lite.SITE
    rows = size_report(site)
    figures["size"] = dict(rows)
    print(f"\nsite size ({site.relative_to(ROOT)}/, no source maps)")
    for part, n in rows:
        print(f"  {part:<34} {n / 1e6:7.1f} MB")
    total_mb = rows[-1][1] / 1e6
    print(f"  goal <= {GOAL_MB:.0f} MB: {'met' if total_mb <= GOAL_MB else 'NOT met'}")

    paths = sorted(p.relative_to(site / "files").as_posix() for p in (site / "files").glob("*/*.ipynb"))
    paths = [p for p in paths if fnmatch.fnmatch(p, args.lessons)]
    results: dict[str, dict[str, list[float]]] = {p: {"kernel_idle": [], "run_all": []} for p in paths}
    with litepage.Browser() as browser:
        outside = litepage.watch_outside(browser.context)
        tabs = litepage.LiteTabs(browser, site, outside=outside)
        try:
            for run in range(args.runs):
                for path in paths:
                    notebook, times = tabs.open(path)
                    result = notebook.run_all(timeout=300)
                    if not result.ok:
                        print(f"  {path}: {result.errors}")
                    results[path]["kernel_idle"].append(times["kernel_idle"])
                    results[path]["run_all"].append(result.seconds)
                    print(f"  run {run + 1}/{args.runs} {path}: kernel idle {times['kernel_idle']:.1f} s, "
                          f"run all {result.seconds:.1f} s", flush=True)
        finally:
            tabs.close()
    if outside:
        print(f"REQUESTS TO OUTSIDE 127.0.0.1: {outside}")

    print(f"\nper lesson, {args.runs} run(s): median (best) seconds")
    print(f"  {'lesson':<44} {'kernel idle':>16} {'run all':>16}")
    for path, r in results.items():
        ki, ra = r["kernel_idle"], r["run_all"]
        print(f"  {path:<44} {statistics.median(ki):7.1f} ({min(ki):5.1f}) {statistics.median(ra):8.1f} ({min(ra):5.1f})")
    all_idle = [x for r in results.values() for x in r["kernel_idle"]]
    all_run = [x for r in results.values() for x in r["run_all"]]
    if all_idle:
        print(f"  {'all lessons':<44} {statistics.median(all_idle):7.1f} ({min(all_idle):5.1f}) "
              f"{statistics.median(all_run):8.1f} ({min(all_run):5.1f})")
    figures["lessons"] = results
    if args.json:
        args.json.write_text(json.dumps(figures, indent=1))
    return 1 if outside else 0


if __name__ == "__main__":
    raise SystemExit(main())
