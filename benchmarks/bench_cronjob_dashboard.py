"""The CronJob dashboard's jumps over a week of an every-minute schedule, in the kernel: print figures.

    .venv/bin/python benchmarks/bench_cronjob_dashboard.py [--days 7] [--clicks 15]

An Explorer on a CronJob ``* * * * *`` (one 10 s pod per Job, default history limits, one node),
simulated for a week with the dashboard's limits raised to hold it (10,080 scheduled runs, about
110,000 syncs): the time to open it is printed apart (the simulation of the week). Then what one
click costs in the kernel, as bench_widgets.py measures a Step: the state's move, the status line,
the picker, the time beside the slider, the "why" panel, the visible view's figure applied in
place inside ``batch_update``, and every widget message serialised to JSON as ipykernel would:

* "To the next schedule" at the start of the week and near its end (median of ``--clicks``);
* a slider jump of 7 days (sync 0 -> the last sync of day 7) and back to the start.

Goal for each: <= 200 ms. The browser's drawing time is not included.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench_cronjob_run import CRONJOB  # noqa: E402  (the every-minute CronJob of the week-long run)
from bench_widgets import _Meter, install_serialising_comm  # noqa: E402

GOAL_MS = 200.0


class _Redraws:
    """Milliseconds spent redrawing the visible view (figure built and applied in place) since the last reset."""

    ms = 0.0


def watch_redraws(explorer) -> None:
    """Time the explorer's view redraws apart, to say how much of a jump is the view's."""
    redraw = explorer._redraw

    def timed_redraw(view: str) -> None:
        t0 = time.perf_counter()
        redraw(view)
        _Redraws.ms += (time.perf_counter() - t0) * 1000

    explorer._redraw = timed_redraw


def timed(fn) -> tuple[float, int, float]:
    """Milliseconds of ``fn()``, the bytes of widget messages it sent and the milliseconds of view redraws."""
    before = _Meter.bytes
    _Redraws.ms = 0.0
    t0 = time.perf_counter()
    fn()
    return (time.perf_counter() - t0) * 1000, _Meter.bytes - before, _Redraws.ms


def main() -> None:
    """Open the dashboard on a week of the CronJob, then time its jumps."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--days", type=int, default=7)
    ap.add_argument("--clicks", type=int, default=15)
    args = ap.parse_args()
    install_serialising_comm()
    from k8sjobs.widgets.explorer import Explorer

    limits = {"max_time": args.days * 86400 + 600.0, "max_pods": 10**6, "max_events": 10**8, "max_cycles": 10**8,
              "max_pod_cycles": 10**9}
    t0 = time.perf_counter()
    e = Explorer(CRONJOB, nodes=1, **limits)
    opened = time.perf_counter() - t0
    s = e.state
    watch_redraws(e)
    print(f"opened on {args.days} day(s) of an every-minute CronJob: {opened:.1f} s "
          f"({len(s.run.cluster.syncs):,} syncs, {s.n_cycles:,} of the CronJob, {len(s.jobs) - 1:,} Jobs)")

    def clicks(label: str) -> None:
        times, sent, views = [], [], []
        for _ in range(args.clicks):
            ms, b, v = timed(e.next_schedule_button.click)
            times.append(ms)
            sent.append(b)
            views.append(v)
        assert not e.error.value, e.error.value
        print(f"  to the next schedule, {label}: median {statistics.median(times):.1f} ms (the view's redraw "
              f"{statistics.median(views):.1f} ms), max {max(times):.1f} ms, {statistics.median(sent) / 1024:.1f} KiB "
              f"sent per click (now at {s.clock()})")

    def jump(label: str, k: int) -> None:
        ms, b, v = timed(lambda: e.seek(k))
        print(f"  {label} (to sync {k:,}, {s.clock()}): {ms:.1f} ms (the view's redraw {v:.1f} ms), "
              f"{b / 1024:.1f} KiB sent")

    clicks("at the start of the week")
    last = s.run.trace.cycle_at_time(args.days * 86400.0)
    jump(f"slider jump of {args.days} days", last)
    e.seek(s.run.trace.cycle_at_time((args.days - 1) * 86400.0 + 3600))
    clicks(f"on day {args.days}")
    jump("slider jump back to the start", 0)
    jump(f"slider jump of {args.days} days again", last)
    print(f"goal for each: <= {GOAL_MS:.0f} ms (the visible view: {', '.join(e.visible_views())})")


if __name__ == "__main__":
    main()
